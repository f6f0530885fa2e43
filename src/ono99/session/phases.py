"""A table's phase: ``LOBBY`` before its first game, ``PLAYING`` during one, ``OVER`` once it
has ended (until the next begins). Below the table and its collaborators, which all ask it."""

LOBBY, PLAYING, OVER = "lobby", "playing", "over"
