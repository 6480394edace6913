"""The mails of a league (`pbem.play.leagues`), queued inside its decisions' transactions:
the creator's confirmation, a join link, the start (one mail listing a member's games, beside
the games' usual invitations), a cancellation, and the final table. Each speaks its
recipient's language (his home's choice)."""

from __future__ import annotations

from pbem.games.phrases import phrase
from pbem.mail.compose import queue
from pbem.players import public
from pbem.policy import clocks, links
from pbem.policy.deadlines import utc
from pbem.store import gamelog
from pbem.store.models import League, LeagueMember
from pbem.views import leagueview
from pbem.views.playerview import title_of


def _terms(row: League) -> dict:
    return {"league": row.name, "title": title_of(row.kind), "least": row.least, "most": row.most,
            "clock": clocks.parse(row.clock).describe(), "rated": row.rated,
            "starts": utc(row.starts_at).date().isoformat(),
            "min_on_time": row.min_on_time, "league_url": leagueview.url_of(row.id)}


def _name(address: str) -> str:
    return public.name_of(address) or address


def confirm_league(row: League) -> None:
    assert row.creator is not None
    queue("league_confirm", _name(row.creator), row.creator,
          phrase("Your league {league}: please confirm it", league=row.name),
          {**_terms(row), "confirm_url": links.url_of(links.LEAGUE, row.id)})


def join_link(row: League, member: LeagueMember, has_name: bool) -> None:
    subject = (phrase("You are in the league {league}", league=row.name) if member.joined
               else phrase("Joining the league {league}", league=row.name))
    queue("league_join", _name(member.address), member.address, subject,
          {**_terms(row), "joined": member.joined, "has_name": has_name,
           "join_url": links.url_of(links.LEAGUE_JOIN, [row.id, member.ticket])})


def cancelled(row: League, members: list[str]) -> None:
    for address in members:
        queue("league_cancelled", _name(address), address,
              phrase("The league {league} is cancelled", league=row.name),
              {**_terms(row), "joined": len(members)})


def started(row: League, members: list[str], made: list[tuple[str, list[str]]]) -> None:
    """Each member's games: his opponents, whether he starts, his standing link to it."""
    names = public.names_of(members)
    for address in members:
        mine = []
        for game_id, players in made:
            if address not in players:
                continue
            seat = players.index(address)
            mine.append({"opponents": [names.get(a, "?") for a in players if a != address],
                         "first": seat == 0 if len(players) == 2 else None,
                         "url": links.url(links.SEAT, game_id, seat,
                                          gamelog.current_nonce(game_id, seat))})
        queue("league_started", names.get(address, address), address,
              phrase("The league {league} has started: your games", league=row.name),
              {**_terms(row), "games": mine, "players": len(members)})


def final(row: League) -> None:
    shown = leagueview.league(row.id)
    for address in leagueview.members_of(row.id):
        queue("league_final", _name(address), address,
              phrase("The league {league} is over: the final table", league=row.name),
              {**_terms(row), "table": shown.table, "winners": shown.winners,
               "width": max((len(r.name) for r in shown.table), default=6)})
