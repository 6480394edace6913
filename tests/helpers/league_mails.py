"""Every kind of league mail (`pbem.mail.leagues`), for the tests that read every mail: a league
asked for by a player (its confirmation), one joined (the join links), started (each player's
list), played to the end (the final table), and one cancelled for too few players."""

from __future__ import annotations

from datetime import timedelta


def every_league_mail(app, addresses, names, seed: int = 1) -> None:
    from sqlalchemy import select

    from pbem.extensions import db
    from pbem.play import leagues
    from pbem.players import public
    from pbem.policy import links
    from pbem.store.models import LeagueGame, LeagueMember, utcnow
    from pbem_web import play  # tests/helpers

    def joined(league: str, address: str) -> None:
        leagues.ask(league, address, "192.0.2.9")
        ticket = db.session.get(LeagueMember, (league, address)).ticket
        leagues.join(links.sign(links.LEAGUE_JOIN, [league, ticket]))

    with app.app_context():
        for address, name in zip(addresses, names):
            if public.name_of(address) is None:
                public.choose(address, name)
        soon = utcnow() + timedelta(days=1)
        leagues.propose(leagues.Terms("Kosmos 2026", "babel-tower", 2, 4, soon), addresses[0],
                        "192.0.2.9")
        played = leagues.create(leagues.Terms("Kosmos 2026", "babel-tower", 2, 2, soon, "move:3")).id
        cancelled = leagues.create(leagues.Terms("Kosmos 2027", "babel-tower", 3, 4, soon)).id
        for address in addresses[:2]:
            joined(played, address)
        joined(cancelled, addresses[0])
        leagues.tend(soon + timedelta(minutes=1))
        game = db.session.scalar(select(LeagueGame.game_id).where(LeagueGame.league_id == played))
    play(app, game, seed)
    with app.app_context():
        assert leagues.tend(soon + timedelta(minutes=2)).finished == [played]
