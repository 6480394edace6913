"""The use cases of a game: propose, confirm, create, submit, resign, decline, time out, abort.

Each takes plain arguments, owns its transaction (an event and the mails it causes commit
together, or neither does) and returns the game as it is after it, or raises a typed error
with nothing written. Entry points (web routes, mail ingest, the worker, the CLI, the
operator's page) only translate their input into a call and the result into an answer, so a
decision is checked by the same rules whichever way it arrives:

- a person on the web (`Origin(WEB, client=...)`), counted per client and per address;
- a mail reply (`Origin(MAIL, receipt=...)`), counted per address, its receipt recorded
  with its effect so the same message applies once;
- the clock (time limits), a bot or the operator: not counted.

A seat may be played by a computer (`seats.bot`): from the start of the game, or after its
player left a game of three or four. A player who resigns or runs out of time there does not
end the game for the others while one of them is a person: the game's takeover level plays
his seat from then on (`take_over`: a row in `takeovers`, no event in the log, so the
engines know nothing of it and the log stays the game's moves). Two-player games, and a game
whose last person leaves, end as before with the generic resign/timeout event. The worker
(`pbem.jobs.computers`) submits a computer's decisions here, as `Origin(BOT)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, select, update

from pbem import bots as computer
from pbem import games
from pbem.errors import AlreadySubmitted, BadInput, NotFound, SeatLeft, ServerError
from pbem.extensions import db
from pbem.games.base import RESIGNED, TIMED_OUT, Engine
from pbem.games.errors import GameError
from pbem.games.phrases import phrase
from pbem.mail import notify
from pbem.mail.people import email_address, player_name
from pbem.players import messages, settings
from pbem.policy import clocks, deadlines, limits, vacation
from pbem.store import gamelog
from pbem.store.models import Event, Game, Inbound, Proposal, Seat, Takeover, utcnow
from pbem.store.transaction import changed, transaction

WEB, MAIL, CLOCK, BOT, OPERATOR = "web", "mail", "clock", "bot", "operator"


@dataclass(frozen=True)
class Origin:
    """Where a decision comes from: the policy (counting, answers) follows from it."""
    channel: str
    client: str | None = None            # the web client's address
    receipt: Inbound | None = field(default=None, compare=False)   # a mail reply's record


class TooLate(ServerError):
    """The seat's time ran out before it decided: the game was ended by time (committed)."""
    status = 409
    title: str = phrase("Too late")


class GameOver(BadInput):
    pass


LEFT = phrase("You left this game; a computer plays your seat now.")


TOO_LATE = phrase("Your time for this turn ran out before you submitted it, so the game is lost "
                  "on time.")
TOO_LATE_TAKEN = phrase("Your time for this turn ran out before you submitted it; a computer "
                        "plays your seat from now on.")


# -- a new game -----------------------------------------------------------------------

DEFAULT_TAKEOVER = "normal"


