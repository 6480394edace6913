"""What one seat sees of a game, built once and rendered three ways: a page, JSON, a mail.

A `SeatView` holds exactly what its seat may know, computed by the game's engine for that
seat (None: a spectator), plus the server's facts about the game (who waits, deadlines, mail
that did not arrive). Pages, the JSON API and mails are all rendered from it, so they cannot
disagree; templates get its fields (`context()`), never the loaded game or its state, which
carry the secret seed. A `DraftView` is what a seat composing a decision sees of its draft.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from babel.dates import get_day_names

from pbem import i18n
from pbem.games.base import ABORT, ABORTED, GENERIC_NOTATION, Decision, Draft, Outcome, StepOption
from pbem.games.errors import GameError
from pbem.games.phrases import phrase
from pbem.players import channels, messages, notes, settings
from pbem.players.messages import Said
from pbem.policy import clocks, deadlines, links, vacation
from pbem.store import gamelog
from pbem.store.gamelog import Loaded
from pbem.store.models import utcnow
from pbem.views.words import listing, winner_names


@dataclass(frozen=True)
class Waiting:
    """A seat the game waits for, and for what."""
    seat: int
    name: str
    kind: str
    label: str


@dataclass(frozen=True)
class LastTurn:
    """A decision told to this seat: in notation as it may see it, and in words from its side
    ("Bob moved to the Hittites, settled 2 Persians there ..."; "You built ..."), with the
    marks it leaves on the board (game-defined, `Engine.recount`)."""
    seat: int
    name: str                           # the mover's name (his own, when he reads it)
    notation: str
    words: str = ""
    marks: Mapping[str, Any] = field(default_factory=dict)
    yours: bool = False                 # the reader made it (the game's ending turn)

    @property
    def heading(self) -> str:
        return phrase("Your last turn") if self.yours else phrase("{name}'s last turn", name=self.name)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "notation": self.notation,
                "words": self.words, "marks": dict(self.marks)}


@dataclass(frozen=True)
class Undelivered:
    """A mail of the game that will not arrive (failed, bounced, or to a suppressed address)."""
    name: str
    subject: str


@dataclass(frozen=True)
class OnVacation:
    """A player of the game who is away: his clocks stand still until then."""
    seat: int
    name: str
    until: str
    at: datetime | None = field(default=None, compare=False)   # `until`, for a page to say

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "until": self.until}


@dataclass(frozen=True)
class Resting:
    """A player the game waits for whose deadline falls after rest days of his (his clock
    stands still on them): what the others see, so they know why it is that late."""
    seat: int
    name: str
    days: str                 # his rest days in words, in the reader's language
    at: datetime              # his deadline

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "days": self.days,
                "deadline": self.at.strftime("%Y-%m-%d %H:%M UTC")}


@dataclass(frozen=True)
class SeatView:
    game_id: str
    kind: str                          # the engine's name: "babel"
    title: str                         # the game's title: "Babel"
    example_step: str
    seat: int | None                   # None: a spectator
    seq: int                           # the point of the log seen
    names: tuple[str, ...]
    owes: Decision | None              # what the seat owes now
    live: bool                         # whether this view may answer `owes` (a current turn link)
    view: dict[str, Any]
    legal_steps: tuple[StepOption, ...]   # every legal next step, when live
    last_turn: LastTurn | None
    outcome: Outcome | None
    to_act: tuple[Waiting, ...]
    deadline: datetime | None
    time_limit_days: int | None
    scores: tuple[int, ...]
    board_template: str
    form_template: str | None          # the game's own form for the decision owed, if any
    undelivered: tuple[Undelivered, ...] = ()
    summary: tuple[str, ...] = ()      # a few lines for mails (built for mails only)
    why: str = ""                      # why the game was called off, if it was
    turn_link: str | None = None       # the turn link of the decision the seat owes (its player's)
    bot: str | None = None             # the level of the computer that plays this seat now
    clock: str = ""                    # the game's clock in words ("" when it has none)
    messages: tuple[Said, ...] = ()    # the game's conversation, for its players
    notes: str = ""                    # the seat's own private notes (never in a mail)
    away: tuple[OnVacation, ...] = ()  # the players on vacation now
    resting: tuple[Resting, ...] = ()  # the others it waits for whose deadline is after rest days
    rest_days: str = ""                # the seat's own rest days before its deadline, in words
    vacation: dict | None = None       # the seat's own: {"until", "days_left"} (pages only)
    deadline_local: str | None = None  # `deadline` in its player's own time zone (his settings)
    reply_note: str = ""               # what a mail's reply to the decision owed must hold
    score_word: str = "Scores"         # what the scores count ("Cubes placed")
    #: The others' decisions since this seat's own last turn, oldest first (when the game is
    #: over: the turn that ended it, whoever made it); `last_turn` is the latest of them.
    told: tuple[LastTurn, ...] = ()
    ending: str = ""                   # why the game ended, from this seat's side
    #: The seat may write to the others: a person plays it, and another seat too (computers
    #: read nothing: no message box, no "say" hint, where every other seat is a computer).
    can_talk: bool = False
    #: The seat's player left the game: {"turn": the computer's first, "place": where it
    #: finished (None while the game runs)}; None: he plays it (or never left).
    left: dict[str, int | None] | None = None
    #: The game's webhook, as every player of it sees it (pages and JSON; never a mail).
    game_hook: channels.GameHook | None = None

    @property
    def marks(self) -> dict[str, Any]:
        """Everything `told` changed on the board, for the board to mark (lists joined)."""
        return merged_marks(t.marks for t in self.told)

    @property
    def decision(self) -> Decision | None:
        """The decision this view may answer now."""
        return self.owes if self.live else None

    @property
    def winner_names(self) -> list[str]:
        return winner_names(self.outcome, self.names)

    @property
    def opponents(self) -> list[str]:
        return [n for i, n in enumerate(self.names) if i != self.seat]

    @property
    def page_title(self) -> str:
        """Whose turn it is first, for a browser tab: "Your turn · Babel with Bob"."""
        players = self.opponents if self.seat is not None else list(self.names)
        game = phrase("{game} with {players}", game=self.title, players=listing(players))
        if self.outcome is not None:
            return phrase("Game over · {game}", game=game)
        if self.seat is not None and not self.bot and any(w.seat == self.seat for w in self.to_act):
            return phrase("Your turn · {game}", game=game)
        waiting = [w.name for w in self.to_act if w.seat != self.seat]
        return (phrase("{names}'s turn · {game}", names=listing(waiting), game=game) if waiting
                else game)

    def context(self) -> dict[str, Any]:
        """The fields templates use (pages and mails): nothing the seat may not know."""
        outcome = self.outcome
        return {
            "game_id": self.game_id, "kind": self.kind, "title": self.title,
            "example_step": self.example_step, "seat": self.seat, "seq": self.seq,
            "names": list(self.names), "opponents": self.opponents,
            "opponents_listed": listing(self.opponents),
            "decision": self.decision, "live": self.live, "view": self.view,
            "last_turn": self.last_turn.notation if self.last_turn else None,
            "last_name": self.last_turn.name if self.last_turn else None,
            "last_yours": bool(self.last_turn and self.last_turn.yours),
            "last_heading": self.last_turn.heading if self.last_turn else None,
            "last_words": self.last_turn.words if self.last_turn else None,
            "told": [t.words for t in self.told], "marks": self.marks, "ending": self.ending,
            "told_notation": ([t.notation for t in self.told] if len(self.told) < 2 else
                              [phrase("{name}: {notation}", name=t.name, notation=t.notation)
                               for t in self.told]),
            "page_title": self.page_title,
            "outcome": outcome, "winner_names": self.winner_names,
            "winner_name": (self.names[outcome.winner]
                            if outcome and outcome.winner is not None else None),
            "to_act": [w.__dict__ for w in self.to_act],
            "to_act_names": [w.name for w in self.to_act if w.seat != self.seat],
            "deadline": self.deadline_local,
            # The browser adds its own local time to a deadline shown in UTC (the player chose
            # no time zone on his home); one shown in his zone needs none.
            "deadline_iso": (self.deadline.strftime("%Y-%m-%dT%H:%MZ")
                             if self.deadline and (self.deadline_local or "").endswith(" UTC")
                             else None),
            "time_limit_days": self.time_limit_days, "scores": list(self.scores),
            "summary": list(self.summary), "board_template": self.board_template,
            "form_template": self.form_template,
            "undelivered": [u.__dict__ for u in self.undelivered],
            "record_path": f"/games/{self.game_id}/record", "why": self.why,
            "bot": self.bot, "reply_note": self.reply_note, "score_word": self.score_word,
            "can_talk": self.can_talk,
            "clock": self.clock,
            "messages": list(self.messages), "notes": self.notes,
            "away": [a.__dict__ for a in self.away], "vacation": self.vacation,
            "resting": self.resting, "rest_days": self.rest_days,
            "game_hook": self.game_hook,
            "game_hook_by": (self.names[self.game_hook.set_by]
                             if self.game_hook and self.game_hook.set_by is not None
                             and 0 <= self.game_hook.set_by < len(self.names) else None),
        }

    def to_json(self) -> dict[str, Any]:
        """The JSON a link answers: the seat's view, and its legal steps when it may act."""
        return {
            "game": self.game_id, "kind": self.kind, "title": self.title, "seat": self.seat,
            "seq": self.seq, "names": list(self.names),
            "decision": ({"kind": self.owes.kind, "label": self.owes.label}
                         if self.live and self.owes else None),
            "can_act": self.live, "view": self.view,
            "legal_steps": [step_json(o) for o in self.legal_steps],
            "last_turn": self.last_turn.notation if self.last_turn else None,
            "last_name": self.last_turn.name if self.last_turn else None,
            "told": [t.to_json() for t in self.told], "marks": self.marks,
            "ending": self.ending or None,
            "outcome": outcome_json(self.outcome),
            "winner_names": self.winner_names,
            "to_act": [w.__dict__ for w in self.to_act],
            "deadline": self.deadline.strftime("%Y-%m-%d %H:%M UTC") if self.deadline else None,
            "deadline_local": self.deadline_local,
            "time_limit_days": self.time_limit_days,
            "undelivered": [u.__dict__ for u in self.undelivered],
            "record_path": f"/games/{self.game_id}/record", "why": self.why,
            "turn_link": self.turn_link, "bot": self.bot, "clock": self.clock,
            "messages": [m.to_json() for m in self.messages], "notes": self.notes,
            "away": [a.to_json() for a in self.away],
            "resting": [r.to_json() for r in self.resting],
            "vacation": ({k: v for k, v in self.vacation.items() if k != "at"}
                         if self.vacation is not None else None),
            "left": self.left, "can_talk": self.can_talk,
            "game_webhook": self.game_hook.to_json() if self.game_hook else None,
        }


