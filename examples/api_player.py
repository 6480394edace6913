#!/usr/bin/env python3
"""A bot that plays one seat of a pbem game through the JSON API: the standard library only.

    python3 examples/api_player.py SEAT_LINK [--seed N] [--poll SECONDS] [--timeout SECONDS]

SEAT_LINK is the seat's standing link (`https://…/s/…`, from its invitation, or from
`flask --app pbem games show ID --json`). The protocol (see docs/bots.md):

1. `GET SEAT_LINK` with `Accept: application/json` is the seat's view; while the game runs,
   `turn_link` is the link of the decision the seat owes now (null while others play: ask
   again a little later, or wait for the turn mail).
2. A decision is composed step by step: `POST turn_link/preview` with `{"steps": "…"}` answers
   the draft's `legal_steps` (each `{"notation", "label", "ends", "group"}`), `done` (the draft
   may be submitted as it is) and `error`. This client picks legal steps at random.
3. `POST turn_link` with `{"steps": "…"}` submits it: `200` and the seat's new view, whose
   `next` is the seat's next link (a turn link when it owes the next decision too: Babel Tower's
   last picker places first, a Babylonia card), `422` for an illegal decision, `409` when the
   decision was made already (or its time ran out): start again at 1.

Prints each decision, then the result; exits 0 when the game is over.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request


def call(url: str, body: dict | None = None) -> tuple[int, dict]:
    """A JSON request (a POST when there is a body): the status and the answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={
        "Accept": "application/json", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.load(error)
        except ValueError:
            return error.code, {"error": error.reason}


def compose(turn_link: str, rng: random.Random) -> str:
    """A random legal decision, one previewed step at a time."""
    steps: list[str] = []
    for _ in range(500):
        status, draft = call(turn_link + "/preview", {"steps": "\n".join(steps)})
        if status != 200:
            raise RuntimeError(f"preview answered {status}: {draft.get('error')}")
        if draft.get("error"):           # cannot happen with legal steps; start afresh
            steps = []
            continue
        moves = [o["notation"] for o in draft["legal_steps"] if not o["ends"] and o["notation"]]
        can_end = draft["done"] or any(o["ends"] for o in draft["legal_steps"])
        if can_end and (not moves or rng.random() < 0.25):
            return "\n".join(steps)
        if not moves:
            raise RuntimeError(f"no legal step and not done: {draft.get('todo')}")
        steps.append(rng.choice(moves))
    raise RuntimeError("the decision did not end")


def play(seat_link: str, rng: random.Random, poll: float, timeout: float) -> dict:
    """Play the seat until the game is over; its outcome."""
    deadline = time.monotonic() + timeout
    status, view = call(seat_link)
    while time.monotonic() < deadline:
        if status != 200:
            raise RuntimeError(f"the seat link answered {status}: {view.get('error')}")
        if view["outcome"] is not None:
            return view
        turn = view.get("turn_link")
        if not turn:                     # another player's turn: ask again shortly
            time.sleep(poll)
            status, view = call(seat_link)
            continue
        steps = compose(turn, rng)
        status, after = call(turn, {"steps": steps})
        if status == 200:
            print(f"seat {view['seat']}: {' / '.join(steps.splitlines()) or '(end)'}", flush=True)
            view = after                 # its turn_link (= next) when the seat owes again
        else:                            # 409: made already or too late; 422: try again
            status, view = call(seat_link)
    raise TimeoutError(f"the game did not end within {timeout:g} seconds")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seat_link")
    parser.add_argument("--seed", type=int, default=None, help="for a repeatable game")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between asking")
    parser.add_argument("--timeout", type=float, default=3600.0, help="give up after this")
    args = parser.parse_args(argv)
    view = play(args.seat_link, random.Random(args.seed), args.poll, args.timeout)
    outcome = view["outcome"]
    won = view["seat"] in outcome["winners"]
    print(f"result: {', '.join(view['winner_names']) or 'nobody'} won "
          f"({outcome['description']}); this seat {'won' if won else 'did not win'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
