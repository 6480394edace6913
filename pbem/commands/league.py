"""`flask --app pbem league ...`: the operator's leagues (`pbem.play.leagues`).

    league create  a league, open at once for players to join from its page
    league tend    what the worker's round does: start leagues whose date came (or cancel
                   them), finish those whose games have all ended (`--now` to pretend a moment)
    league list    the leagues, newest start first
"""

from __future__ import annotations

from datetime import UTC, datetime

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.play import leagues
from pbem.store.models import League
from pbem.views import leagueview


@click.group("league")
def league_group():
    """Leagues by mail: create, tend, list."""


@league_group.command("create")
@click.option("--name", required=True, help="the league's name, shown on its page")
@click.option("--game", "kind", required=True, help="the game's name, as new-game takes it")
@click.option("--players", default="4-8", show_default=True, help="LEAST-MOST players")
@click.option("--starts", required=True, help="the start date, e.g. 2026-12-01 (midnight UTC)")
@click.option("--clock", default="none", show_default=True,
              help="none, move:DAYS or bank:START+INCREMENT/CAP (days)")
@click.option("--rated", is_flag=True, help="its games move the players' ratings")
@click.option("--min-on-time", type=click.IntRange(0, 100), default=None,
              help="the least share of decisions on time (percent) a player needs to join")
@click.option("--option", "options", multiple=True, help="a game option, name=value")
@with_appcontext
def create(name, kind, players, starts, clock, rated, min_on_time, options):
    """Create a league (open at once) and print its id and page."""
    least, sep, most = players.partition("-")
    if not (least.strip().isdigit() and (most or least).strip().isdigit()):
        raise click.UsageError(f"--players {players!r}: write LEAST-MOST, e.g. 4-8")
    pairs = dict(o.partition("=")[::2] for o in options)
    try:
        row = leagues.create(leagues.Terms(name, kind, int(least), int(most if sep else least),
                                           leagues.start_of(starts), clock, rated, min_on_time,
                                           pairs))
    except BadInput as error:
        raise click.UsageError(str(error.message)) from None
    click.echo(f"{row.id} {leagueview.url_of(row.id)}")


@league_group.command("tend")
@click.option("--now", default=None, help="pretend it is this moment (ISO), for trials")
@with_appcontext
def tend(now):
    """Start, cancel and finish the leagues that are due."""
    moment = datetime.fromisoformat(now).replace(tzinfo=UTC) if now else None
    done = leagues.tend(moment)
    click.echo(f"started {len(done.started)}, cancelled {len(done.cancelled)}, "
               f"finished {len(done.finished)}")


@league_group.command("list")
@with_appcontext
def listing():
    """Every league: id, status, start, game, name."""
    for row in db.session.scalars(select(League).order_by(League.starts_at.desc())):
        click.echo(f"{row.id}  {row.status:<9}  {row.starts_at:%Y-%m-%d}  {row.kind:<12}  {row.name}")
