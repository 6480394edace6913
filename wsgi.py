"""The WSGI entry point for production servers: `gunicorn -w 4 -b 127.0.0.1:8000 wsgi:app`.

Settings come from the environment (see README.md); SECRET_KEY is required. Whatever loads this
file is a production server: FLASK_DEBUG, OUTBOX_PAGE or a missing or short SECRET_KEY stop it
with one line on standard error (`pbem: ...`), and gunicorn's master stops with it.
"""

from pbem.app import make_app

app = make_app(server="a WSGI server (wsgi.py)")