@dataclass(frozen=True)
class Present:
    """Which of a game's rows beyond the log there are to read (a page's facts count them in
    its one round trip), so the view reads only those: a time bank, messages, the seat's
    notes, the players' vacations of the last year, the game's webhook."""
    bank: bool = True
    messages: bool = True
    notes: bool = True
    vacations: bool = True
    hook: bool = True   # the game's webhook


@dataclass(frozen=True)
class Seating:
    """Who plays the seats now, beyond the log: the seat's computer, and the game's takeovers;
    and what else there is to read (`Present`: unknown, so everything, unless a page says)."""
    bot: str | None
    takeovers: dict[int, gamelog.Left]
    present: Present = Present()
    others: int | None = None   # the other seats people play now (None: read them)
    nonce: str | None = None   # the seat's live seat-link nonce: its turn link carries it


def seating_of(loaded: Loaded, seat: int | None) -> Seating:
    return Seating(gamelog.bot_of(loaded.id, seat) if seat is not None else None,
                   gamelog.takeovers(loaded.id),
                   nonce=gamelog.current_nonce(loaded.id, seat) if seat is not None else None)


def build(loaded: Loaded, seat: int | None, *, live: bool = False, steps: bool = True,
          for_mail: bool = False, undelivered: tuple[Undelivered, ...] = (),
          seating: Seating | None = None) -> SeatView:
    """The seat's view of the game as loaded. `live`: the view answers the decision the seat
    owes, and lists its legal steps unless not `steps` (a preview lists the steps after its
    draft instead); `for_mail`: with the summary mails print, without the engine's `view`
    (no mail template reads it; pages and the JSON have it)."""
    engine, state = loaded.engine, loaded.state
    owes = loaded.decision_of(seat) if seat is not None else None
    seating = seating or seating_of(loaded, seat)   # (pages read it with their facts)
    bot, present = seating.bot, seating.present
    others = (seating.others if seating.others is not None or seat is None
              else sum(1 for s in range(len(loaded.names))
                       if s != seat and s not in gamelog.bots(loaded.id)))
    live = live and owes is not None and not bot
    names = gamelog.display_names(loaded.names, seating.takeovers)
    example, note = (engine.reply_help(state, seat)   # (a mail's: pages need none)
                     if for_mail and owes is not None and seat is not None
                     else (engine.example_step, ""))
    told = told_to(loaded, seat, names, played_by_computer=bool(bot))
    outcome = engine.outcome(state)
    deadline = (deadlines.person_deadline(loaded, seat, present.bank)
                if seat is not None and not bot else None)
    return SeatView(
        game_id=loaded.id, kind=engine.name, title=engine.title, example_step=example,
        seat=seat, seq=loaded.seq, names=tuple(names), owes=owes, live=live,
        view=engine.view(state, seat) if not for_mail else {},   # (no mail prints the view)
        legal_steps=(tuple(engine.legal_steps(state, seat)) if live and steps and seat is not None
                     else ()),
        last_turn=told[-1] if told else None,
        outcome=outcome,
        to_act=tuple(Waiting(d.seat, names[d.seat], d.kind, d.label)
                     for d in engine.to_act(state)),
        deadline=deadline,
        deadline_local=local_deadline(loaded, seat, deadline) if seat is not None else None,
        time_limit_days=loaded.row.time_limit_days,
        scores=tuple(engine.scores(state)),
        board_template=engine.board_template,
        form_template=engine.form_templates.get(owes.kind) if live and owes else None,
        undelivered=undelivered,
        summary=(tuple(engine.summary(state, seat, names)) if for_mail and seat is not None
                 else ()),
        why=called_off_because(loaded),
        turn_link=(links.url(links.TURN, loaded.id, seat, loaded.seq, seating.nonce)
                   if owes is not None and seat is not None and not bot else None),
        bot=bot, reply_note=note, score_word=engine.score_word,
        clock=_clock(loaded, present.bank),
        messages=(tuple(messages.of_game(loaded.id, names))
                  if seat is not None and present.messages else ()),
        notes=(notes.of_seat(loaded.id, seat)
               if seat is not None and not for_mail and present.notes else ""),
        away=away_of(loaded, names) if present.vacations else (),
        resting=resting_of(loaded, seat, names, present.bank) if not for_mail else (),
        rest_days=own_rest(loaded, seat, deadline) if seat is not None and deadline else "",
        vacation=(own_vacation(loaded, seat, present.vacations)
                  if seat is not None and not for_mail and not bot else None),
        told=told, can_talk=seat is not None and not bot and bool(others),
        game_hook=(channels.game_hook_shown(loaded.id)
                   if seat is not None and not for_mail and not bot and present.hook else None),
        left=(left_of(loaded, seat, seating.takeovers[seat], outcome is not None)
              if seat is not None and seat in seating.takeovers else None),
        # (a game called off says why in `why`, with the words every page has for it)
        ending=(ending_for(loaded, seat, names, seating.takeovers)
                if outcome is not None and outcome.reason != ABORTED.reason else ""),
    )


