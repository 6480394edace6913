"""The Flask extensions, created unbound and initialised in the factory."""

from typing import TYPE_CHECKING, cast

from flask import Flask, current_app
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase
from werkzeug.local import LocalProxy

from pbem.store.reading import Session


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base, session_options={"class_": Session})
migrate = Migrate()

def this_app() -> Flask:
    """The app behind the `current_app` proxy, for work that outlives the request or command
    that started it (a server, a worker thread)."""
    return cast("LocalProxy[Flask]", current_app)._get_current_object()


#: The base of the models. To mypy it is the declarative base; at run time Flask-SQLAlchemy's
#: db.Model (the same base, bound to the app's session and metadata).
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
