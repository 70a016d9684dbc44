"""Repositories, shared by both backends: the SQL for one resource each, as plain functions over a
connection, and one class per aggregate whose methods are those functions bound to a job's connection
(:mod:`.repository`). A class sits in the module of its name when that module can import the others it
draws on, else in a class module of its own (``sessions_repo``, ``titles_repo``, ``lineage_repo``,
``export_repo``, ``indexing``); the PostgreSQL backend subclasses them where its SQL differs."""
