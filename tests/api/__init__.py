"""The JSON API against the real server: access, behaviour, and schemathesis."""