def left_of(loaded: Loaded, seat: int, left: gamelog.Left, over: bool) -> dict[str, int | None]:
    """A player who left: from which turn the computer plays his seat, and where it finished."""
    return {"turn": left.first_turn,
            "place": loaded.engine.places(loaded.state)[seat] if over else None}


def ending_for(loaded: Loaded, seat: int | None, names: list[str],
               left: dict[int, gamelog.Left]) -> str:
    """Why the game ended, from the seat's side. A player who left reads that he did, and
    where the computer that took his seat finished, then the ending as anybody reads it:
    never "You win" for what the computer won."""
    engine, state = loaded.engine, loaded.state
    if seat is None or seat not in left:
        return engine.ending(state, seat, names)
    places = engine.places(state)
    return phrase("{left}. {ending}",
                  left=gamelog.left_result(left[seat].first_turn, places[seat], len(places)),
                  ending=engine.ending(state, None, names))


def local_deadline(loaded: Loaded, seat: int, deadline: datetime | None) -> str | None:
    """The seat's deadline in its player's own time zone (his home's settings; UTC, said so,
    when he chose none): what its pages and mails print."""
    if deadline is None:
        return None
    return settings.local_deadline(deadline, settings.of(gamelog.address_of(loaded.id, seat)))


def own_vacation(loaded: Loaded, seat: int, any_taken: bool = True) -> dict | None:
    """The seat's player's vacation (his address's, across his games): until when he is away
    ("" when he is not), and the days he has left this year (all, when the page's facts found
    no vacation of any player of the game: `any_taken` False)."""
    if not any_taken:      # (a person's seat: a computer's has no vacation)
        return {"until": "", "days_left": vacation.per_year()}
    address = gamelog.address_of(loaded.id, seat)
    if not address:
        return None
    span, days_left = vacation.status(address, utcnow())
    return {"until": span.ends_at.strftime("%Y-%m-%d %H:%M UTC") if span else "",
            "days_left": days_left, "at": span.ends_at if span else None}


