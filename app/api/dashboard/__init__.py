"""The agent dashboard's session API at ``/api/``: 0.19.0's ``hermes_cli/web_server.py`` contract, shape for
shape, for the pages and apps written against it (its own error bodies, ``{"detail": ...}``, here only)."""
