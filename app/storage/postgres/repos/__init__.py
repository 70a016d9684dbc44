"""PostgreSQL repositories: the shared repository functions of ``app/storage/repos`` where their SQL is
portable, and PostgreSQL SQL where SQLite's is not (see :mod:`app.storage.postgres.connection`)."""
