"""The local outbox: every mail the server wrote, with its links, so one person can play
every seat on one machine. Registered only when OUTBOX_PAGE is on (never in production)."""

from __future__ import annotations

from flask import Blueprint, render_template
from sqlalchemy import select

from pbem.errors import NotFound
from pbem.extensions import db
from pbem.store.models import Mail

bp = Blueprint("outbox", __name__)


@bp.get("/outbox")
def index():
    mails = db.session.scalars(select(Mail).order_by(Mail.id.desc()).limit(500)).all()
    return render_template("outbox/index.html", mails=mails)


@bp.get("/outbox/<int(max=2147483647):mail_id>")   # larger: no such row, and no overflow
def show(mail_id: int):
    mail = db.session.get(Mail, mail_id)
    if mail is None:
        raise NotFound("There is no such mail.")
    return render_template("outbox/show.html", mail=mail)
