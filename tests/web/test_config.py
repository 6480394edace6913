"""Settings from the environment, and refusing to run without a secret key."""

import pytest

from pbem import create_app
from pbem.config import ConfigError, database_url, from_environment
from pbem.mail.transport import ConsoleTransport, SmtpTransport, from_url


def test_refuses_to_start_without_a_secret_key(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    with pytest.raises(ConfigError, match="SECRET_KEY is not set"):
        create_app()


def test_debug_makes_and_keeps_a_key_in_the_instance_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("FLASK_DEBUG", "1")
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    first = create_app().config["SECRET_KEY"]
    assert len(first) == 64 and (tmp_path / "secret_key").read_text() == first
    assert create_app().config["SECRET_KEY"] == first        # links survive a restart
    assert create_app().config["OUTBOX_PAGE"] is True         # the local outbox is on in debug


def test_environment_settings(tmp_path):
    env = {"SECRET_KEY": "k", "SECRET_KEY_FALLBACKS": "old1, old2", "BASE_URL": "https://x.org/",
           "DATABASE_URL": "postgres://u@h/db", "MAIL_URL": "smtps://a:b@mail:465",
           "MAIL_FROM": "Games <g@x.org>", "OUTBOX_PAGE": "0"}
    config = from_environment(str(tmp_path), env)
    assert config["SECRET_KEY_FALLBACKS"] == ["old1", "old2"]
    assert config["BASE_URL"] == "https://x.org"
    assert config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u@h/db"
    assert config["OUTBOX_PAGE"] is False
    defaults = from_environment(str(tmp_path), {})
    assert defaults["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
    assert defaults["MAIL_URL"] == "console:" and defaults["OUTBOX_PAGE"] is False


def test_database_urls_use_psycopg_3():
    assert database_url("postgresql://u@h:5432/d") == "postgresql+psycopg://u@h:5432/d"
    assert database_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_mail_urls():
    assert isinstance(from_url("console:"), ConsoleTransport)
    plain = from_url("smtp://user%40x:p%3Ass@mail.example.org")
    assert (plain.host, plain.port, plain.user, plain.password) == ("mail.example.org", 25, "user@x", "p:ss")
    assert from_url("smtp+starttls://mail:2525").port == 2525
    assert from_url("smtp+starttls://mail").port == 587
    assert from_url("smtps://mail").port == 465
    with pytest.raises(ValueError, match="unknown scheme"):
        SmtpTransport("imap://mail")
