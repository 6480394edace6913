"""Mail: the outbox (written with the events that cause it) and its delivery.

- `compose`: a mail from its templates, with safe headers and one thread per game and seat;
- `notify`: which mails creating a game or appending an event causes;
- `transport`: console or SMTP (plain, STARTTLS, SSL), from MAIL_URL;
- `deliver`: the sender that works the outbox, with retries.
"""
