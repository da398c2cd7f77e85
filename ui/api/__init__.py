"""JSON API routes for the coaching system; importing a module registers its routes."""
