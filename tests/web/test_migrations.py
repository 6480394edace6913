"""The schema comes from the migrations alone, and they match the models."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from pbem.extensions import db

TABLES = {"games", "seats", "seat_nonces", "events", "mails"}


def test_migrations_build_exactly_the_models(app):
    with app.app_context():
        with db.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), db.metadata) == []
            assert TABLES <= set(inspect(conn).get_table_names())


def test_downgrade_and_upgrade_again(app):
    with app.app_context():
        downgrade(revision="base")
        assert not TABLES & set(inspect(db.engine).get_table_names())
        upgrade()
        assert TABLES <= set(inspect(db.engine).get_table_names())
