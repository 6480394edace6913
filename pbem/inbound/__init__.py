"""Mail coming in: the entry points that hand incoming messages to the use cases.

- `reading`: a raw message parsed within bounds (size, nesting), or refused as unreadable;
- `ingest`: one message in, at most one decision (or answer, bounce, quarantine) out;
- `lmtp`: a long-running LMTP server that ingests what an MTA hands it.
"""
