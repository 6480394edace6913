"""The 500s fuzzing found (issue 12), each answered as the client's error now.

- digit strings longer than Python will turn into an int (4,300 digits: ValueError) in the
  draft's `remove=`, the start page's `first` and `time_limit`, and the record's `?turn=`;
- an empty `multipart/form-data` body; a chunked body that breaks off.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from pbem.policy import links
from pbem_web import ANNA, BOB, create  # tests/helpers

DIGITS = "9" * 5000


def turn_path(app, game_id: str) -> str:
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game_id)
        seat = loaded.engine.to_act(loaded.state)[0].seat
        return links.path(links.TURN, game_id, seat, loaded.seq)


def test_a_step_number_of_5000_digits_is_no_step(app, client):
    path = turn_path(app, create(client))
    response = client.post(path, data={"steps": "move A", "remove": DIGITS})
    assert response.status_code == 400
    assert "remove" in response.get_data(as_text=True)


def test_who_starts_and_the_time_limit_of_5000_digits_are_refused(client):
    base = {"game": "babel", "name0": "Anna", "email0": ANNA, "name1": "Bob", "email1": BOB}
    for field in ("first", "time_limit"):
        response = client.post("/games", data={**base, field: DIGITS})
        assert response.status_code == 400, field
        assert client.post("/games", json={**base, field: DIGITS}).status_code == 400, field


def test_a_record_turn_of_5000_digits_is_refused_or_ignored(client):
    game_id = create(client)
    response = client.get(f"/games/{game_id}/record?turn={DIGITS}")
    assert response.status_code < 500


def test_an_empty_or_unreadable_multipart_body_is_never_a_500(app, client):
    """Without a boundary, a multipart body cannot be read: 400; an empty one is an empty form."""
    path = turn_path(app, create(client))
    response = client.post(path, data=b"--x--\r\n", content_type="multipart/form-data")
    assert response.status_code == 400
    for content_type in ("multipart/form-data", "multipart/form-data; boundary=x"):
        assert client.post(path, data=b"", content_type=content_type).status_code < 500


def test_a_chunked_body_that_breaks_off_is_a_400_on_a_real_server(app, client, tmp_path):
    """Werkzeug's own server, as `flask serve` runs it: the body announces a chunk it never
    sends, and the connection closes."""
    import threading

    from werkzeug.serving import make_server
    path = turn_path(app, create(client))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as conn:
            conn.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                         "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
                         "ff\r\nsteps=move".encode())
            conn.shutdown(socket.SHUT_WR)
            answer = conn.recv(4096).decode("latin-1")
        status = int(answer.split()[1]) if answer.startswith("HTTP/") else None
        assert status is None or 400 <= status < 500, answer[:200]
    finally:
        server.shutdown()
    assert urlsplit(path).path == path   # (the path was a plain path: nothing else was sent)
