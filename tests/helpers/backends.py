"""The databases the server's tests run on: SQLite always, and PostgreSQL when
PBEM_TEST_DATABASE_URL names a server (tests/conftest.py)."""

from __future__ import annotations

import os

PG_URL = os.environ.get("PBEM_TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])
