"""Storage: the tables, games as logs, the one transaction, bounded waits."""