@dataclass(frozen=True)
class Spec:
    """A game as asked for: checked, not yet created."""
    kind: str
    players: list[tuple[str, str]]          # (name, address), seat by seat ("" for a computer)
    options: dict[str, str]
    first: int | None = None
    time_limit_days: int | None = None
    seed: int | None = None
    bots: tuple[str | None, ...] = ()       # seat by seat: a computer's level, None: a person
    takeover: str = DEFAULT_TAKEOVER        # the computer that takes a leaving player's seat
    bank: tuple[int, int, int] | None = None   # a time bank's start, increment, cap (days)
    # Seat by seat: the language of its pages and mails; None: the address's own choice
    # (its home), else English.
    languages: tuple[str | None, ...] = ()
    rated: bool = False                     # its result moves ratings (pbem.players.ratings)
    rest_days: bool = True   # its players' rest days stop their clocks (False: tournament rules)

    @property
    def clock(self) -> clocks.Choice:
        if self.bank:
            return clocks.bank(*self.bank)
        return clocks.move(self.time_limit_days) if self.time_limit_days else clocks.Choice()

    def engine(self) -> Engine:
        return games.get(self.kind)

    def level(self, seat: int) -> str | None:
        """The level of the computer that plays the seat; None: a person."""
        return self.bots[seat] if seat < len(self.bots) else None

    @property
    def people(self) -> list[str]:
        """The addresses of the seats people play."""
        return [address for i, (_, address) in enumerate(self.players) if not self.level(i)]

    def to_json(self) -> dict:
        return {"players": [list(p) for p in self.players], "options": self.options,
                "first": self.first, "time_limit_days": self.time_limit_days,
                "bots": list(self.bots), "takeover": self.takeover,
                "bank": list(self.bank) if self.bank else None, "languages": list(self.languages),
                "rated": self.rated, "rest_days": self.rest_days}

    @classmethod
    def from_json(cls, kind: str, data: dict) -> Spec:
        return cls(kind, [tuple(p) for p in data["players"]], dict(data["options"]),
                   data.get("first"), data.get("time_limit_days"), None,
                   tuple(data.get("bots") or ()), data.get("takeover") or DEFAULT_TAKEOVER,
                   tuple(data["bank"]) if data.get("bank") else None,
                   tuple(data.get("languages") or ()), bool(data.get("rated")),
                   data.get("rest_days") is not False)


def bot_name(level: str, taken: list[str]) -> str:
    """A computer's name: "Computer (normal)", numbered when the game has one already."""
    name, n = f"Computer ({level})", 2
    while name in taken:
        name, n = f"Computer {n} ({level})", n + 1
    return name


def _level(level: str, what: str) -> str:
    try:
        return computer.check_level(level)
    except computer.UnknownLevel:
        raise BadInput(phrase("{what}: {level} is not a computer level; levels are {levels}.",
                              what=what, level=repr(level[:40]),
                              levels=", ".join(computer.LEVELS))) from None


def checked(spec: Spec) -> Spec:
    """The spec with names cleaned (no control or bidirectional characters, capped), addresses
    checked, computers' levels checked and named, and the game's options filled in; BadInput
    naming what is refused. At least one seat is a person's."""
    levels = tuple(_level(level, phrase("Player {n}", n=i + 1)) if level else None
                   for i, level in enumerate(spec.bots[:len(spec.players)]))
    levels += (None,) * (len(spec.players) - len(levels))
    if spec.players and all(levels):
        raise BadInput(phrase("At least one player must be a person: computers play only with "
                              "people."))
    players: list[tuple[str, str]] = []
    for (name, address), level in zip(spec.players, levels):
        if level:
            players.append((player_name(name) if (name or "").strip()
                            else bot_name(level, [n for n, _ in players]), ""))
        else:
            players.append((player_name(name), email_address(address)))
    takeover = _level(spec.takeover or DEFAULT_TAKEOVER, phrase("The computer that takes a seat over"))
    if spec.bank and spec.time_limit_days:
        raise BadInput(phrase("A game has one clock: a time per move or a time bank, not both."))
    clock = spec.clock   # checked: BadInput naming the figures
    languages = tuple(settings.checked_language(language, phrase("Player {n}", n=i + 1)) if language else None
                      for i, language in enumerate(spec.languages[:len(spec.players)]))
    spec = Spec(spec.kind, players, spec.options, spec.first, clock.time_limit_days, spec.seed,
                levels, takeover, clock.bank, languages, spec.rated,
                spec.rest_days is not False)
    engine = spec.engine()
    try:   # the engine says what it refuses: options, seats, who starts
        options = engine.normalize_options(spec.options)
        engine.start(0, options, len(spec.players), spec.first)
    except GameError as error:
        raise BadInput(error.said()) from None
    return Spec(spec.kind, spec.players, options, spec.first, spec.time_limit_days, spec.seed,
                levels, takeover, spec.bank, spec.languages, spec.rated,
                spec.rest_days is not False)


