"""The use cases: every decision and change a person asks for, each in its own transaction."""
