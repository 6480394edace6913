"""The schema comes from the migrations alone, and they match the models."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from pbem.extensions import db
from pbem.store.jobqueue import not_the_engines

TABLES = {"games", "seats", "seat_nonces", "events", "mails"}


def test_migrations_build_exactly_the_models(app):
    with app.app_context():
        with db.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"include_object": not_the_engines})
            assert compare_metadata(context, db.metadata) == []
            assert TABLES <= set(inspect(conn).get_table_names())


def test_downgrade_and_upgrade_again(app):
    with app.app_context():
        downgrade(revision="base")
        assert not TABLES & set(inspect(db.engine).get_table_names())
        upgrade()
        assert TABLES <= set(inspect(db.engine).get_table_names())


def test_0007_adds_computer_players_and_takes_them_away_again(app):
    """Downgrading to 0006 drops the computers' columns and table and keeps the games; upgrading
    again gives every existing game the default takeover level, and every seat to a person."""
    from pbem.play import turns
    from pbem.store import gamelog

    def columns(table):
        return {c["name"] for c in inspect(db.engine).get_columns(table)}

    with app.app_context():
        game_id = turns.create_game(turns.Spec(
            "babylonia", [("Anna", "anna@example.org"), ("Bob", "bob@example.org"),
                          ("Carl", "carl@example.org")], {}, 0)).id
        db.session.remove()
        downgrade(revision="0006")
        assert "bot" not in columns("seats") and "takeover" not in columns("games")
        assert "takeovers" not in inspect(db.engine).get_table_names()
        upgrade()
        assert "bot" in columns("seats") and "takeover" in columns("games")
        assert "takeovers" in inspect(db.engine).get_table_names()
        app.extensions["pbem.replay_cache"].clear()
        assert gamelog.load(game_id).row.takeover == "normal"
        assert gamelog.bots(game_id) == {} and gamelog.takeovers(game_id) == {}
        turns.resign(game_id, 2)      # the upgraded game hands a leaving player's seat over
        assert gamelog.bots(game_id) == {2: "normal"}
