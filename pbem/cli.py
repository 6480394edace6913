"""Commands: `flask --app pbem <command>`.

    serve      upgrade the database, deliver mail in the background, run the server
    new-game   create a game and mail the invitations; prints the game's id
    deliver    send the mail that is due (once, or --loop)
"""

from __future__ import annotations

import time

import click
from flask import current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade
from werkzeug.serving import run_simple

from . import games, store
from .errors import BadInput
from .extensions import db
from .games.errors import GameError
from .mail import notify
from .mail.deliver import deliver_due, start_background_sender
from .people import parse_player


def init_app(app) -> None:
    for command in (serve, new_game, deliver):
        app.cli.add_command(command)


@click.command("serve")
@with_appcontext
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
def serve(host: str, port: int):
    """Upgrade the database, start the mail sender and serve (one machine, embedded defaults)."""
    app = current_app._get_current_object()
    upgrade()
    start_background_sender(app)
    click.echo(f"pbem: {app.config['BASE_URL']} (mail: {app.config['MAIL_URL']}, "
               f"outbox page: {'on at /outbox' if app.config['OUTBOX_PAGE'] else 'off'})")
    # Not app.run(): Flask ignores it inside a `flask` command.
    run_simple(host, port, app, use_debugger=app.debug, use_reloader=False, threaded=True)


@click.command("new-game")
@with_appcontext
@click.option("--game", "kind", required=True, help="the game's name, e.g. babel")
@click.option("--player", "players", multiple=True, required=True, help='"Name <address>", once per seat')
@click.option("--first", type=int, default=None, help="the seat that starts (default: at random)")
@click.option("--seed", type=int, default=None, help="the game's seed (default: random)")
@click.option("--option", "options", multiple=True, help="name=value, e.g. sumerians=all")
def new_game(kind, players, first, seed, options):
    """Create a game, mail the invitations, print the game's id."""
    try:
        engine = games.get(kind)
    except games.UnknownGame:
        raise click.UsageError(f"unknown game {kind!r}; games: {', '.join(games.INSTALLED)}") from None
    pairs = {}
    for option in options:
        name, sep, value = option.partition("=")
        if not sep:
            raise click.UsageError(f"--option {option!r}: write name=value")
        pairs[name.strip()] = value.strip()
    if seed is not None and not 0 <= seed < 2 ** store.SEED_BITS:
        raise click.UsageError(f"--seed must be from 0 to 2**{store.SEED_BITS} - 1")
    try:
        people = [parse_player(p) for p in players]
        if first is not None and not 0 <= first < len(people):
            raise BadInput(f"--first must name a seat from 0 to {len(people) - 1}")
        loaded = store.create_game(engine, people, pairs, first, seed)
    except (BadInput, GameError) as error:
        raise click.UsageError(getattr(error, "message", str(error))) from None
    notify.game_created(loaded)
    db.session.commit()
    click.echo(loaded.id)


@click.command("deliver")
@with_appcontext
@click.option("--loop", is_flag=True, help="keep delivering until interrupted")
@click.option("--interval", default=5.0, show_default=True, help="seconds between rounds with --loop")
def deliver(loop: bool, interval: float):
    """Send the mail that is due; undelivered mail stays for the next try."""
    while True:
        report = deliver_due()
        if report.sent or report.retrying or report.failed or not loop:
            click.echo(f"sent {report.sent}, retrying {report.retrying}, failed {report.failed}")
        if not loop:
            return
        time.sleep(interval)
