"""gunicorn reads ./gunicorn.conf.py from its working directory (/srv/pbem) before it starts.

pbem checks its settings here, once, in the master: settings it refuses (a missing or short
SECRET_KEY, FLASK_DEBUG, OUTBOX_PAGE) stop gunicorn with one line, `pbem: ...`, and exit status
4, before it listens or boots a worker. (wsgi.py refuses them again in each worker, should
gunicorn be started with another config file.) Nothing else is configured here: gunicorn's
options stay on its command line.
"""

from pbem.app import make_app

make_app(server="gunicorn")
