"""PostgreSQL: one gateway routing scope for the whole store. Each replica used to route in the path of its
own ``$HERMES_HOME/sessions``, so replicas with different homes kept separate tables, and a chat routed on
each got a session on each. Every entry and every stored background-process list moves to the store's scope
(``''``, the column's default); where replicas each held a key, the one written last stays. Nothing changes
on SQLite (the scope there is the agent's sessions directory, which its gateway reads).

Revision ID: 0024_pg_store_routing_scope
Revises: 0023_pg_agent_flags
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0024_pg_store_routing_scope"
down_revision = "0023_pg_agent_flags"
branch_labels = None
depends_on = None

_UP = (
    "DELETE FROM gateway_routing g WHERE EXISTS (SELECT 1 FROM gateway_routing n "
    "WHERE n.session_key = g.session_key AND (n.updated_at, n.rowid) > (g.updated_at, g.rowid))",
    "UPDATE gateway_routing SET scope = '' WHERE scope <> ''",
    "DELETE FROM hs_gateway_processes g WHERE EXISTS (SELECT 1 FROM hs_gateway_processes n "
    "WHERE n.session_key = g.session_key AND (n.updated_at, n.scope) > (g.updated_at, g.scope))",
    "UPDATE hs_gateway_processes SET scope = '' WHERE scope <> ''",
)


def upgrade() -> None:
    """Merge every scope into the store's."""
    run_on_postgresql(op.get_bind(), _UP)


def downgrade() -> None:
    """Nothing to undo that can be undone: which replica's path an entry came from is gone, and an older build
    routes in its own home's scope again (starting its table empty)."""
