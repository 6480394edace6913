"""A league's table from its finished games: pure, so the page, its JSON and the final mail
say the same (`pbem.views.leagueview` feeds it).

Points: in each finished game a player scores the share of the other players he finished
ahead of, a shared place counting half. Two players: a win 1, a draw ½, a loss 0; a game
of four: first 1, second ⅔, third ⅓, last 0 (a shared first of three: ¾ each). A player who
left a game (resigned, ran out of time) finished below everybody in it. A game aborted (by
the operator, or a declined invitation) counts for nobody.

Ties are broken by, in order:
1. Sonneborn-Berger: for every other player he met, what he scored against him times that
   player's points (beating the strong counts more than beating the weak);
2. games won outright (the best place among those who stayed, not shared);
3. nothing more: players equal in all three share the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Finished:
    """A finished league game: its players seat by seat, where each finished (1: first), and
    the seats that left (placed last whatever the computer made of them)."""
    players: Sequence[str]
    places: Sequence[int]
    left: frozenset[int] = frozenset()

    def placed(self) -> list[int]:
        last = max(self.places, default=1) + 1
        return [last if seat in self.left else place for seat, place in enumerate(self.places)]


@dataclass(frozen=True)
class Line:
    rank: int
    player: str          # the member's key (an address: never shown; see leagueview)
    played: int          # finished games
    games: int           # all his league games
    won: int
    points: Fraction
    tiebreak: Fraction

    def key(self) -> tuple:
        return (-self.points, -self.tiebreak, -self.won)


def _against(mine: int, theirs: int) -> Fraction:
    return Fraction(1) if mine < theirs else HALF if mine == theirs else Fraction(0)


def shares(game: Finished) -> list[Fraction]:
    """What each seat of a finished game scored."""
    places, count = game.placed(), len(game.players)
    return [sum((_against(places[seat], places[other]) for other in range(count) if other != seat),
                Fraction(0)) / (count - 1) for seat in range(count)]


def table(members: Sequence[str], games: dict[str, int], finished: Sequence[Finished],
          name_of=lambda player: player) -> list[Line]:
    """The standings, best first; `games`: each member's number of league games; `name_of`
    orders players equal in everything (alphabetically; they share the place)."""
    points = {m: Fraction(0) for m in members}
    played = {m: 0 for m in members}
    won = {m: 0 for m in members}
    scored: list[tuple[str, str, Fraction]] = []   # (player, opponent, share of the game's points)
    for game in finished:
        places, count = game.placed(), len(game.players)
        for seat, (player, mine) in enumerate(zip(game.players, shares(game))):
            if player not in points:
                continue
            played[player] += 1
            points[player] += mine
            best = min(places)   # (1, unless the winner left: then the best who stayed)
            if places[seat] == best and places.count(best) == 1:
                won[player] += 1
            for other, opponent in enumerate(game.players):
                if other != seat:
                    scored.append((player, opponent,
                                   _against(places[seat], places[other]) / (count - 1)))
    tiebreak = {m: Fraction(0) for m in members}
    for player, opponent, share in scored:
        tiebreak[player] += share * points.get(opponent, Fraction(0))
    lines = sorted((Line(0, m, played[m], games.get(m, 0), won[m], points[m], tiebreak[m])
                    for m in members), key=lambda line: (line.key(), name_of(line.player).casefold()))
    ranked: list[Line] = []
    for i, line in enumerate(lines):
        rank = ranked[-1].rank if ranked and ranked[-1].key() == line.key() else i + 1
        ranked.append(Line(rank, line.player, line.played, line.games, line.won, line.points,
                           line.tiebreak))
    return ranked


def said(value: Fraction) -> str:
    """Points as read: 2, 1½, ⅔ → "0.67" (halves as ½, other fractions to two decimals)."""
    whole, part = divmod(value, 1)
    if part == 0:
        return str(int(whole))
    if part == HALF:
        return f"{int(whole)}½" if whole else "½"
    return f"{float(value):.2f}"
