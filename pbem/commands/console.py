"""The operator's commands: `flask --app pbem games ...`, `mail suppressed`, `mail quarantine`.

    games list [--waiting|--stalled|--finished] [--json]   every game (or those) and its state
    games show ID [--json]                   one game: players, links, options, its mail
    games abort ID --why TEXT                end it with no winner; the players are mailed why
    games set-address ID SEAT ADDRESS        correct a seat's address: the old links die, the
                                             new address is mailed the invitation (or its turn)
    games resend ID SEAT                     mail a seat its turn mail again (else its links)
    games delete ID [--yes]                  delete an unstarted or aborted game
    mail suppressed [--clear ADDRESS] [--json]   addresses never mailed; mail one again
    mail quarantine [--show ID] [--json]     incoming mail that could not be read

They only translate: what they show comes from `pbem.play.operations` (as the operator's page
does), what they do from the use cases. Exit codes: 0 done, 1 refused (no such game, seat,
address or message; a game already over; a game that may not be deleted), 2 a wrong command
line (click's usage errors, a malformed address, an empty reason).
"""

from __future__ import annotations

import json
import sys
from functools import wraps

import click
from flask.cli import AppGroup, with_appcontext

from pbem.errors import BadInput, ServerError
from pbem.games.base import ABORTED_REASON
from pbem.mail.people import email_address
from pbem.play import addresses, inbox, operations, turns
from pbem.play.operations import FINISHED, UNSTARTED, Result, Summary
from pbem.views.words import listing, match_title, plural

games = AppGroup("games", help="The games as the operator sees them, and what he may do to them.")

#: A game's id may begin with "-" (`store.new_id` draws from the URL-safe alphabet): an unknown
#: "option" is taken as the argument it is, so `games show -6Qx…` shows that game.
TAKES_A_GAME_ID = {"ignore_unknown_options": True}


def operator_commands(mail: click.Group) -> tuple[click.Command, ...]:
    """The operator's commands to register: the `games` group; `suppressed` and `quarantine`
    join the `mail` group (beside `mail status`)."""
    mail.add_command(suppressed)
    mail.add_command(quarantine)
    return (games,)


def refusals(command):
    """A use case's refusal is one line on standard error and exit code 1, not a traceback."""
    @wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except ServerError as error:
            raise click.ClickException(error.message) from None
    return run


def _json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


# -- words ------------------------------------------------------------------------------

def when(moment) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "-"


def result_words(result: Result) -> str:
    """"Anna wins", "Anna and Carl share the win", "a draw", "nobody wins" (aborted)."""
    if result.reason == ABORTED_REASON:
        words = "nobody wins"
    elif len(result.winners) > 1:
        words = f"{listing(result.winners)} share the win"
    elif result.winners:
        words = f"{result.winners[0]} wins"
    else:
        words = "a draw"
    why = f" Why: {result.why}" if result.why else ""
    if result.ending:   # who won and why, points and tie-breaks spelled out
        return f"{result.ending}.{why}"
    return f"{words} ({result.description}).{why}"


def state_words(s: Summary) -> str:
    if s.state == FINISHED and s.result is not None:
        return f"finished {when(s.result.at)}: {result_words(s.result)}"
    waits = "; ".join(f"waiting for {w.name} <{w.address}> since {when(w.since)}"
                      + (f", deadline {when(w.deadline)}" if w.deadline else "") for w in s.waiting)
    return f"unstarted, {waits}" if s.state == UNSTARTED else waits


def players_words(s: Summary) -> str:
    return ", ".join(_player(p) for p in s.players)


# -- games ------------------------------------------------------------------------------

@games.command("list")
@click.option("--waiting", is_flag=True, help="only games that wait for a decision (unstarted ones too)")
@click.option("--stalled", is_flag=True,
              help="only games that wait in vain: undelivered mail, or idle too long")
