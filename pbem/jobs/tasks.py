"""What each piece of background work does, whoever runs it.

Two runners call these functions: on PostgreSQL the job engine (`pbem.jobs.engine`,
procrastinate's workers, any number on any machines), on SQLite the loop of one process
(`pbem.jobs.worker`). What a task decides is here once; the runners only say when and where.
Each takes the Flask app's context as given.
"""

from __future__ import annotations

from datetime import datetime

from pbem.jobs import computers, digest, reminders
from pbem.mail.channel_send import deliver_notices
from pbem.mail.deliver import deliver_due


def deliver() -> None:
    """Hand the outbox's due mail to SMTP, then the other channels' notices (each claimed with
    SKIP LOCKED on PostgreSQL, so senders running at once split the work)."""
    deliver_due()
    deliver_notices()


def round_of_dues(now: datetime) -> reminders.Report:
    """What the index of what is due holds by `now`: time-outs, reminders, then the daily
    digests (`flask --app pbem remind` runs the same round)."""
    report = reminders.run(now)
    digest.run(now)
    return report


def think(game_id: str, seat: int, seq: int, exclusive: bool = False) -> computers.Played | None:
    """The decision the computer at `seat` owes at `seq`. `exclusive`: the runner already
    gave it to this worker alone (the engine's job), so the index's claim only marks it."""
    return computers.play(game_id, seat, seq, exclusive=exclusive)
