"""Importing a page module registers its routes."""