def create_game(spec: Spec) -> gamelog.Loaded:
    """A game created at once (by the operator): its invitations are mailed."""
    spec = checked(spec)
    with transaction():
        loaded = _create(spec)
    return loaded


def _create(spec: Spec, game_id: str | None = None) -> gamelog.Loaded:
    loaded = gamelog.create_game(spec.engine(), spec.players, spec.options, spec.first, spec.seed,
                               time_limit_days=spec.time_limit_days, game_id=game_id,
                               bots=list(spec.bots), takeover=spec.takeover,
                               languages=settings.seat_languages(spec.players, spec.languages),
                               rated=spec.rated)
    clocks.save(loaded.id, spec.clock)
    if not spec.rest_days:   # (the column's default allows them)
        game = db.session.get(Game, loaded.id)   # (just added: in the session)
        assert game is not None
        game.rest_days = False
        db.session.flush()
    notify.game_created(loaded)
    return loaded


def start_confirmed(spec: Spec, game_id: str) -> gamelog.Loaded:
    """A game every player has said yes to (a rematch, `pbem.play.rematch`): created with that id
    and its invitations, in the caller's transaction."""
    return _create(checked(spec), game_id=game_id)


def propose(spec: Spec, client: str) -> Proposal:
    """A game asked for on the start page: only its creator (the first player) is mailed,
    with a link to confirm it. Counted per client and per creator's address."""
    spec = checked(spec)
    if spec.level(0):
        raise BadInput(phrase("Player 1 is you, the creator: a person, with a mail address."))
    _each_their_own_address(spec)
    creator = spec.players[0][1]
    with transaction():
        limits.take_all([(limits.PROPOSALS_CLIENT, client), (limits.PROPOSALS_ADDRESS, creator)])
        proposal = Proposal(id=gamelog.new_id(), kind=spec.kind, spec=spec.to_json(),
                            creator=creator, client=client[:64])
        db.session.add(proposal)
        db.session.flush()
        notify.confirm_game(proposal, spec)
    return proposal


def _each_their_own_address(spec: Spec) -> None:
    """On the start page every person plays from an address of his own: the same address in
    two seats is a slip (a pasted address), and its mails could not tell the seats apart.
    (The operator's `new-game` may seat one address twice, for a trial.)"""
    seen: dict[str, int] = {}
    for seat, (_, address) in enumerate(spec.players):
        if not address:   # a computer
            continue
        if address in seen:
            raise BadInput(phrase("Players {first} and {second} have the same mail address, {address}: "
                                  "each player needs one of his own.", first=seen[address] + 1,
                                  second=seat + 1, address=address))
        seen[address] = seat


class ProposalGone(NotFound):
    """A confirmation link whose game was confirmed already, or forgotten unconfirmed."""
    status = 410
    title: str = phrase("Nothing to confirm")


def proposal_of(proposal_id: str) -> tuple[Proposal, Spec]:
    """A proposal still waiting for its creator; ProposalGone when there is none."""
    proposal = db.session.get(Proposal, proposal_id)
    if proposal is None or _expired(proposal):
        raise ProposalGone(_gone(proposal_id))
    return proposal, Spec.from_json(proposal.kind, proposal.spec)


def _gone(proposal_id: str) -> str:
    if db.session.get(Game, proposal_id) is not None:
        return phrase("This game was confirmed already; the players have their mails.")
    hours = float(current_app.config["PROPOSAL_HOURS"])
    return phrase("This game was not confirmed within {hours} hours and is forgotten; start it "
                  "again from the start page.", hours=int(hours) if hours.is_integer() else hours)


def _expired(proposal: Proposal, now: datetime | None = None) -> bool:
    created = deadlines.utc(proposal.created_at)
    return (now or utcnow()) - created > timedelta(hours=current_app.config["PROPOSAL_HOURS"])


