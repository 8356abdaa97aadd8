"""Player ratings per game type: Glicko-2 with one game per rating period, and leaderboards.

Pure logic, no I/O: :mod:`boardroom.server.ratings.glicko2` rates games,
:mod:`boardroom.server.ratings.leaderboard` replays a history of rated games into standings
per game type and turns them into leaderboard rows. Every error raised on purpose
is a :class:`RatingError`, a :class:`ValueError`.

Beside them, the server's side: :mod:`boardroom.server.ratings.service` says what is rated
and who a player is, and keeps the store's games replayed;
:mod:`boardroom.server.ratings.routes` serves them at ``GET /api/leaderboard``.
"""

from boardroom.server.ratings.glicko2 import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    PROVISIONAL_DEVIATION,
    TAU,
    Rating,
    RatingError,
    rate_game,
    update,
)
from boardroom.server.ratings.leaderboard import (
    LeaderboardRow,
    PlayerRating,
    RatedGame,
    leaderboard,
    replay,
)

__all__ = [
    "MAX_DEVIATION",
    "MIN_DEVIATION",
    "PROVISIONAL_DEVIATION",
    "TAU",
    "LeaderboardRow",
    "PlayerRating",
    "RatedGame",
    "Rating",
    "RatingError",
    "leaderboard",
    "rate_game",
    "replay",
    "update",
]
