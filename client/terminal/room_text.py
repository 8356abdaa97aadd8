"""What the terminal says about a room in words: the status line, who is who,
clocks, and how a game ended.

Pure functions of a :class:`~boardroom.client.tracked_room.TrackedRoom` (and the time, for
clocks and held seats), so they are tested without a server. The status line is
one line that scripts can match and people can read at a glance::

    Tic-tac-toe, room C9FVBQ | X ann (you) 1:59 | O AI (perfect) 2:00 | your move
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from boardroom.client.session import DEFAULT_SERVER_URL, normalize_server_url
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.engine.explain import count_text
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import (
    Match,
    Moved,
)

_NUMBER_WORDS = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def format_clock(milliseconds: int) -> str:
    """A clock reading as m:ss (h:mm:ss from an hour up), rounded down to the second.

    >>> format_clock(119_400), format_clock(9_999), format_clock(3_725_000)
    ('1:59', '0:09', '1:02:05')
    """
    seconds = max(0, milliseconds) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def who(room: TrackedRoom, side: Player, *, capital: bool = True) -> str:
    """A side as a player reads it: "You" for your own seat, else "O bob" (also
    once bob has left the seat of a finished game: the result keeps his name).

    The symbol comes first because the board shows symbols, not names.
    """
    if side == room.you:
        return "You" if capital else "you"
    name = room.player_name(side)
    return f"{side.symbol} {name}" if name else side.symbol


def name_of(room: TrackedRoom, side: Player) -> str:
    """The name of the player at ``side``, or of who played it in the finished
    game (its symbol if nobody did): for what is said between games, when the
    symbols are about to swap."""
    return room.player_name(side) or side.symbol


def rematch_text(room: TrackedRoom, side: Player) -> str:
    """What a rematch request by ``side`` means to the player (or spectator) reading it.

    >>> from boardroom.shared.protocol.messages import Clock, RoomState, SeatInfo
    >>> room = TrackedRoom(RoomState(code="ABCDEF", game="tictactoe", title="Tic-tac-toe",
    ...     status="finished", public=True, clock=Clock(), moves="", ply=0, you=Player.SECOND,
    ...     seats=[SeatInfo(side=Player.FIRST, name="Ada"),
    ...            SeatInfo(side=Player.SECOND, name="Bo")]))
    >>> print(rematch_text(room, Player.FIRST))
    Ada asks for a rematch: type rematch (or r) to play again, sides swapped.
    >>> print(rematch_text(room, Player.SECOND))
    You asked for a rematch; waiting for Ada.
    """
    if side == room.you:
        return f"You asked for a rematch; waiting for {name_of(room, side.other)}."
    if room.you is not None:
        return (
            f"{name_of(room, side)} asks for a rematch: type rematch (or r) to play again, "
            "sides swapped."
        )
    return f"{name_of(room, side)} asks for a rematch."


def seat_text(room: TrackedRoom, side: Player, *, wall_now: float | None = None) -> str:
    """One seat for the status line: symbol, name, kind, presence (``gone, seat held
    40s``; ``left`` for who played a finished game and has left its seat since)
    and, in a room with a clock, the time left.

    >>> from boardroom.shared.protocol.messages import Clock, ResultInfo, RoomState, SeatInfo
    >>> room = TrackedRoom(RoomState(code="ABCDEF", game="tictactoe", title="Tic-tac-toe",
    ...     status="finished", public=True, clock=Clock(), moves="", ply=0, you=Player.FIRST,
    ...     seats=[SeatInfo(side=Player.FIRST, name="ann", connected=True),
    ...            SeatInfo(side=Player.SECOND)],
    ...     result=ResultInfo(winner=Player.SECOND, reason="resignation"),
    ...     game_players={Player.FIRST: "ann", Player.SECOND: "bob"}))
    >>> seat_text(room, Player.FIRST), seat_text(room, Player.SECOND)
    ('X ann (you)', 'O bob (left)')
    """
    seat = room.seat(side)
    parts: list[str] = [side.symbol]
    played = room.player_name(side)
    if seat.name is None and played is not None:
        parts += [played, "(left)"]
    elif seat.name is None:
        parts.append("(empty seat)")
    else:
        parts.append(seat.name)
        if seat.kind == "bot":
            parts.append("[bot]")
        if side == room.you:
            parts.append("(you)")
        if seat.gone_until is not None and not seat.connected:
            now = time.time() if wall_now is None else wall_now
            held = max(0, round(seat.gone_until - now))
            parts.append(f"(gone, seat held {held}s)")
        elif not seat.connected and seat.kind != "ai":
            parts.append("(away)")
    left = room.time_left_ms(side)
    if left is not None:
        parts.append(format_clock(left))
    return " ".join(parts)


def room_title(room: TrackedRoom) -> str:
    """The game and the room, with the private codes for its players to pass on
    (in a tournament room, whose players the server seats, the watch code only)."""
    state = room.state
    text = f"{state.title}, room {room.code}"
    if state.game_number > 1:
        text += f", game {state.game_number}"
    if state.tournament:
        text += ", tournament game"
        if state.watch_code is not None:
            text += f" (watch code {state.watch_code})"
    elif state.join_code is not None:
        text += f" (private: join code {state.join_code}"
        if state.watch_code is not None:
            text += f", watch code {state.watch_code}"
        text += ")"
    return text


def turn_text(room: TrackedRoom, *, held: str | None = None) -> str:
    """Where the game stands: waiting for a player, whose move, a draw offer, a
    pause by the teacher (with the move ``held`` for the resume), or over."""
    state = room.state
    if state.status == "waiting":
        text = "waiting for an opponent"
        return f"{text} (games paused by the teacher)" if state.paused else text
    if state.status == "finished":
        # A tournament game has no rematch: the next round opens by itself.
        offer = state.rematch_offer
        if offer is not None and not state.tournament:
            if offer == room.you:
                opponent = name_of(room, offer.other)
                return f"game over: you asked for a rematch, waiting for {opponent}"
            asker = name_of(room, offer)
            if room.you is not None:
                return f"game over: {asker} asks for a rematch: rematch (r) or leave"
            return f"game over: {asker} asks for a rematch"
        return "game over: rematch or leave" if room.you and not state.tournament else "game over"
    if state.paused:
        if held is not None:
            return f"paused by the teacher: your move {held} is held"
        to_move = (
            "your move" if room.my_turn else f"{(state.to_move or Player.FIRST).symbol} to move"
        )
        return f"paused by the teacher ({to_move} when the games resume)"
    text = "your move" if room.my_turn else f"{(state.to_move or Player.FIRST).symbol} to move"
    if state.draw_offer is not None:
        if state.draw_offer == room.you:
            text += ", you offered a draw"
        elif room.you is not None:
            text += f", {who(room, state.draw_offer)} offers a draw: accept or decline"
        else:
            text += f", {state.draw_offer.symbol} offers a draw"
    return text


def status_line(
    room: TrackedRoom, *, wall_now: float | None = None, held: str | None = None
) -> str:
    """The room on one line: title, both seats (with clocks), whose turn (and the
    move ``held`` during a pause)."""
    seats = [seat_text(room, side, wall_now=wall_now) for side in (Player.FIRST, Player.SECOND)]
    return " | ".join([room_title(room), *seats, turn_text(room, held=held)])


def result_text(room: TrackedRoom) -> str:
    """How the last game ended, in words ("You win: three in a row a1-a2-a3", in
    Connect Four "You win: four in a row up column 4": the line as the game's
    board names it), or an empty string while no result is known."""
    result = room.state.result
    if result is None:
        return ""
    winner = result.winner
    if winner is None:
        return {
            "full_board": "Draw: the board is full",
            "count": f"Draw on count, {_count_text(room)}",
            "agreement": "Draw by agreement",
            "aborted": "Aborted before the first move: nobody wins",
            "abandonment": "No result: both players left",
        }.get(result.reason, f"No winner ({result.reason})")
    winner_name = who(room, winner)
    wins = f"{winner_name} {'win' if winner == room.you else 'wins'}"
    loser_name = who(room, winner.other, capital=False)
    if result.reason == "line":
        count = _NUMBER_WORDS.get(len(result.line), str(len(result.line)))
        return f"{wins}: {count} in a row {room.game.line_text(result.line)}"
    if result.reason == "count":
        return f"{wins} on count, {_count_text(room)}"
    if result.reason == "no_moves":
        return f"{wins}: {loser_name} had no move"
    if result.reason == "resignation":
        return f"{wins}: {loser_name} resigned"
    if result.reason == "timeout":
        return f"{wins} on time"
    if result.reason == "abandonment":
        return f"{wins}: {loser_name} left and did not come back"
    return f"{wins} ({result.reason})"


def _count_text(room: TrackedRoom) -> str:
    """The stones on the board, X's first: ``"33 to 31"`` (a game ended by count)."""
    rows = "".join(room.game.board_rows(room.position))
    return f"{rows.count('X')} to {rows.count('O')}"


