"""A second submission for the same point of the log loses to the database's key."""

import threading

from pbem.errors import AlreadySubmitted
from pbem.extensions import db
from pbem.mail import notify
from pbem.store import gamelog
from pbem.store.transaction import transaction


def first_turn_text(loaded) -> str:
    view = loaded.engine.view(loaded.state, 0)
    hand = view["players"][0]["hand"]
    return f"move {hand[0]}\nsettle {hand[1]}\nbuild mine"


def test_two_writers_for_one_point_of_the_log_one_wins(actions, app):
    """Both load the same log and decide; the database's key refuses the second append."""
    game = actions.create(first=0)
    mails_before = actions.mail_count()
    barrier = threading.Barrier(2, timeout=30)
    results = []

    def writer():
        with app.app_context():
            loaded = gamelog.load(game)
            event = loaded.engine.decide(loaded.state, 0, first_turn_text(loaded))
            barrier.wait()          # both hold a loaded log of the same length
            try:
                with transaction():
                    after = gamelog.append(loaded, event)
                    notify.event_appended(after, 0)
                results.append("won")
            except AlreadySubmitted:
                results.append("lost")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=writer) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == ["lost", "won"]
    assert actions.event_count(game) == 1
    assert actions.mail_count() == mails_before + 1   # only the winner's mail to Bob


def test_double_submit_over_http_applies_once(actions, app):
    game = actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    with app.app_context():
        text = first_turn_text(gamelog.load(game))
    barrier = threading.Barrier(2, timeout=30)
    codes = []

    def click():
        client = app.test_client()
        barrier.wait()
        codes.append(client.post(link, data={"steps": text, "action": "submit"}).status_code)

    threads = [threading.Thread(target=click) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(codes) == [303, 409]
    assert actions.event_count(game) == 1
