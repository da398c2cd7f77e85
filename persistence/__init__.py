"""Engines, units of work, settings and migrations. May import domain, never ui."""
