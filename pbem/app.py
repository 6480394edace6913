"""The application factory (replaced by the full server as it grows)."""

from flask import Flask


def make_app(test_config=None):
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(SECRET_KEY="dev")
    if test_config:
        app.config.update(test_config)

    @app.get("/")
    def index():
        return "pbem: the Babel engine is in pbem/games/babel; the server follows."

    return app