@click.option("--finished", is_flag=True, help="only finished games")
@click.option("--json", "as_json", is_flag=True, help="a JSON list (fields: see docs/operators.md)")
def list_games(waiting: bool, stalled: bool, finished: bool, as_json: bool):
    """Every game, most recently active first: kind, players, and who it waits for since when,
    or its result."""
    chosen = [name for name, on in ((operations.WAITING, waiting), (operations.STALLED, stalled),
                                    (FINISHED, finished)) if on]
    if len(chosen) > 1:
        raise click.UsageError("choose one of --waiting, --stalled, --finished")
    only = chosen[0] if chosen else None
    found = operations.summaries(only or operations.ALL)
    if as_json:
        return _json([operations.summary_json(s) for s in found])
    for s in found:
        click.echo(f"{s.id}  {s.title}  created {when(s.created)}  {players_words(s)}")
        click.echo(f"    {state_words(s)}")
        for stall in s.stalled:
            click.echo(f"    STALLED: {stall.detail}")
    if not found:
        click.echo("no games" if only is None else f"no {only} games")


@games.command("show", context_settings=TAKES_A_GAME_ID)
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="a JSON object (fields: see docs/operators.md)")
@refusals
def show(game_id: str, as_json: bool):
    """One game: players with their addresses and links, options, log, result, its mail."""
    detail = operations.detail(game_id)
    if as_json:
        return _json(operations.detail_json(detail))
    s = detail.summary
    click.echo(f"Game {s.id}: {s.title}, {match_title(p.name for p in s.players)}")
    options = ", ".join(f"{k}={v}" for k, v in detail.options.items()) or "none"
    limit = f"{plural(detail.time_limit_days, 'day')} a turn" if detail.time_limit_days else "none"
    for label, value in (("created", when(s.created)), ("state", f"{s.state}, {s.events} events"),
                         ("options", options), ("time limit", limit),
                         ("record", detail.record_link)):
        click.echo(f"  {label:<11} {value}")
    if s.result:
        click.echo(f"  {'result':<11} {result_words(s.result)} ({when(s.result.at)})")
    click.echo("Players")
    waits = {w.seat: w for w in s.waiting}
    for p in s.players:
        click.echo(f"  {p.seat}  {_player(p)}")
        click.echo(f"     seat link: {detail.seat_links[p.seat]}")
        if p.seat in waits:
            w = waits[p.seat]
            deadline = f", deadline {when(w.deadline)}" if w.deadline else ""
            click.echo(f"     owes a decision since {when(w.since)}{deadline}")
            click.echo(f"     turn link: {detail.turn_links[p.seat]}")
    for stall in s.stalled:
        click.echo(f"STALLED: {stall.detail}")
    click.echo("Mail")
    for m in detail.mails:
        error = f": {m.last_error}" if m.last_error else ""
        click.echo(f"  #{m.id} {m.kind} to {m.to}, {m.status}, {m.attempts} attempt(s){error}")
        click.echo(f"      {m.subject!r}, {when(m.created)}")
    if not detail.mails:
        click.echo("  none")


@games.command("abort", context_settings=TAKES_A_GAME_ID)
@click.argument("game_id")
@click.option("--why", required=True, help="the reason, mailed to the players")
@refusals
def abort(game_id: str, why: str):
    """End a running game with no winner; every player is mailed the reason."""
    if not why.strip():
        raise click.UsageError("--why needs a reason: the players are told it")
    turns.abort(game_id, why)
    click.echo(f"Game {game_id} is aborted; its players are mailed why.")


@games.command("set-address", context_settings=TAKES_A_GAME_ID)
@click.argument("game_id")
@click.argument("seat", type=click.IntRange(min=0))
@click.argument("address")
@refusals
def set_address(game_id: str, seat: int, address: str):
    """Correct a seat's address (a typo at creation): every link mailed to the old address stops
    working (turn links too), and the new one is mailed the invitation (the game, its decline
    link, its links), or its turn mail once the seat has played."""
    try:
        address = email_address(address)
    except BadInput as error:
        raise click.BadParameter(error.message, param_hint="ADDRESS") from None
    addresses.set_address(game_id, seat, address)
    click.echo(f"Seat {seat} of game {game_id} now plays from {address}; the old links no longer "
               "work, and the game is mailed there.")


