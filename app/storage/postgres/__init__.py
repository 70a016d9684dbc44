"""The PostgreSQL backend (``HERMES_DATABASE_URL=postgresql://...``)."""
