"""The job engine's tables on PostgreSQL: procrastinate's schema, applied by its own SQL.

The fleet's background work runs on procrastinate (`pbem.jobs.engine`), whose jobs live in
the same database as the games, so that a turn's commit carries the jobs it causes. Its
schema is procrastinate's own `schema.sql` (of the version pyproject.toml pins, 3.x),
executed as it ships: writing its tables and functions out again here would copy another
project's code. SQLite keeps no jobs (one process runs the same tasks in a thread), so the
migration does nothing there. A later procrastinate with a new schema brings its migration
files (`procrastinate schema --migrations-path`): they go into a pbem migration of their own.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def _postgresql() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def upgrade():
    if not _postgresql():
        return
    from procrastinate.schema import SchemaManager
    # The driver's own connection: procrastinate's SQL holds '%' and ':' that SQLAlchemy or
    # the driver's parameters would read; without parameters psycopg sends it as it is.
    op.get_bind().connection.driver_connection.execute(SchemaManager.get_schema())


#: What procrastinate's schema makes, by kind, as PostgreSQL's catalogue names them.
_MADE = """
SELECT 'TABLE', quote_ident(c.relname) FROM pg_class c
  WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
    AND c.relname LIKE 'procrastinate%'
UNION ALL
SELECT 'FUNCTION', p.oid::regprocedure::text FROM pg_proc p
  WHERE p.pronamespace = current_schema()::regnamespace AND p.proname LIKE 'procrastinate%'
UNION ALL
SELECT 'TYPE', quote_ident(t.typname) FROM pg_type t
  WHERE t.typnamespace = current_schema()::regnamespace AND t.typname LIKE 'procrastinate%'
    AND t.typtype IN ('e', 'c') AND NOT EXISTS (
      SELECT 1 FROM pg_class c WHERE c.oid = t.typrelid AND c.relkind = 'r')
"""


def downgrade():
    if not _postgresql():
        return
    connection = op.get_bind().connection.driver_connection
    made = connection.execute(_MADE).fetchall()
    for kind in ("TABLE", "FUNCTION", "TYPE"):   # tables first: they use the functions and types
        for _, name in (row for row in made if row[0] == kind):
            connection.execute(f"DROP {kind} IF EXISTS {name} CASCADE")
