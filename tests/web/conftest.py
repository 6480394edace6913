"""Fixtures of the server's tests beside tests/conftest.py's."""

from __future__ import annotations

import pytest


@pytest.fixture
def hook_app(make_app):
    """An app that calls webhooks and push services on loopback (the receivers tests start),
    turns a channel off after 3 failures and gives a notice up after 5 attempts."""
    return make_app(WEBHOOK_ALLOW_PRIVATE=True, CHANNEL_FAILURE_LIMIT=3, NOTICE_RETRY_LIMIT=5,
                    SUBMISSIONS_PER_CLIENT_PER_MINUTE=100_000,
                    SUBMISSIONS_PER_ADDRESS_PER_MINUTE=100_000)
