"""The SQLite backend (the default: the agent's ``state.db``): the store (:mod:`.store`), its single writer
and reader pool, the Tx its jobs receive (:mod:`.tx`), search on FTS5 (:mod:`.search`), and what only a
local file has: checkpoints, FTS5 merging, VACUUM and snapshots, export render workers, the instance lock.

The repositories (``app.storage.repos``) are shared with the PostgreSQL backend, as are the descriptions of
the agent's file format (``app.storage.hermes_ddl``, ``agent_shape``, ``hermes_schema``) and the Alembic
history (``app.storage.migrate``). Nothing here imports the PostgreSQL backend.
"""
