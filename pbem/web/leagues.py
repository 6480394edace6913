"""Leagues by mail (`pbem.play.leagues`): their public pages, joining and creating them.

    GET  /leagues                   the leagues: open ones first (page, or JSON)
    GET  /leagues/<id>              a league: terms, members, games, standings (page, or JSON)
    POST /leagues/<id>/join         an address asks to join (`email`): it is mailed a one-use link
    GET|POST /lj/<token>            that link: the button to join (a POST; `name`: a public name
                                    for an address without one), or to leave before the start
                                    (`action=leave`)
    GET|POST /h/<token>/league      a player's new league, from his home (he confirms by mail)
    GET|POST /lc/<token>            the creator's confirmation: the league opens

Public pages name players by their public names only. The routes translate; every decision
is `pbem.play.leagues`'.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request

from pbem import games, i18n
from pbem.errors import BadInput
from pbem.games.phrases import phrase
from pbem.play import home_link, leagues
from pbem.players import public, settings
from pbem.policy import links
from pbem.views import leagueview
from pbem.web.errors import wants_json
from pbem.web.home import _check_csrf, _form, _text, csrf_token
from pbem.web.lobby import start_csrf, start_csrf_refused

bp = Blueprint("leagues", __name__)

ASKED = phrase("If that address may join, a mail with the link to join is on its way to it: the "
               "league counts you in once you press the button there.")


@bp.get("/leagues")
def listing():
    shown = leagueview.listing()
    if wants_json():
        return {"leagues": [{"id": s.id, "name": s.name, "game": s.kind, "status": s.status,
                             "starts_at": s.starts_at.isoformat(), "url": s.url} for s in shown]}
    return render_template("leagues/list.html", leagues=shown, words=leagueview.status_words)


@bp.get("/leagues/<league_id>")
def league(league_id: str):
    shown = leagueview.league(league_id)
    if wants_json():
        return shown.to_json()
    return render_template("leagues/league.html", league=shown, words=leagueview.status_words,
                           csrf=start_csrf(), sent=request.args.get("sent") == "join")


@bp.post("/leagues/<league_id>/join")
def ask(league_id: str):
    form = _form()
    if not request.is_json and start_csrf_refused(form):
        raise BadInput(phrase("This form is too old: open the league's page again and send it "
                              "from there."))
    leagues.ask(league_id, _text(form, "email", ""), request.remote_addr or "")
    if wants_json():
        return {"message": ASKED}, 202
    return redirect(f"/leagues/{league_id}?sent=join#join", 303)


@bp.route("/lj/<token>", methods=["GET", "POST"])
def join(token: str):
    row, member = leagues.read_link(token)
    i18n.use(settings.language_of(member.address, default=i18n.browser_language()))
    if request.method == "POST":
        form = _form()
        if _text(form, "action", "join") == "leave":
            leagues.leave(token)
            if wants_json():
                return {"league": row.id, "member": False}
            return redirect(f"/leagues/{row.id}", 303)
        leagues.join(token, _text(form, "name", ""))
        if wants_json():
            return {"league": row.id, "member": True}
        return redirect(request.path, 303)
    shown = leagueview.league(row.id)
    if wants_json():
        return {"league": row.id, "member": member.joined, "status": shown.status}
    return render_template("leagues/join.html", league=shown, member=member, path=request.path,
                           name=public.name_of(member.address), words=leagueview.status_words)


@bp.route("/h/<token>/league", methods=["GET", "POST"])
def propose(token: str):
    """A player's league, from his home; the mail to confirm it goes to his address."""
    mine = home_link.open_home(token)
    i18n.use(settings.language_of(mine.address, default=i18n.browser_language()))
    form, error, sent = _form() if request.method == "POST" else {}, None, None
    if request.method == "POST":
        _check_csrf(token)
        try:
            row = leagues.propose(_terms(form), mine.address, request.remote_addr or "")
            sent = row.name
        except BadInput as refused:
            if wants_json():
                raise
            error = refused.message
        else:
            if wants_json():
                return {"league": row.id, "status": row.status}, 202
    return render_template("leagues/new.html", path=request.path, csrf=csrf_token(token),
                           form=form, error=error, sent=sent, home=f"/h/{token}",
                           named=public.name_of(mine.address),
                           games=[games.get(name) for name in games.INSTALLED],
                           most=leagues.MOST_PLAYERS), 400 if error else 200


def _number(form: dict, key: str, default: str) -> int:
    text = str(form.get(key, default)).strip()
    if not text.isdigit():
        raise BadInput(phrase("The field {field} must be a number.", field=key))
    return int(text)


def _terms(form: dict) -> leagues.Terms:
    """A league's terms from the home's form or JSON."""
    least_on_time = str(form.get("min_on_time", "") or "").strip()
    return leagues.Terms(_text(form, "name", ""), _text(form, "game", ""),
                         _number(form, "least", "4"), _number(form, "most", "8"),
                         leagues.start_of(_text(form, "starts", "")),
                         _text(form, "clock", "none") or "none",
                         form.get("rated") in (True, "on", "true"),
                         _number(form, "min_on_time", "0") if least_on_time else None)


@bp.route("/lc/<token>", methods=["GET", "POST"])
def confirm(token: str):
    league_id = links.unsign(links.LEAGUE, token)
    if not isinstance(league_id, str):
        raise BadInput(phrase("This link is not one of ours."))
    if request.method == "POST":
        row = leagues.confirm(league_id)
        if wants_json():
            return {"league": row.id, "status": row.status}
        return redirect(f"/leagues/{row.id}", 303)
    shown = leagueview.proposed(league_id)
    if shown.status != leagueview.PROPOSED:
        return redirect(f"/leagues/{shown.id}", 303)
    return render_template("leagues/confirm.html", league=shown, path=request.path)
