"""Commands: `flask --app pbem <command>`.

    serve        upgrade the database, do the background work in a thread, run the server
    serve-production  the same without debug, through waitress (pbem/commands/serving.py)
    worker       the background work alone: deliver mail, remind, enforce time limits
    new-game     create a game and mail the invitations; prints the game's id
    deliver      send the mail that is due (once, or --loop; --retry-failed first)
    mail status  how much mail is pending, sent and failed, and which failed
    ingest       apply mail replies: one message on standard input, or a Maildir folder
    remind       send due reminders and end games whose time ran out
    verify       replay every stored game, check the index of what is due; exit 1 on a problem
    dues         rewrite the index of what is due from the logs (`--rebuild`)
    check-mail-dns  SPF, DKIM, DMARC and reverse DNS of the sending domain, in plain words
    ratings rebuild  recompute every rating from the finished rated games
    league ...       leagues by mail: create, tend, list (pbem/commands/league.py)
    jobs         the job queues (due, running, failed, stalled), mail to send, people and computers due
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from datetime import UTC, datetime

import click
from flask import current_app
from flask.cli import AppGroup, with_appcontext
from flask_migrate import upgrade
from werkzeug.serving import run_simple

from pbem import games
from pbem.commands import console, talk
from pbem.commands.league import league_group
from pbem.commands.lmtp import lmtp
from pbem.commands.serving import serve_production
from pbem.errors import BadInput
from pbem.extensions import this_app
from pbem.inbound.ingest import Transient, ingest_bytes, ingest_maildir
from pbem.jobs import engine, tasks
from pbem.jobs import worker as jobs_worker
from pbem.jobs.worker import start_in_background, work
from pbem.mail import deliver as delivery
from pbem.mail.people import parse_player
from pbem.play import operations, turns
from pbem.players import ratings
from pbem.policy import clocks, due
from pbem.store import gamelog

mail = AppGroup("mail", help="The outbox.")
ratings_group = AppGroup("ratings", help="The players' ratings.")


def init_app(app) -> None:
    for command in (serve, serve_production, worker, new_game, deliver, mail, ingest, lmtp, remind,
                    verify, dues, jobs, check_mail_dns, ratings_group, league_group,
                    *console.operator_commands(mail), *talk.commands()):
        app.cli.add_command(command)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@with_appcontext
def serve(host: str, port: int):
    """Upgrade the database, work in the background and serve (one machine, embedded defaults)."""
    app = this_app()
    upgrade()
    start_in_background(app)
    click.echo(f"pbem: {app.config['BASE_URL']} (mail: {app.config['MAIL_URL']}, "
               f"outbox page: {'on at /outbox' if app.config['OUTBOX_PAGE'] else 'off'})")
    # Not app.run(): Flask ignores it inside a `flask` command.
    run_simple(host, port, app, use_debugger=app.debug, use_reloader=False, threaded=True)


@click.command("worker")
@click.option("--deliver-every", default=2.0, show_default=True,
              help="SQLite: seconds between deliveries (PostgreSQL: a commit defers the job)")
@click.option("--remind-every", type=float, default=None,
              help="SQLite: seconds between rounds of what is due (default: JOBS_ROUND_SECONDS; "
                   "PostgreSQL: always JOBS_ROUND_SECONDS, once per fleet)")
@click.option("--bots-every", default=1.0, show_default=True,
              help="SQLite: seconds between the computers' rounds (0: computers do not play here)")
@click.option("--queues", "names", default=",".join(jobs_worker.QUEUES), show_default=True,
              help="the work this worker takes: mail (delivery), due (reminders, time limits, "
                   "digests), bots (the computers' decisions); comma-separated")
@click.option("--concurrency", default=2, show_default=True, type=click.IntRange(1, 64),
              help="PostgreSQL: jobs this process runs at once")
@with_appcontext
def worker(deliver_every: float, remind_every: float | None, bots_every: float, names: str,
           concurrency: int):
    """Deliver mail, send reminders, enforce time limits and play the computers' decisions
    until interrupted. On PostgreSQL it is one of a fleet (procrastinate's worker); on SQLite,
    the one process's loop."""
    try:
        serving = jobs_worker.queues(names)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--queues") from None
    click.echo("pbem worker: " + ", ".join(jobs_worker.ordered(serving)))
    if not logging.getLogger().handlers:   # one line per failure and per computer's decision
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        logging.getLogger("procrastinate").setLevel(logging.WARNING)   # not a line per job
    app = this_app()
    if jobs_worker.on_postgresql(app):
        engine.run_worker(app, jobs_worker.ordered(serving), concurrency)
    else:
        work(app, threading.Event(), deliver_every, remind_every, bots_every, serving)


@click.command("new-game")
@click.option("--game", "kind", required=True, help="the game's name, e.g. babel")
@click.option("--player", "players", multiple=True, required=True,
              help='"Name <address>", "Name <address> de" (the language he reads: en, de, cs), '
                   'or bot:LEVEL for a computer, once per seat')
@click.option("--first", type=int, default=None, help="the seat that starts (default: at random)")
@click.option("--seed", type=int, default=None, help="the game's seed (default: random)")
@click.option("--option", "options", multiple=True, help="name=value, e.g. sumerians=all")
@click.option("--time-limit", type=click.IntRange(1, 365), default=None, help="days per turn (default: none)")
@click.option("--clock", default=None,
              help="none, move:DAYS (as --time-limit) or a time bank bank:START+INCREMENT/CAP "
                   "(days, e.g. bank:7+1/14)")
@click.option("--takeover", default=turns.DEFAULT_TAKEOVER, show_default=True,
              help="the computer's level that takes the seat of a player who leaves a game of 3 or 4")
@click.option("--rated", is_flag=True, help="its result moves the players' ratings")
@click.option("--no-rest-days", is_flag=True,
              help="players' rest days do not stop their clocks (tournament rules)")
@with_appcontext
def new_game(kind, players, first, seed, options, time_limit, clock, takeover, rated, no_rest_days):
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
    if seed is not None and not 0 <= seed < 2 ** gamelog.SEED_BITS:
        raise click.UsageError(f"--seed must be from 0 to 2**{gamelog.SEED_BITS} - 1")
    try:
        seats = [_seat(p) for p in players]
        if first is not None and not 0 <= first < len(seats):
            raise BadInput(f"--first must name a seat from 0 to {len(seats) - 1}")
        choice = clocks.parse(clock) if clock else clocks.Choice()
        if clock and time_limit:
            raise BadInput("--clock and --time-limit: choose one clock")
        if time_limit:
            choice = clocks.move(time_limit)
        loaded = turns.create_game(turns.Spec(engine.name, [p for p, _, _ in seats], pairs, first,
                                              choice.time_limit_days, seed,
                                              tuple(b for _, b, _ in seats), takeover, choice.bank,
                                              tuple(lang for _, _, lang in seats), rated,
                                              rest_days=not no_rest_days))
    except BadInput as error:
        raise click.UsageError(error.message) from None
    click.echo(loaded.id)


def _seat(text: str) -> tuple[tuple[str, str], str | None, str | None]:
    """A --player: "Name <address>", "Name <address> de" (the language the player reads), or
    "bot:LEVEL" (a computer: no name, no address)."""
    kind, sep, level = text.partition(":")
    if sep and kind.strip().lower() == "bot" and "@" not in level:
        return ("", ""), level.strip().lower(), None
    person, _, language = text.rpartition(">")
    if person and language.strip():
        return parse_player(person + ">"), None, language.strip()
    return parse_player(text), None, None


@click.command("deliver")
@click.option("--loop", is_flag=True, help="keep delivering until interrupted")
@click.option("--interval", default=5.0, show_default=True, help="seconds between rounds with --loop")
@click.option("--retry-failed", is_flag=True, help="put failed mail back in the queue first")
@with_appcontext
def deliver(loop: bool, interval: float, retry_failed: bool):
    """Send the mail that is due; undelivered mail stays for the next try."""
    if retry_failed:
        click.echo(f"requeued {delivery.retry_failed()} failed mail(s)")
    while True:
        report = delivery.deliver_due()
        if report.sent or report.retrying or report.failed or not loop:
            click.echo(f"sent {report.sent}, retrying {report.retrying}, failed {report.failed}")
        if not loop:
            return
        time.sleep(interval)


@mail.command("status")
def mail_status():
    """How much mail is pending, sent and failed; each failed mail with its error."""
    report = delivery.status()
    click.echo(", ".join(f"{n} {s}" for s, n in report["counts"].items()))
    for m in report["failed"]:
        click.echo(f"failed #{m.id} to {m.to_addr} ({m.subject!r}), {m.attempts} attempt(s): "
                   f"{m.last_error}")


EX_TEMPFAIL = 75   # sysexits.h: the MTA keeps the message and tries again later


@click.command("ingest")
@click.option("--maildir", type=click.Path(exists=True, file_okay=False), default=None,
              help="read every unseen message of this Maildir folder instead of standard input")
@click.option("--recipient", "recipients", multiple=True,
              help="the envelope recipient, as an MTA's pipe passes it (repeatable)")
@with_appcontext
def ingest(maildir: str | None, recipients: tuple[str, ...]):
    """Apply mail replies as moves; answer the invalid ones by mail.

    Exits 0 once a message is answered for good (applied, refused, ignored, quarantined),
    75 (EX_TEMPFAIL) when it could not be handled now, so that the MTA tries again; what it
    prints on a failure is one line, never a traceback an MTA would bounce to the player.
    """
    try:
        if maildir:
            results = ingest_maildir(maildir, recipients)
        else:
            raw = _standard_input(current_app.config["INGEST_MAX_BYTES"])
            if not raw.strip():
                raise click.UsageError("no message on standard input")
            results = [ingest_bytes(raw, recipients)]
    except Transient as failure:
        click.echo(f"pbem ingest: not handled now, try again later: {failure}", err=True)
        sys.exit(EX_TEMPFAIL)
    except click.UsageError:
        raise
    except Exception as error:   # a bug: keep the message with the MTA, log the traceback
        logging.getLogger(__name__).exception("ingest failed")
        click.echo(f"pbem ingest: not handled now, try again later: {type(error).__name__}",
                   err=True)
        sys.exit(EX_TEMPFAIL)
    for result in results:
        click.echo(str(result))


def _standard_input(limit: int) -> bytes:
    """At most `limit` + 1 bytes of the message (one more says it is too large); the rest is
    read and thrown away, so that the MTA's pipe never breaks."""
    raw = sys.stdin.buffer.read(limit + 1)
    while sys.stdin.buffer.read(1 << 20):
        pass
    return raw


@click.command("remind")
@click.option("--now", default=None, help="pretend it is this UTC time (ISO 8601), for trials")
@with_appcontext
def remind(now: str | None):
    """Send due reminders (one digest per address) and daily digests, and end games whose time
    ran out."""
    try:
        moment = datetime.fromisoformat(now) if now else datetime.now(UTC)
    except ValueError:
        raise click.UsageError(f"--now {now!r}: write a time like 2030-01-31T18:00") from None
    report = tasks.round_of_dues(moment)   # the `due` queue's round: digests too
    click.echo(f"timeouts {len(report.timeouts)}, reminders {len(report.reminded)}")


@click.command("verify")
@with_appcontext
def verify():
    """Replay every stored game through the current engine; list those whose log fails."""
    from pbem.store.verify import verify_all
    done, problems = verify_all(progress=lambda n: click.echo(f"... {n} games", err=True))
    for problem in problems:
        click.echo(str(problem))
    click.echo(f"verified {done} games: {len(problems)} no longer replay")
    wrong = due.disagreements()
    for line in wrong:
        click.echo(f"due: {line}")
    if wrong:
        click.echo(f"the index of what is due disagrees with the logs in {len(wrong)} rows: "
                   "`flask --app pbem dues --rebuild` rewrites it")
    if problems or wrong:
        sys.exit(1)


@click.command("check-mail-dns")
@click.option("--address", default=None, help="the sending machine's IP address (SPF and PTR)")
@with_appcontext
def check_mail_dns(address: str | None):
    """What the sending domain's DNS tells the big providers, and the records to add."""
    import dns.exception

    from pbem.mail import dns_check
    try:
        findings = dns_check.check(address)
    except dns.exception.DNSException as error:
        click.echo(f"pbem: the DNS could not be asked: {error}", err=True)
        sys.exit(1)
    for finding in findings:
        click.echo(f"{finding.what}: {'ok' if finding.ok else 'MISSING'}: {finding.said}")
    if not all(finding.ok for finding in findings):
        sys.exit(1)


@click.command("jobs")
@click.option("--retry-failed", is_flag=True, help="put every failed job back in its queue first")
@with_appcontext
def jobs(retry_failed: bool):
    """What the background work has before it: the job engine's queues (PostgreSQL), the
    outbox and the index of what is due."""
    now = datetime.now(UTC)
    if retry_failed:
        click.echo(f"{operations.retry_jobs()} failed jobs queued again")
    queues = operations.job_queues()
    if queues is None:
        click.echo("queues: none (SQLite: one process does the work in a loop)")
    else:
        click.echo(f"{'queue':<8}{'due':>6}{'later':>7}{'running':>9}{'failed':>8}{'stalled':>9}"
                   "  oldest due")
        for q in queues:
            oldest = f"{max(0, int((now - q.oldest_due).total_seconds()))} s" if q.oldest_due else "-"
            click.echo(f"{q.name:<8}{q.due:>6}{q.later:>7}{q.running:>9}{q.failed:>8}{q.stalled:>9}"
                       f"  {oldest}")
    mail, due_now = operations.background(now)
    click.echo(f"mail: {mail.due} to send now{_since(mail.oldest_due, now)}, {mail.later} "
               f"waiting to be tried again, {mail.failed} failed")
    click.echo(f"people: {due_now.people_due} reminders or time limits due now; the next "
               + (f"at {due_now.next_moment:%Y-%m-%d %H:%M} UTC" if due_now.next_moment else "none"))
    click.echo(f"computers: {due_now.computers_free} decisions to make"
               f"{_since(due_now.oldest_free, now)}, {due_now.computers_thinking} being thought about")


def _since(moment: datetime | None, now: datetime) -> str:
    return f" (the oldest for {max(0, int((now - moment).total_seconds()))} s)" if moment else ""


@ratings_group.command("rebuild")
@with_appcontext
def ratings_rebuild():
    """Recompute every rating from the finished rated games, in the order they ended."""
    click.echo(f"rated {ratings.rebuild()} finished rated games")


@click.command("dues")
@click.option("--rebuild", is_flag=True, help="Rewrite the rows of every running game.")
@with_appcontext
def dues(rebuild: bool):
    """The index of what is due: how many rows, the next moment; --rebuild rewrites it."""
    if rebuild:
        count = operations.rebuild_dues(progress=lambda n: click.echo(f"... {n} games", err=True))
        click.echo(f"rewrote the dues of {count} running games")
    rows, first = due.summary()
    click.echo(f"{rows} seats owe a decision with something to come; the next at "
               f"{first:%Y-%m-%d %H:%M} UTC" if first else f"{rows} seats with something to come")
