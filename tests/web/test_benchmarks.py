"""The benchmarks keep working: each runs on a small scale and reports what it promises.
(Figures are measured, never asserted: the machine is shared.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUTES = {"turn page, warm", "turn JSON, warm", "preview, warm", "seat page, warm", "record, warm",
          "turn page, cold", "turn JSON, cold", "seat page, cold", "submit",
          "app route, empty", "app route, one statement"}


def test_cost_reports_every_route_against_the_bare_route():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "cost.py"), "--database", "sqlite",
                           "--stored", "120", "--requests", "3", "--rounds", "2", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["bare"]["cpu_ms"] > 0 and report["bare"]["statements"] == 0
    (result,) = report["results"]
    assert result["database"] == "sqlite" and result["stored"] == 120
    figures = {f["route"]: f for f in result["figures"]}
    assert ROUTES <= set(figures)
    for figure in figures.values():
        assert figure["cpu_ms"] > 0 and figure["calls"] > report["bare"]["calls"]
        assert figure["ratio"] > 0   # over the bare route timed in the same rounds
    # A page's statements: warm, the new events and the seat's facts; cold, the game and its
    # seats, its snapshot and its log, then the facts.
    for route in ("turn page, warm", "turn JSON, warm", "preview, warm"):
        assert figures[route]["statements"] == 2, route
    assert figures["turn page, cold"]["statements"] == 4
    assert figures["app route, one statement"]["statements"] == 1
    assert figures["app route, empty"]["statements"] == 0


def test_cost_refuses_too_few_games_with_a_message():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "cost.py"), "--database", "sqlite",
                           "--stored", "5", "--requests", "50", "--rounds", "3"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "too few" in done.stderr
