"""The server's rules of its own: clocks, deadlines, limits, signed links, people's names."""
