"""The LMTP server's defaults, kept apart from the server (`lmtp.py`) so that the command's
options (`pbem.commands.lmtp`) can show them without importing aiosmtpd."""

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8024
DEFAULT_WORKERS = 4
IDLE_SECONDS = 60.0      # a connection without a command this long is closed
MAX_CONNECTIONS = 50     # open at once; one more is answered 421 (Postfix sends 20 at most)
