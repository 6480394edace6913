"""What a reader sees: a seat's view, a home, and every word in the reader's language."""