def server_option(url: str) -> str:
    """The shortest ``--server`` option that names the server at ``url`` (as
    :func:`~boardroom.client.session.normalize_server_url` spells it), with a leading space;
    empty for the default server, which needs none.

    >>> server_option("ws://127.0.0.1:8765/ws")
    ''
    >>> server_option("ws://192.168.1.20:8765/ws"), server_option("ws://127.0.0.1:9000/ws")
    (' --server 192.168.1.20', ' --server 127.0.0.1:9000')
    >>> server_option("wss://games.example.org/boardroom/ws")
    ' --server wss://games.example.org/boardroom/ws'
    """
    if url == DEFAULT_SERVER_URL:
        return ""
    parts = urlsplit(url)
    for short in (parts.hostname or "", parts.netloc):
        if short and " " not in short and normalize_server_url(short) == url:
            return f" --server {short}"
    return f" --server {url}"


def result_line(room: TrackedRoom, *, server_url: str | None) -> str:
    """The line that says how the game ended and, once the game is stored, its id
    and the command that reviews it (``server_url``: the server it is stored on;
    None when it will be gone, as a ``--local`` server is once the client quits).

    >>> from boardroom.shared.protocol.messages import Clock, ResultInfo, RoomState, SeatInfo
    >>> room = TrackedRoom(RoomState(code="ABCDEF", game="tictactoe", title="Tic-tac-toe",
    ...     status="finished", public=True, clock=Clock(), moves="", ply=0, you=Player.SECOND,
    ...     seats=[SeatInfo(side=Player.FIRST, name="Ada"),
    ...            SeatInfo(side=Player.SECOND, name="Bo")],
    ...     result=ResultInfo(winner=Player.FIRST, reason="resignation"), game_id=12))
    >>> print(result_line(room, server_url="ws://127.0.0.1:8765/ws"))
    Result: X Ada wins: you resigned (game #12: boardroom review 12)
    >>> print(result_line(room, server_url="ws://10.0.0.5:8765/ws"))
    Result: X Ada wins: you resigned (game #12: boardroom review 12 --server 10.0.0.5)
    >>> print(result_line(room, server_url=None))
    Result: X Ada wins: you resigned
    """
    text = f"Result: {result_text(room)}"
    game_id = room.state.game_id
    if game_id is None or server_url is None:
        return text
    return f"{text} (game #{game_id}: boardroom review {game_id}{server_option(server_url)})"