@games.command("resend", context_settings=TAKES_A_GAME_ID)
@click.argument("game_id")
@click.argument("seat", type=click.IntRange(min=0))
@refusals
def resend(game_id: str, seat: int):
    """Mail a seat again, now: its turn mail when it owes a decision (one held for a digest or
    dropped for a suppressed address), else its current links (nothing is invalidated)."""
    addresses.resend(game_id, seat)
    click.echo(f"Seat {seat} of game {game_id} is mailed again.")


@games.command("delete", context_settings=TAKES_A_GAME_ID)
@click.argument("game_id")
@click.option("--yes", is_flag=True, help="delete it (without: show what would be deleted)")
@refusals
def delete(game_id: str, yes: bool):
    """Delete an unstarted or aborted game and every row about it, its unsent mail included."""
    if not yes:
        rows = operations.deletion(game_id)
        click.echo(f"Would delete game {game_id}: {_rows(rows)}.")
        click.echo("Nothing was deleted: run again with --yes to delete it.")
        raise SystemExit(1)
    rows = operations.delete_game(game_id)
    click.echo(f"Deleted game {game_id}: {_rows(rows)}.")


def _rows(counts: dict[str, int]) -> str:
    return ", ".join(f"{table}: {n}" for table, n in counts.items())


# -- mail: the suppression list and quarantine ----------------------------------------------

@click.command("suppressed")
@click.option("--clear", "address", default=None, help="mail this address again")
@click.option("--json", "as_json", is_flag=True, help="a JSON list (fields: see docs/operators.md)")
@with_appcontext
def suppressed(address: str | None, as_json: bool):
    """Addresses that are never mailed (they asked so); --clear mails one again."""
    if address is not None:
        address = address.strip().lower()
        if not addresses.unsuppress(address):
            raise click.ClickException(f"{address} is not on the suppression list.")
        click.echo(f"{address} is mailed again.")
        return
    rows = addresses.suppressions()
    if as_json:
        return _json([{"address": r.address, "reason": r.reason,
                       "since": operations.iso(r.created_at)} for r in rows])
    for r in rows:
        click.echo(f"{r.address}  {r.reason}  since {when(r.created_at)}")
    if not rows:
        click.echo("no suppressed addresses")


@click.command("quarantine")
@click.option("--show", "message_id", type=click.IntRange(min=1), default=None,
              help="write this message as it came (the bytes kept) to standard output")
@click.option("--json", "as_json", is_flag=True, help="a JSON list (fields: see docs/operators.md)")
@with_appcontext
def quarantine(message_id: int | None, as_json: bool):
    """Incoming mail that could not be read, newest first; --show writes one out."""
    if message_id is not None:
        row = inbox.quarantined_message(message_id)
        if row is None:
            raise click.ClickException(f"There is no quarantined message {message_id}.")
        sys.stdout.buffer.write(row.raw)   # as it came: to reinject it, or to read it
        sys.stdout.buffer.flush()
        return
    rows = inbox.quarantined()
    if as_json:
        return _json([quarantine_json(r) for r in rows])
    for r in rows:
        click.echo(f"#{r.id}  {when(r.received_at)}  {r.size} bytes  from {r.sender or '-'}  "
                   f"{r.subject!r}: {r.reason}")
    if not rows:
        click.echo("no quarantined mail")


def quarantine_json(row) -> dict:
    return {"id": row.id, "received": operations.iso(row.received_at), "sender": row.sender,
            "subject": row.subject, "size": row.size, "kept": len(row.raw), "reason": row.reason}


def _player(p) -> str:
    """A seat as the operator reads it: "Anna <anna@example.org>", "Computer (normal)", or
    "Carl <carl@example.org> (a computer plays it: normal)"."""
    who = f"{p.name} <{p.address}>" if p.address else p.name
    return who + (f" (a computer plays it: {p.bot})" if p.bot and p.address else "")
