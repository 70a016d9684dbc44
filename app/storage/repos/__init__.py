"""Repositories: the SQL for one resource each, as plain functions over a ``sqlite3.Connection``."""
