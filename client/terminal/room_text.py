"""What the terminal says about a room in words: the status line, who is who,
clocks, and how a game ended.

Pure functions of a :class:`~boardroom.client.tracked_room.TrackedRoom` (and the time, for
clocks and held seats), so they are tested without a server. The status line is
one line that scripts can match and people can read at a glance::

    Tic-tac-toe, room C9FVBQ | X ann (you) 1:59 | O AI (perfect) 2:00 | your move
"""

from __future__ import annotations

import re
import time
from urllib.parse import urlsplit

from boardroom.client.session import DEFAULT_SERVER_URL, normalize_server_url
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.engine.explain import count_text, search_summary
from boardroom.shared.games import Player
from boardroom.shared.i18n import N_, _
from boardroom.shared.protocol.messages import Match, Moved

_IN_A_ROW = {
    3: N_("three in a row"),
    4: N_("four in a row"),
    5: N_("five in a row"),
    6: N_("six in a row"),
    7: N_("seven in a row"),
    8: N_("eight in a row"),
    9: N_("nine in a row"),
}
"""A winning line's length in words, as the result says it."""

AI_NAMES = {
    "AI (random)": N_("AI (random)"),
    "AI (easy)": N_("AI (easy)"),
    "AI (medium)": N_("AI (medium)"),
    "AI (hard)": N_("AI (hard)"),
    "AI (perfect)": N_("AI (perfect)"),
}
"""The names the server gives its AI seats (``AI (hard)``), in words: the level is a
code on the wire, a word on the screen (``IA (difícil)``)."""

