"""Background work: delivering, reminders and time limits, digests, the computers' decisions."""
