"""The operator's commands for words and vacations.

    flask --app pbem messages list GAME        a game's messages, hidden ones marked
    flask --app pbem messages hide ID          hide a message from pages, mails and the record
    flask --app pbem vacation show ADDRESS     an address's vacation now, and its days left
    flask --app pbem vacation start ADDRESS --days N   stop his clocks for N days
    flask --app pbem vacation end ADDRESS      he is back
"""

from __future__ import annotations

import click
from flask.cli import AppGroup, with_appcontext
from sqlalchemy import select

from pbem.errors import BadInput, NotFound
from pbem.extensions import db
from pbem.mail.people import email_address
from pbem.players import messages as talk
from pbem.policy import vacation
from pbem.store import gamelog
from pbem.store.models import Message, utcnow

messages = AppGroup("messages", help="Words between players: list a game's, hide one.")
vacations = AppGroup("vacation", help="An address's vacation: all his clocks stop.")


@messages.command("list")
@click.argument("game")
@with_appcontext
def list_messages(game: str):
    """Every message of a game, with its id (hidden ones marked)."""
    try:
        names = gamelog.load(game).names
    except NotFound as error:
        raise click.UsageError(error.message) from None
    for m in db.session.scalars(select(Message).where(Message.game_id == game).order_by(Message.id)):
        hidden = " (hidden)" if m.hidden_at else ""
        click.echo(f"#{m.id} {names[m.seat]}, {m.created_at:%Y-%m-%d %H:%M}{hidden}: "
                   f"{m.text!r}")


@messages.command("hide")
@click.argument("message_id", type=int)
@with_appcontext
def hide(message_id: int):
    """Hide a message from every page, mail and the record (the table keeps it)."""
    try:
        message = talk.hide(message_id)
    except (BadInput, NotFound) as error:
        raise click.UsageError(error.message) from None
    click.echo(f"hid message #{message.id} of game {message.game_id}")


def _address(text: str) -> str:
    try:
        return email_address(text)
    except BadInput as error:
        raise click.UsageError(error.message) from None


@vacations.command("show")
@click.argument("address")
@with_appcontext
def show(address: str):
    address = _address(address)
    span = vacation.current(address)
    away = f"on vacation until {span.ends_at:%Y-%m-%d %H:%M} UTC" if span else "not on vacation"
    click.echo(f"{address}: {away}; {vacation.days_left(address, utcnow())} days left this year")


@vacations.command("start")
@click.argument("address")
@click.option("--days", type=click.IntRange(1, 366), required=True)
@with_appcontext
def start(address: str, days: int):
    """Stop every clock of the address for DAYS whole days (counted against his year's)."""
    address = _address(address)
    try:
        span = vacation.start(address, days)
    except BadInput as error:
        raise click.UsageError(error.message) from None
    click.echo(f"{address} is on vacation until {span.ends_at:%Y-%m-%d %H:%M} UTC")


@vacations.command("end")
@click.argument("address")
@with_appcontext
def end(address: str):
    address = _address(address)
    click.echo(f"{address} is back" if vacation.end(address) else f"{address} was not away")


def commands() -> tuple:
    return (messages, vacations)
