"""Everything a person or program touches: pages, API routes, the CLI.

Inside this package, NiceGUI is always `from nicegui import ui`; our own modules are
imported as `ui.<module>`, never as a bare `import ui`.
"""