def confirm(proposal_id: str) -> gamelog.Loaded:
    """The creator confirms: the game is created (with the proposal's id) and every player is
    invited. Counted per creator's address and per client; each invited address per day."""
    proposal, spec = proposal_of(proposal_id)
    with transaction():
        taken = db.session.execute(delete(Proposal).where(Proposal.id == proposal_id))
        if changed(taken) != 1:   # confirmed at the same moment from another click
            raise ProposalGone(_gone(proposal_id))
        # Together (`take_all`: its keys locked in one order): two confirmations inviting the
        # same addresses in other orders would each hold a lock the other waits for. Computers
        # get no invitation.
        invited = [(limits.INVITES_ADDRESS, address) for address in spec.people]
        limits.take_all([(limits.GAMES_ADDRESS, proposal.creator),
                         (limits.GAMES_CLIENT, proposal.client), *invited])
        loaded = _create(checked(spec), game_id=proposal_id)
    return loaded


def forget_unconfirmed(now: datetime | None = None) -> int:
    """Delete proposals older than PROPOSAL_HOURS (the worker's round); how many."""
    before = (now or utcnow()) - timedelta(hours=current_app.config["PROPOSAL_HOURS"])
    with transaction():
        gone = changed(db.session.execute(delete(Proposal).where(Proposal.created_at < before)))
    return gone


# -- decisions --------------------------------------------------------------------------

def submit(game_id: str, seat: int, seq: int, text: str, origin: Origin,
           message: str = "", loaded: gamelog.Loaded | None = None) -> gamelog.Loaded:
    """A seat's decision at a point of the log: checked, appended with its mails, committed.
    `message`: words to the other players, said with the decision (in the same transaction,
    so the turn mails carry them; a message refused refuses the turn: nothing is written).
    `loaded`: the game as the caller loaded it in this transaction (a web route has: it is
    not read again; a write since is refused by the log's key as any other).

    Raises RateLimited (refused submissions count too), AlreadySubmitted when the seat does
    not owe a decision at `seq`, TooLate after ending the game by time when the seat's time
    ran out, and the engine's GameError (nothing written) for an illegal decision.
    """
    try:
        return _decide(game_id, seat, seq, text, origin, message, loaded)
    except (AlreadySubmitted, TooLate, GameError):
        with transaction():     # counted on its own, as the decision was not written
            _count(game_id, seat, origin)
        raise


def _decide(game_id: str, seat: int, seq: int, text: str, origin: Origin,
            message: str = "", loaded: gamelog.Loaded | None = None) -> gamelog.Loaded:
    messages.cleaned(message)   # too long: refused before anything is checked or written
    if loaded is None or loaded.id != game_id:
        loaded = gamelog.load(game_id)
    with gamelog.seats_read_once(game_id):   # (the checks ask who plays the seat, and from where)
        # (he left first: whatever his link, that is what he is told)
        if origin.channel != BOT and gamelog.bot_of(game_id, seat):
            raise SeatLeft(LEFT)
        if loaded.seq != seq or loaded.decision_of(seat) is None:
            raise AlreadySubmitted(phrase("This turn was already submitted."))
        late = deadlines.expired(loaded, seat)   # (never a computer's: it has no clock)
    if late:
        try:
            ended = _time_out(loaded, seat, origin.receipt)
        except AlreadySubmitted:
            ended = None   # the clock (or another submission) was first
        if not isinstance(ended, vacation.Away):   # (a vacation day saved him: on with it)
            raise TooLate(TOO_LATE_TAKEN if gamelog.bot_of(game_id, seat) else TOO_LATE,
                          loaded=gamelog.load(game_id))
    event = loaded.engine.decide(loaded.state, seat, text)
    # Nothing from here to the commit writes a seat: its checks, mails and dues read them once.
    with gamelog.seats_read_once(game_id), transaction():
        # Counted with the decision: one commit (a disk flush) per submission, not two.
        _count(game_id, seat, origin)
        after = gamelog.append(loaded, event)
        if origin.channel != BOT and len(loaded.seats) >= 3:
            _still_a_person(game_id, seat)
        if origin.channel in (WEB, MAIL):   # he is back from a vacation the clock started
            vacation.back(gamelog.address_of(game_id, seat), utcnow(), game_id)
        if message:
            messages.add(game_id, seat, after.seq, message)
        notify.event_appended(after, seat)
        _record(origin.receipt)
    return after


