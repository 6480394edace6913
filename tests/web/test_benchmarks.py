"""The benchmarks keep working: each runs on a small scale and reports what it promises.
(Figures are measured, never asserted: the machine is shared.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_load_says_where_the_cpu_went():
    """The load benchmark on a small scale: its report names the CPU seconds the servers,
    PostgreSQL and the players spent during the run (measured, so only said to be spent)."""
    postgres_url = os.environ.get("PBEM_TEST_DATABASE_URL")
    if not postgres_url:
        pytest.skip("needs PostgreSQL (set PBEM_TEST_DATABASE_URL): the load runs gunicorn on it")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "load.py"), "--games", "150",
                           "--long", "3", "--runs", "1", "--duration", "4", "--warmup", "1",
                           "--capacity-seconds", "0", "--players", "4", "--json",
                           "--database-url", postgres_url],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout[done.stdout.index("\n{") + 1:])
    cpu = report["cpu"]
    assert cpu["servers"] > 0 and cpu["postgres"] > 0 and cpu["players"] > 0
    assert cpu["job workers"] == 0 and cpu["wall"] >= 8 and cpu["cores"] >= 1
    assert "CPU seconds during the load and hello phases" in done.stdout
