"""The nine ziggurat cards, in words (the summary's "Nutzung der Zikkurat-Karten")."""

CARD_WORDS = {
    1: "10 points at once",
    2: "once, one more turn after one of yours",
    3: "a stand of 7 tokens",
    4: "3 different nobles face up instead of 2 tokens",
    5: "1 noble face up with 3 or more farmers",
    6: "nobles onto fields, without a token of yours next to them",
    7: "1 more point per two cities in front of you, when cities score",
    8: "free central land joins your chains",
    9: "free river hexes join your chains",
}