def _still_a_person(game_id: str, seat: int) -> None:
    """Inside a person's submission, after its event is written: SeatLeft when a computer took
    the seat meanwhile (the clock, at the same moment). The seat's row is locked (PostgreSQL:
    a concurrent takeover is waited for, and waits for this; SQLite writes one at a time), so a
    takeover and a person's decision at the same point of the log never both commit."""
    bot = db.session.scalar(select(Seat.bot).where(Seat.game_id == game_id, Seat.seat == seat)
                            .with_for_update())
    if bot:
        raise SeatLeft(LEFT)


def _count(game_id: str, seat: int, origin: Origin) -> None:
    """A person's submissions are counted, per client on the web and per seat's address
    (in the caller's transaction; both at once: three statements, not six)."""
    if origin.channel not in (WEB, MAIL):
        return
    counted = [(limits.SUBMIT_CLIENT, origin.client or "")] if origin.channel == WEB else []
    limits.take_all([*counted, (limits.SUBMIT_ADDRESS, gamelog.address_of(game_id, seat) or "")])


def _record(receipt: Inbound | None) -> None:
    if receipt is not None:
        db.session.add(receipt)


def resign(game_id: str, seat: int) -> gamelog.Loaded:
    """The seat gives up; possible at any point of the log while the game runs. In a game of
    three or four with another person in it, a computer takes his seat and the game goes on;
    otherwise he loses and the game ends."""
    while True:
        loaded = gamelog.load(game_id)
        if loaded.over:
            raise GameOver(phrase("The game is already over."))
        if gamelog.bot_of(game_id, seat):
            raise SeatLeft(LEFT)
        if not takes_over(loaded, seat):
            return _end(game_id, lambda engine: engine.resign_event(seat))
        try:
            return take_over(loaded, seat, RESIGNED)
        except AlreadySubmitted:
            continue   # somebody decided meanwhile (or he resigned twice): look again


def takes_over(loaded: gamelog.Loaded, seat: int) -> bool:
    """Whether a computer takes the seat of a player who leaves (rather than the game ending):
    in a game of three or more seats, while another seat is still a person's."""
    if len(loaded.seats) < 3:
        return False
    played = gamelog.bots(loaded.id)
    return any(other != seat and other not in played for other in range(len(loaded.seats)))


def take_over(loaded: gamelog.Loaded, seat: int, reason: str,
              receipt: Inbound | None = None) -> gamelog.Loaded:
    """A computer of the game's takeover level plays the seat from this point of the log on;
    the players are told. No event is appended: the engine never hears of it, and the next
    decision the seat owes is the computer's (the worker makes it). AlreadySubmitted when
    the seat was taken over already (by another worker's clock, say)."""
    level = loaded.row.takeover
    with transaction():
        taken = db.session.execute(update(Seat).where(
            Seat.game_id == loaded.id, Seat.seat == seat, Seat.bot.is_(None)).values(bot=level))
        if changed(taken) != 1:
            raise AlreadySubmitted(phrase("This seat was taken over already."))
        if _length(loaded.id) != loaded.seq:   # the player decided at the same moment
            raise AlreadySubmitted(phrase("This turn was already submitted."))
        db.session.add(Takeover(game_id=loaded.id, seat=seat, seq=loaded.seq, reason=reason,
                                level=level))
        db.session.flush()
        notify.taken_over(loaded, seat)
        if receipt is not None:
            receipt.result = "refused"
            _record(receipt)
    return loaded