def search_text(room: TrackedRoom, moved: Moved | None) -> str:
    """What ``why`` says about the AI's last move, ``moved`` (None: none yet).

    >>> from boardroom.shared.protocol.messages import Clock, RoomState, SearchInfo, SeatInfo
    >>> room = TrackedRoom(RoomState(code="ABCDEF", game="connect4", title="Connect Four",
    ...     status="playing", public=True, clock=Clock(), moves="4", ply=1, you=Player.FIRST,
    ...     seats=[SeatInfo(side=Player.FIRST, name="Ada"),
    ...            SeatInfo(side=Player.SECOND, name="AI")]))
    >>> search = SearchInfo(summary="searched 52 k positions in 0.31 s, depth 9: proven draw",
    ...     nodes=52_000, depth=9, elapsed_ms=310, nodes_per_second=167_741, exact=True,
    ...     value="draw", pv=["4", "4", "3"])
    >>> print(search_text(room, Moved(room="ABCDEF", ply=1, move="4", side=Player.SECOND,
    ...     search=search)))
    O AI played 4: searched 52 k positions in 0.31 s, depth 9: proven draw
      expected line: 4 4 3 (168 k positions a second)
    """
    if moved is None or moved.search is None:
        return (
            "No AI move to explain yet: after the AI moves, why says how it searched "
            "(positions, depth, the line it expects)."
        )
    search = moved.search
    if search.nodes == 0:
        return f"{who(room, moved.side)} played {moved.move}: {search.summary}"
    # Hints off: the server leaves the line out (its next move would be a hint).
    line = "not shown while hints are off" if search.line_hidden else " ".join(search.pv)
    speed = count_text(search.nodes_per_second)
    return (
        f"{who(room, moved.side)} played {moved.move}: {search.summary}\n"
        f"  expected line: {line} ({speed} positions a second)"
    )


def match_text(match: Match, *, now: float | None = None) -> str:
    """The notice of a tournament game ready for the player.

    >>> print(match_text(Match(tournament=3, tournament_name="Cup", round=2, board=1,
    ...     room="K3F9AB", code="XTZRUWF6", game="connect4", side=Player.SECOND,
    ...     opponent="Ada", starts_by=1_000_060.0), now=1_000_000.0))
    Tournament "Cup", round 2: you play O against Ada in room K3F9AB; joining it (60s left).
    """
    left = max(0, round(match.starts_by - (time.time() if now is None else now)))
    return (
        f'Tournament "{match.tournament_name}", round {match.round}: you play '
        f"{match.side.symbol} against {match.opponent} in room {match.room}; "
        f"joining it ({left}s left)."
    )