def _clock(loaded: Loaded, banked: bool = True) -> str:
    choice = clocks.of_game(loaded.id, loaded.row.time_limit_days, banked)
    return choice.describe() if choice.kind != clocks.NONE else ""


def away_of(loaded: Loaded, names: list[str]) -> tuple[OnVacation, ...]:
    """The game's players on vacation now, and until when (seen by every player)."""
    if loaded.over:
        return ()
    return tuple(OnVacation(seat, names[seat], span.ends_at.strftime("%Y-%m-%d %H:%M UTC"),
                            span.ends_at)
                 for seat, span in vacation.in_game(loaded.id))


def _days_in_words(days: frozenset[int]) -> str:
    """Rest days as the reader's language names them: "Saturday and Sunday"."""
    names = get_day_names("wide", locale=i18n.current())
    return listing([names[d] for d in sorted(days)])


def own_rest(loaded: Loaded, seat: int, deadline: datetime) -> str:
    """The seat's rest days, in words, when one of them comes before its deadline (which they
    moved on); "" otherwise."""
    his = settings.of(gamelog.address_of(loaded.id, seat)).rest
    if not his.days or not his.rests_between(utcnow(), deadline) or not clocks.allows_rest(loaded.id):
        return ""
    return _days_in_words(his.days)


def resting_of(loaded: Loaded, seat: int | None, names: list[str],
               banked: bool = True) -> tuple[Resting, ...]:
    """The others the game waits for whose deadline falls after rest days of theirs (pages
    only: a game without a clock, or one that forbids rest days, reads nothing more)."""
    if loaded.over or clocks.of_game(loaded.id, loaded.row.time_limit_days,
                                     banked).kind == clocks.NONE:
        return ()
    now, out = utcnow(), []
    for decision in loaded.engine.to_act(loaded.state):
        other = decision.seat
        if other == seat or gamelog.bot_of(loaded.id, other):
            continue
        # (his rest days as the game counts them: none where it forbids them)
        his = clocks.rest_of(loaded.id, gamelog.address_of(loaded.id, other))
        deadline = deadlines.person_deadline(loaded, other, banked) if his.days else None
        if deadline is not None and his.rests_between(now, deadline):
            out.append(Resting(other, names[other], _days_in_words(his.days), deadline))
    return tuple(out)


