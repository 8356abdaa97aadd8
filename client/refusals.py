"""A refusal in the reader's language: the Python twin of the browser's
``refusalText`` (``server/web/static/words.js``).

The server words its refusals in English (``message``), for any client; their
``code`` is what a client translates. In English the terminal shows the
server's message as it is (it names the input at fault); in another language
it says what the code means, and falls back to the server's message for a code
it does not know. A move the rules refuse is said from the rules' own reason
(:class:`~boardroom.shared.errors.IllegalMoveReason`), which the client knows
as well as the server.
"""

from __future__ import annotations

from boardroom.client.errors import RequestRefusedError
from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.i18n import N_, SOURCE_LANGUAGE, _, current_language

REFUSALS = {
    "malformed_json": N_("The server could not read that request."),
    "not_an_object": N_("The server could not read that request."),
    "binary_frame": N_("The server could not read that request."),
    "frame_too_large": N_("That request is too large for the server."),
    "unknown_type": N_("The server does not know that request: is it an older version?"),
    "invalid_field": N_("The server found something wrong in that request."),
    "hello_required": N_("Not connected properly: start the client again."),
    "unsupported_version": N_("This client and the server speak different versions: update it."),
    "bad_name": N_(
        "That name is not allowed: use 1 to 24 letters, digits or spaces, no control characters."
    ),
    "bad_text": N_("That message holds characters that cannot be sent."),
    "bad_token": N_("The server no longer knows this session."),
    "bad_player_token": N_("The server does not know this player."),
    "unknown_class_token": N_(
        "This class's server does not know your link: ask your teacher for your card."
    ),
    "player_token_revoked": N_("This player was removed from the class."),
    "rate_limited": N_("Too fast: wait a moment and try again."),
    "too_many_connections": N_("Too many connections from this network: close one and retry."),
    "unknown_game": N_("There is no game by that name: type help for the list."),
    "bad_options": N_("Those room options do not go together: type help for them."),
    "bad_level": N_("There is no such AI level: random, easy, medium, hard or perfect."),
    "unknown_room": N_("No room has that code: rooms lists the open ones."),
    "room_full": N_("Both seats of that room are taken: watch it instead."),
    "too_many_rooms": N_("You have as many open rooms as the server allows: leave one first."),
    "watch_only": N_("You are only watching here: you cannot take a seat."),
    "not_seated": N_("You have no seat in that room: join it first."),
    "not_your_turn": N_("Not your turn."),
    "illegal_move": N_("The rules do not allow that move."),
    "stale_move": N_("The position changed before your move arrived: look again."),
    "game_not_started": N_("The game has not started yet."),
    "game_over": N_("The game is over."),
    "game_in_progress": N_("Not during a game: wait until it is over."),
    "no_draw_offer": N_("There is no draw offer to answer."),
    "tournament_room": N_("Not in a tournament room: the next round opens by itself."),
    "paused": N_("The games are paused by the teacher: wait until they resume."),
    "hints_off": N_("Hints are off in this game: play your own move."),
    "engine_busy": N_("The engine is busy: ask again in a moment."),
    "internal_error": N_("The server failed on this request: try again."),
    "storage_unavailable": N_("The server cannot save games for now: try again in a moment."),
    "storage_lost": N_("The server could not save this game for too long: it has ended."),
    "too_many_ai_matches": N_(
        "You are watching as many AI matches as the server allows: close one first."
    ),
    "unreadable_record": N_("A newer Boardroom stored that game: this server cannot read it."),
}
"""What each refusal code means, for a reader of another language than the
server's (see the module docstring)."""


def refusal_text(refusal: RequestRefusedError) -> str:
    """A refusal as a sentence in the language spoken now."""
    message = refusal.message.strip()
    if current_language() != SOURCE_LANGUAGE and refusal.code in REFUSALS:
        return _(REFUSALS[refusal.code])
    if refusal.code == "rate_limited" and refusal.retry_after is not None:
        return _("Too fast: {message}", message=message)
    return message or _("Refused ({code}).", code=refusal.code)


ILLEGAL_MOVES = {
    IllegalMoveReason.NOT_A_MOVE: N_("{move!r} is not a move here"),
    IllegalMoveReason.OFF_BOARD: N_("{move!r} is off the board"),
    IllegalMoveReason.OCCUPIED: N_("{move!r} is taken: choose an empty cell"),
    IllegalMoveReason.COLUMN_FULL: N_("column {move!r} is full: choose a column with room"),
    IllegalMoveReason.GAME_OVER: N_("the game is over: no more moves can be played"),
    IllegalMoveReason.FLIPS_NOTHING: N_(
        "{move!r} flips nothing: a disc there must close a line of the opponent's discs"
    ),
    IllegalMoveReason.CANNOT_PASS: N_("you cannot pass: you have a move"),
}
"""Why the rules refuse a move, by reason, for a reader of another language than
the rules' messages (English, which names the legal moves too)."""


def illegal_move_text(error: IllegalMoveError) -> str:
    """Why the rules refuse a move, in the language spoken now (no final stop)."""
    if current_language() == SOURCE_LANGUAGE or error.reason not in ILLEGAL_MOVES:
        return str(error)
    return _(ILLEGAL_MOVES[error.reason], move=error.move_text)


def move_refusal_text(refusal: RequestRefusedError, illegal: IllegalMoveError | None) -> str:
    """A refused move: ``illegal``, the rules' own reason when the client's copy of
    the rules refuses it too, said in the reader's language; else as
    :func:`refusal_text`."""
    if (
        illegal is not None
        and refusal.code == "illegal_move"
        and current_language() != SOURCE_LANGUAGE
    ):
        return illegal_move_text(illegal) + "."
    return refusal_text(refusal)
