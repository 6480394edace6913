"""What players keep beside the games: each address's settings, a game's messages, a seat's notes.
Read by the views and the mails, changed by the use cases (`pbem.play`)."""