def abort(game_id: str, why: str) -> gamelog.Loaded:
    """The operator ends the game with no winner; every player is told why."""
    return _end(game_id, lambda engine: engine.abort_event(why.strip()[:500]))


def _end(game_id: str, event_of) -> gamelog.Loaded:
    """Append a generic event that ends the game, retrying a lost race for the log."""
    while True:
        loaded = gamelog.load(game_id)
        if loaded.over:
            raise GameOver(phrase("The game is already over."))
        try:
            with transaction():
                after = gamelog.append(loaded, event_of(loaded.engine))
                notify.event_appended(after, None)
            return after
        except AlreadySubmitted:
            continue   # somebody decided meanwhile: end the game as it stands now


def _length(game_id: str) -> int:
    return db.session.scalar(select(func.max(Event.seq)).where(Event.game_id == game_id)) or 0


def decline(game_id: str, seat: int) -> gamelog.Loaded:
    """An invited player does not want to play: before his first decision the game is called
    off (no winner), and the others are told; afterwards he may resign."""
    loaded = gamelog.load(game_id)
    if loaded.over:
        raise GameOver(phrase("The game is already over."))
    if _has_decided(game_id, seat):
        raise BadInput(phrase("You have played in this game already; you can resign from your page."))
    name = loaded.names[seat]
    return _end(game_id, lambda engine: engine.abort_event(f"{name} declined the invitation."))


def _has_decided(game_id: str, seat: int) -> bool:
    return bool(db.session.scalar(select(func.count()).select_from(Event).where(
        Event.game_id == game_id, Event.seat == seat)))


def time_out(game_id: str, seat: int, seq: int,
             now: datetime | None = None) -> gamelog.Loaded | vacation.Away | None:
    """The clock ends the game for a seat whose time ran out at that point of the log (or hands
    the seat to a computer: `takes_over`); or, while its player has vacation days left, a
    vacation starts by itself instead and every player is told (the Away returned). None when
    the seat decided meanwhile (or another worker was first)."""
    loaded = gamelog.load(game_id)
    if loaded.seq != seq or loaded.decision_of(seat) is None:
        return None
    try:
        return _time_out(loaded, seat, now=now)
    except AlreadySubmitted:
        return None


def _time_out(loaded: gamelog.Loaded, seat: int, receipt: Inbound | None = None,
              now: datetime | None = None) -> gamelog.Loaded | vacation.Away:
    away = _vacation_instead(loaded, seat, now or utcnow())
    if away is not None:
        return away
    if takes_over(loaded, seat):
        return take_over(loaded, seat, TIMED_OUT, receipt)
    with transaction():
        after = gamelog.append(loaded, loaded.engine.timeout_event(seat))
        notify.event_appended(after, None)
        if receipt is not None:
            receipt.result = "refused"
            _record(receipt)
    return after


def _vacation_instead(loaded: gamelog.Loaded, seat: int, now: datetime) -> vacation.Away | None:
    """The seat's clock ran out: while its player has vacation days left this year, a vacation
    starts by itself from that moment (every clock of his stops, every player of this game is
    told) instead of a loss. None: no days left (or no clock ran out after all)."""
    address = gamelog.address_of(loaded.id, seat)
    if not address:
        return None
    with transaction():
        limits.lock(f"vacation:{address}", now)   # two workers start one vacation, not two
        ran_out = deadlines.deadline(loaded, seat)   # read again under the lock
        if ran_out is None:
            return None
        if now < ran_out:   # another worker (or a submission) started it meanwhile
            return vacation.current(address, now) or vacation.Away(now, ran_out, True)
        away = vacation.current(address, now)
        if away is not None:
            return away     # he went away himself after it ran out: no loss, no day more
        away = vacation.automatic(address, ran_out, now)
        if away is not None:
            notify.vacation_started(loaded, seat, away, vacation.days_left(address, now))
    return away
