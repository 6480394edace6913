"""pbem: a play-by-email turn server for board games.

`create_app` is imported lazily so that the rules engines under `pbem.games`
stay importable (and fast to start) without Flask.
"""


def create_app(test_config=None):
    from pbem.app import make_app
    return make_app(test_config)
