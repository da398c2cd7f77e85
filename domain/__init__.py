"""The memory domain: entities, rules and services. Never imports ui or NiceGUI."""
