"""The turn page of a Babel first turn that can no longer end (issue 26): the offered steps
never lead there, and a draft typed there names the step to take back, on the page and in its
JSON, in the seat's language. The testers' turn: seed 132, the second player's first turn."""

from __future__ import annotations

import pytest

from pbem.play import turns
from pbem_web import ANNA, BOB, turn_path  # tests/helpers

TESTERS = ["move S", "settle P", "build theirs", "settle A", "settle H", "settle M", "settle M",
           "settle M", "emigrate A", "settle H", "migrate S A"]
TAKE_BACK = {None: "Take back step 10 (settle H): after it the turn cannot be finished.",
             "de": "Nimm Schritt 10 (settle H) zurück: danach lässt sich der Zug nicht mehr "
                   "beenden.",
             "cs": "Vezměte zpět krok 10 (settle H): po něm už tah nelze dokončit."}


def game_of_the_testers(app, language: str | None) -> str:
    """Seed 132, Anna first: she builds her starting card; Bob (reading `language`) owes his
    first turn with A H H M M M P S."""
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"},
                          first=0, seed=132, languages=(None, language))
        game = turns.create_game(spec).id
    response = app.test_client().post(turn_path(app, game, 0), data={
        "steps": "move A\nsettle A\nbuild mine", "action": "submit"})
    assert response.status_code == 303
    return game


@pytest.mark.parametrize("language", [None, "de", "cs"])
def test_a_typed_dead_end_names_the_step_to_take_back(app, client, language):
    link = turn_path(app, game_of_the_testers(app, language), 1)
    data = client.post(link + "/preview", json={"steps": "\n".join(TESTERS)}).get_json()
    assert data["error"] is None and data["done"] is False and data["legal_steps"] == []
    assert data["take_back"] == {"step": 10, "why": TAKE_BACK[language]}
    page = client.post(link, data={"steps": "\n".join(TESTERS), "action": "preview"})
    html = page.data.decode()
    assert TAKE_BACK[language] in html
    assert '<li class="take-back"><code>settle H</code>' in html


def test_the_offered_steps_lead_round_the_dead_end(app, client):
    link = turn_path(app, game_of_the_testers(app, None), 1)
    data = client.post(link + "/preview", json={"steps": "\n".join(TESTERS[:9])}).get_json()
    assert data["take_back"] is None
    assert {o["notation"] for o in data["legal_steps"]} == {"move H", "migrate S H"}
    page = client.post(link, data={"steps": "\n".join(TESTERS[:9]), "action": "preview"})
    html = page.data.decode()
    assert 'value="move H"' in html and 'value="settle H"' not in html
    assert "Take back" not in html