LEVEL_WORDS = {
    "random": N_("random"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "perfect": N_("perfect"),
}
"""The AI levels (wire codes) as people read them (``medio``)."""


def level_word(level: str) -> str:
    """An AI level (a wire code) in the reader's language; an unknown code as it is.

    >>> level_word("hard"), level_word("grandmaster")
    ('hard', 'grandmaster')
    """
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


_AI_NAME = re.compile(r"AI \((random|easy|medium|hard|perfect)\)")


def player_label(name: str) -> str:
    """A player's name as shown: the AI's seats in the reader's language (their
    level in words), anyone else's name as it is.

    >>> player_label("AI (hard)"), player_label("ann")
    ('AI (hard)', 'ann')
    """
    return _(AI_NAMES[name]) if _AI_NAME.fullmatch(name) else name


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
        return _("You") if capital else _("you")
    name = room.player_name(side)
    return f"{side.symbol} {player_label(name)}" if name else side.symbol


def name_of(room: TrackedRoom, side: Player) -> str:
    """The name of the player at ``side``, or of who played it in the finished
    game (its symbol if nobody did): for what is said between games, when the
    symbols are about to swap."""
    name = room.player_name(side)
    return player_label(name) if name else side.symbol


def played_text(room: TrackedRoom, side: Player, move: str) -> str:
    """A move announced: ``You played b2``, ``O bob played 4``."""
    if side == room.you:
        return _("You played {move}", move=move)
    return _("{player} played {move}", player=who(room, side), move=move)


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
        return _(
            "You asked for a rematch; waiting for {opponent}.",
            opponent=name_of(room, side.other),
        )
    if room.you is not None:
        return _(
            "{player} asks for a rematch: type rematch (or r) to play again, sides swapped.",
            player=name_of(room, side),
        )
    return _("{player} asks for a rematch.", player=name_of(room, side))


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
        parts += [player_label(played), _("(left)")]
    elif seat.name is None:
        parts.append(_("(empty seat)"))
    elif seat.autopilot is not None:
        # The server's engine plays the seat of a player whose window ran out.
        name, level = player_label(seat.name), level_word(seat.autopilot)
        label = _("AI for {name} ({level})", name=name, level=level)
        parts.append(label)
    else:
        parts.append(player_label(seat.name))
        if seat.kind == "bot":
            parts.append("[bot]")
        if side == room.you:
            parts.append(_("(you)"))
        if seat.gone_until is not None and not seat.connected:
            now = time.time() if wall_now is None else wall_now
            held = max(0, round(seat.gone_until - now))
            parts.append(_("(gone, seat held {seconds}s)", seconds=held))
        elif not seat.connected and seat.kind != "ai":
            parts.append(_("(away)"))
    left = room.time_left_ms(side)
    if left is not None:
        parts.append(format_clock(left))
    return " ".join(parts)


def room_title(room: TrackedRoom) -> str:
    """The game and the room, with the private codes for its players to pass on
    (in a tournament room, whose players the server seats, the watch code only)."""
    state = room.state
    title = game_title(state.title)
    if state.game_number > 1:
        text = _(
            "{title}, room {code}, game {number}",
            title=title,
            code=room.code,
            number=state.game_number,
        )
    else:
        text = _("{title}, room {code}", title=title, code=room.code)
    if state.tournament:
        text += _(", tournament game")
        if state.watch_code is not None:
            text += _(" (watch code {code})", code=state.watch_code)
    elif state.join_code is not None:
        if state.watch_code is not None:
            text += _(
                " (private: join code {join_code}, watch code {watch_code})",
                join_code=state.join_code,
                watch_code=state.watch_code,
            )
        else:
            text += _(" (private: join code {join_code})", join_code=state.join_code)
    return text


def game_title(title: str) -> str:
    """A game's title as the server sends it (``Connect Four``), in the reader's
    language where the catalogue has it (the games' titles are marked in
    ``shared/games``); as it came otherwise."""
    return _(title) if title else title


def turn_text(room: TrackedRoom, *, held: str | None = None) -> str:
    """Where the game stands: waiting for a player, whose move, a draw offer, a
    pause by the teacher (with the move ``held`` for the resume), saving paused on
    the server (its database down: the clocks stand), or over."""
    state = room.state
    if state.status == "waiting":
        if state.paused:
            return _("waiting for an opponent (games paused by the teacher)")
        return _("waiting for an opponent")
    if state.status == "finished":
        # A tournament game has no rematch: the next round opens by itself.
        offer = state.rematch_offer
        if offer is not None and not state.tournament:
            if offer == room.you:
                opponent = name_of(room, offer.other)
                return _(
                    "game over: you asked for a rematch, waiting for {opponent}",
                    opponent=opponent,
                )
            asker = name_of(room, offer)
            if room.you is not None:
                return _(
                    "game over: {player} asks for a rematch: rematch (r) or leave", player=asker
                )
            return _("game over: {player} asks for a rematch", player=asker)
        if room.you and not state.tournament:
            return _("game over: rematch or leave")
        return _("game over")
    symbol = (state.to_move or Player.FIRST).symbol
    if state.paused:
        if held is not None:
            return _("paused by the teacher: your move {move} is held", move=held)
        if room.my_turn:
            return _("paused by the teacher (your move when the games resume)")
        return _("paused by the teacher ({symbol} to move when the games resume)", symbol=symbol)
    text = _("your move") if room.my_turn else _("{symbol} to move", symbol=symbol)
    if state.draw_offer is not None:
        if state.draw_offer == room.you:
            text += _(", you offered a draw")
        elif room.you is not None:
            text += _(
                ", {player} offers a draw: accept or decline", player=who(room, state.draw_offer)
            )
        else:
            text += _(", {symbol} offers a draw", symbol=state.draw_offer.symbol)
    if state.saving_paused:
        # The server's clocks stand (clocks.running is null): so do the ones shown.
        text += _(" (saving is paused: the clocks are stopped)")
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
        if result.reason == "full_board":
            return _("Draw: the board is full")
        if result.reason == "count":
            return _("Draw on count, {count}", count=_count_text(room))
        if result.reason == "agreement":
            return _("Draw by agreement")
        if result.reason == "aborted":
            return _("Aborted before the first move: nobody wins")
        if result.reason == "abandonment":
            return _("No result: both players left")
        return _("No winner ({reason})", reason=result.reason)
    wins = _("You win") if winner == room.you else _("{player} wins", player=who(room, winner))
    if result.reason == "line":
        length = len(result.line)
        in_a_row = _(_IN_A_ROW[length]) if length in _IN_A_ROW else _("{n} in a row", n=length)
        return _(
            "{wins}: {in_a_row} {line}",
            wins=wins,
            in_a_row=in_a_row,
            line=room.game.line_text(result.line),
        )
    if result.reason == "count":
        return _("{wins} on count, {count}", wins=wins, count=_count_text(room))
    if result.reason == "timeout":
        return _("{wins} on time", wins=wins)
    loser = winner.other
    if result.reason in _LOSER_DID:
        if loser == room.you:
            did = _(_LOSER_DID[result.reason][0])
        else:
            did = _(_LOSER_DID[result.reason][1], player=who(room, loser, capital=False))
        return _("{wins}: {what}", wins=wins, what=did)
    return f"{wins} ({result.reason})"


_LOSER_DID = {
    "no_moves": (N_("you had no move"), N_("{player} had no move")),
    "resignation": (N_("you resigned"), N_("{player} resigned")),
    "abandonment": (
        N_("you left and did not come back"),
        N_("{player} left and did not come back"),
    ),
}
"""What the loser did, for a result: said to them, and of another."""


def _count_text(room: TrackedRoom) -> str:
    """The stones on the board, X's first: ``"33 to 31"`` (a game ended by count)."""
    rows = "".join(room.game.board_rows(room.position))
    return _("{x} to {o}", x=rows.count("X"), o=rows.count("O"))


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
    result = result_text(room)
    game_id = room.state.game_id
    if game_id is None or server_url is None:
        return _("Result: {result}", result=result)
    return _(
        "Result: {result} (game #{id}: {command})",
        result=result,
        id=game_id,
        command="boardroom review " + str(game_id) + server_option(server_url),
    )


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
        return _(
            "No AI move to explain yet: after the AI moves, why says how it searched "
            "(positions, depth, the line it expects)."
        )
    search = moved.search
    said = _(
        "{played}: {summary}",
        played=played_text(room, moved.side, moved.move),
        summary=search_summary(search),
    )
    if search.nodes == 0:
        return said
    # Hints off: the server leaves the line out (its next move would be a hint).
    line = _("not shown while hints are off") if search.line_hidden else " ".join(search.pv)
    speed = count_text(search.nodes_per_second)
    return (
        said
        + "\n"
        + _("  expected line: {line} ({speed} positions a second)", line=line, speed=speed)
    )


def match_text(match: Match, *, now: float | None = None) -> str:
    """The notice of a tournament game ready for the player.

    >>> print(match_text(Match(tournament=3, tournament_name="Cup", round=2, board=1,
    ...     room="K3F9AB", code="XTZRUWF6", game="connect4", side=Player.SECOND,
    ...     opponent="Ada", starts_by=1_000_060.0), now=1_000_000.0))
    Tournament "Cup", round 2: you play O against Ada in room K3F9AB; joining it (60s left).
    """
    left = max(0, round(match.starts_by - (time.time() if now is None else now)))
    return _(
        'Tournament "{tournament}", round {round}: you play {symbol} against {opponent} '
        "in room {room}; joining it ({seconds}s left).",
        tournament=match.tournament_name,
        round=match.round,
        symbol=match.side.symbol,
        opponent=player_label(match.opponent),
        room=match.room,
        seconds=left,
    )
