"""The WSGI entry point for production servers: `gunicorn -w 4 -b 127.0.0.1:8000 wsgi:app`.

Settings come from the environment (see README.md); SECRET_KEY is required.
"""

from pbem import create_app

app = create_app()