#: At most this many of the others' decisions are told (four players' turns, and cards).
TOLD_AT_MOST = 12


class _ToldCache:
    """What seats were told, per game, point of the log, seat and names, in this process: a
    page's previews (one a click) need not replay the others' turns again. The log's last event
    is part of the key, as in the replay cache: a rolled-back write makes it miss."""

    def __init__(self, size: int = 1024):
        self.size = size
        self._entries: OrderedDict[tuple, tuple[LastTurn, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> tuple[LastTurn, ...] | None:
        with self._lock:
            told = self._entries.get(key)
            if told is not None:
                self._entries.move_to_end(key)
            return told

    def put(self, key: tuple, told: tuple[LastTurn, ...]) -> None:
        with self._lock:
            self._entries[key] = told
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


_TOLD = _ToldCache()


def told_to(loaded: Loaded, seat: int | None, names: list[str],
            played_by_computer: bool = False) -> tuple[LastTurn, ...]:
    """The decisions a seat is told of, in words and marks: the others' since its own last
    turn; once the game is over, the turn that ended it even when the seat made it itself (a
    spectator: the latest decision). Generic events (resigning, running out of time, calling
    the game off) are told by the ending instead, and a game they ended tells no turn.
    `played_by_computer`: a computer took the seat over, so its moves are not "yours"."""
    if loaded.seq == 0:
        return ()
    key = (loaded.id, loaded.seq, seat, tuple(names), played_by_computer,
           repr(loaded.recent[-1:]))
    told = _TOLD.get(key)
    if told is None:
        told = _told(loaded, seat, names, played_by_computer)
        _TOLD.put(key, told)
    return told


def _told(loaded: Loaded, seat: int | None, names: list[str],
          played_by_computer: bool) -> tuple[LastTurn, ...]:
    engine = loaded.engine
    over = engine.outcome(loaded.state) is not None
    if over and loaded.recent and loaded.recent[-1].get("type") in GENERIC_NOTATION:
        return ()       # resigned, out of time, called off: the ending says it, no turn did
    since = loaded.last_turn_of(seat) if seat is not None and not over else 0
    since = max(since, loaded.seq - TOLD_AT_MOST)
    events = loaded.events_after(since)
    # Each with the number of events before it: the point of the log it was applied at.
    numbered = [(since + i, e) for i, e in enumerate(events)
                if e.get("seat") is not None and e.get("type") not in GENERIC_NOTATION]
    if over or seat is None:
        numbered = numbered[-1:]
    else:
        numbered = [(n, e) for n, e in numbered if e["seat"] != seat]
    if not numbered:
        return ()
    before = loaded.state_after(numbered[0][0])
    at, told = numbered[0][0], []
    for number, event in numbered:
        for skipped in events[at - since:number - since]:    # the seat's own, in between
            before = engine.apply(before, skipped)
        # (after the log's last event: the state as loaded, not applied again)
        after = loaded.state if number + 1 == loaded.seq else engine.apply(before, event)
        recount = engine.recount(before, event, seat, after)
        mover = event["seat"]
        yours = mover == seat and not played_by_computer
        words = ((phrase("You {words}.", words=recount.words) if yours
                  else phrase("{name} {words}.", name=names[mover], words=recount.words))
                 if recount.words else "")
        told.append(LastTurn(mover, names[mover], engine.notation(event, seat), words,
                             recount.marks, yours))
        before, at = after, number + 1
    return tuple(told)


def merged_marks(all_marks: Any) -> dict[str, Any]:
    """Several decisions' marks as one: lists joined (without repeats), other values the
    latest's."""
    out: dict[str, Any] = {}
    for marks in all_marks:
        for key, value in marks.items():
            if isinstance(value, list) and isinstance(out.get(key), list):
                out[key] = out[key] + [v for v in value if v not in out[key]]
            else:
                out[key] = value
    return out


def called_off_because(loaded: Loaded) -> str:
    """Why an aborted game was called off (the abort event's words), else ""."""
    last = loaded.recent[-1] if loaded.recent else None
    return str(last.get("why") or "") if last and last.get("type") == ABORT else ""


# -- a draft ---------------------------------------------------------------------------

#: A group of more options than this is folded (a grid of small buttons in a <details>).
FOLD_OVER = 8


@dataclass(frozen=True)
class DraftView:
    """A decision being composed: the draft as far as it is legal, and what may come next."""
    text: str
    draft: Draft = field(compare=False)
    view: dict[str, Any]                 # the seat's view after the draft's legal steps
    legal: tuple[StepOption, ...]        # every legal next step after them
    explained: tuple[str, ...]           # the draft's text in words, step by step
    afresh: bool = False                 # a game's own form: `legal` are the decision's own
    #: What a whole, legal draft changes on the board (`Engine.recount`'s marks: a piece
    #: placed), for the board to mark as the seat's own; {} while it is unfinished.
    marks: Mapping[str, Any] = field(default_factory=dict)
    #: A game's own form shows the game as it stands (`view`); the view after a whole, legal
    #: draft is its preview (None otherwise, and for the composer, whose `view` is after it).
    after: dict[str, Any] | None = None
    #: A draft that can no longer be completed: the step to take back and why
    #: (`Engine.take_back`), else None.
    take_back: tuple[int, str] | None = None

    @property
    def shown(self) -> tuple[StepOption, ...]:
        """The next steps a page offers: after a draft whose first step fails, none (a game's
        own form offers the decision's steps whatever the draft)."""
        return () if self.draft.error and not self.draft.steps and not self.afresh else self.legal

    @property
    def next_steps(self) -> list[StepOption]:
        return [o for o in self.shown if not o.ends]

    @property
    def can_end(self) -> bool:
        return any(o.ends for o in self.shown) or self.draft.done

    def context(self) -> dict[str, Any]:
        steps = self.next_steps
        return {"draft": self.draft, "draft_text": self.text, "view": self.view, "legal": steps,
                "legal_blocks": step_blocks(steps, self.draft.steps), "can_end": self.can_end,
                "explained": list(self.explained) if self.draft.steps else [],
                "draft_marks": dict(self.marks), "after": self.after,
                "take_back": self.take_back}

    def to_json(self) -> dict[str, Any]:
        draft, explain = self.draft, list(self.explained)
        return {"view": self.view, "legal_steps": [step_json(o) for o in self.legal],
                "steps": draft.steps, "done": draft.done, "todo": draft.todo,
                "error": draft.error.said() if draft.error else None,
                "step": draft.error.step if draft.error else None,
                "explain": explain, "sentence": sentence(explain),
                "draft_marks": dict(self.marks),
                "take_back": ({"step": self.take_back[0], "why": self.take_back[1]}
                              if self.take_back else None)}


def compose(loaded: Loaded, seat_view: SeatView, text: str, *, next_steps: bool = True,
            afresh: bool = False) -> DraftView:
    """The seat's draft of the decision it owes, as its page and preview show it.

    `afresh`: a game's own form (`form_template`) composes the whole decision anew, its
    buttons replacing the draft rather than adding to it, so its page offers the decision's
    legal steps on the game as it stands (the seat view's, not computed again), also after
    an illegal draft. Without `next_steps` (a confirmation), no next steps are listed.
    """
    engine, state, seat = loaded.engine, loaded.state, seat_view.seat
    if seat is None:
        raise ValueError("a spectator composes no decision")
    draft = engine.draft(state, seat, text)
    explained = tuple(engine.explain(state, seat, text))
    marks = draft_marks(loaded, seat, text, draft)
    if afresh:
        after = engine.view(draft.state, seat) if marks else None
        return DraftView(text, draft, seat_view.view, seat_view.legal_steps, explained,
                         afresh=True, marks=marks, after=after)
    if not draft.steps and draft.error is None and seat_view.legal_steps:
        # Nothing composed yet: the position the seat view shows, its steps listed already.
        return DraftView(text, draft, seat_view.view, seat_view.legal_steps, explained)
    legal = tuple(engine.legal_steps(draft.state, seat)) if next_steps else ()
    # A draft with a step offered can still be completed: only one with none is asked.
    return DraftView(text, draft, engine.view(draft.state, seat), legal, explained, marks=marks,
                     take_back=engine.take_back(state, seat, draft) if next_steps and not legal
                     else None)


def draft_marks(loaded: Loaded, seat: int, text: str, draft: Draft) -> Mapping[str, Any]:
    """What the draft would change on the board, told to its own seat as if submitted (the
    engine's marks of the event it would make); {} unless it is whole and legal."""
    if not draft.done or not draft.steps:
        return {}
    engine, state = loaded.engine, loaded.state
    try:
        event = engine.decide(state, seat, text)
    except GameError:
        return {}
    return engine.recount(state, event, seat).marks


def step_blocks(legal: list[StepOption], steps: list[str]) -> list[dict]:
    """The legal next steps in the engine's order, grouped for the composer.

    Each block is {"group", "options", "large", "open"}: ungrouped options side by side form a
    block with group "" (plain buttons, as always); options of one group form one block.
    Without JavaScript a page shows every group closed, except the one the draft's last step
    came from (its notation starts with the same word), so adding several alike stays handy.
    """
    blocks: list[dict] = []
    index: dict[str, dict] = {}
    for option in legal:
        if not option.group:
            if not blocks or blocks[-1]["group"]:
                blocks.append({"group": "", "options": [], "large": False, "open": True})
            blocks[-1]["options"].append(option)
        elif option.group in index:
            index[option.group]["options"].append(option)
        else:
            index[option.group] = {"group": option.group, "options": [option], "large": False,
                                   "open": False}
            blocks.append(index[option.group])
    head = steps[-1].split()[0].lower() if steps and steps[-1].split() else None
    for block in index.values():
        block["large"] = len(block["options"]) > FOLD_OVER
        block["open"] = head is not None and any(
            (o.notation.split() or [""])[0].lower() == head for o in block["options"])
    return blocks


# -- in words and JSON -----------------------------------------------------------------------

def sentence(phrases: list[str]) -> str:
    """Steps in words as one sentence: "Move to the Medes, settle 2 Medes there, build level 4.",
    each step said in the reader's language first (the sentence is only said, never kept)."""
    if not phrases:
        return ""
    text = ", ".join(str(i18n.say(p)) for p in phrases)
    return text[0].upper() + text[1:] + "."


def outcome_json(outcome: Outcome | None) -> dict | None:
    """A result for JSON: winner (None for a draw or a shared win), winners, reason, description."""
    if outcome is None:
        return None
    return {"winner": outcome.winner, "winners": list(outcome.winners), "reason": outcome.reason,
            "description": outcome.description}


def step_json(option: StepOption) -> dict:
    """A legal step for JSON: notation, label, ends, group ("" when it has none)."""
    return {"notation": option.notation, "label": option.label, "ends": option.ends,
            "group": option.group}
