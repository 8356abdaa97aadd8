"""``boardroom review [GAME_ID]``: a finished game's analysis in the terminal.

Without an id it reviews the player's last game on the server: the one whose id
the terminal client kept in its profile (:mod:`boardroom.client.terminal.profile`) when
the player last sat in a game there (the result line of every game says its
id, too).

The server analyses a game on the first ``GET /api/games/{id}/analysis``
(docs/protocol.md, "HTTP"): it answers 202 with the moves reviewed so far while
the analysis runs, then 200 with all of them. The command asks once a second
and prints each move's line as it arrives, then the turning points and each
player's accuracy.

A pure core and a thin adapter, as :mod:`boardroom.server.core.room` is:

- the formatting functions (:func:`move_line`, :func:`summary_lines`,
  :func:`error_text`, :func:`new_lines`) take the endpoint's JSON and return
  text; they do no I/O;
- :func:`run_review` does the I/O: HTTP through the standard library
  (``client/`` does not use aiohttp, as :mod:`boardroom.client.loadtest.metrics_probe`),
  the poll's pause, and printing.

Exit status: 0 when the whole review was printed; 1 when the server refused
(no such game, a game in progress, the engine busy) or could not be reached, or
no id was given and no last game is known, with one line on stderr saying why;
2 for a game id that is not a number (argparse's usage error).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

from boardroom.client.commands.server_option import add_server_argument
from boardroom.client.session import normalize_server_url
from boardroom.client.terminal.profile import Profile, profile_path
from boardroom.client.terminal.room_text import game_title, player_label
from boardroom.shared.engine.analysis import turning_point_words
from boardroom.shared.engine.explain import value_text
from boardroom.shared.games import Player
from boardroom.shared.i18n import N_, _, current

TURNING_POINT_KINDS = frozenset(
    {"threw_away_win", "win_to_loss", "threw_away_draw", "missed_win_in_one", "estimate_drop"}
)
"""The turning points' kinds this client words itself (:func:`turning_point_text`)."""

POLL_SECONDS = 1.0
"""How long to wait between two GETs while the analysis runs (the contract's pace)."""

HTTP_TIMEOUT = 30.0
"""Seconds one GET may take; the server answers at once (202) while it analyses."""


MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""Lichess's marks; ``best``, ``good`` and ``forced`` moves are left plain."""

ESTIMATED = N_(
    "Values marked ~ are estimates: the engine cannot solve this board, or did "
    "not in time, so no move is called a blunder on them."
)
"""Said after the moves of a review whose judgements rest on estimates (``_(ESTIMATED)``)."""

JUDGEMENTS = {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
    "forced": N_("forced"),
}
"""The judgements (codes in the analysis) in words."""


ENDINGS = {
    "line": N_("line"),
    "count": N_("count"),
    "no_moves": N_("no_moves"),
    "full_board": N_("full_board"),
    "resignation": N_("resignation"),
    "agreement": N_("agreement"),
    "timeout": N_("timeout"),
    "abandonment": N_("abandonment"),
    "aborted": N_("aborted"),
}
"""How a game ended (a code: English reads it as it is, ``(line)``), in words."""


def judgement_text(judgement: str) -> str:
    """A judgement in the reader's language (a code it does not know, as it is)."""
    return _(JUDGEMENTS[judgement]) if judgement in JUDGEMENTS else judgement


Body = dict[str, Any]


# -- the pure core ---------------------------------------------------------------------


def parse_game_id(text: str) -> int:
    """A game id as typed: ASCII digits, at least 1 (argparse's ``type``).

    >>> parse_game_id("12")
    12
    >>> parse_game_id("twelve")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'twelve' is not a game id: a game id is a number, like 12
    """
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a game id: a game id is a number, like 12", text=text)
        )
    return int(text)


def analysis_url(server: str, game_id: int) -> str:
    """The analysis endpoint of the server whose WebSocket is ``server`` (as ``--server``).

    >>> analysis_url("192.0.2.5", 12)
    'http://192.0.2.5:8765/api/games/12/analysis'
    >>> analysis_url("wss://example.org/ws", 3)
    'https://example.org/api/games/3/analysis'
    """
    parts = urlsplit(normalize_server_url(server))
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    path = parts.path[: -len("/ws")] if parts.path.endswith("/ws") else parts.path
    return urlunsplit(
        (scheme, parts.netloc, f"{path.rstrip('/')}/api/games/{game_id}/analysis", "", "")
    )


def judgement_mark(judgement: str) -> str:
    """``?!``, ``?`` or ``??`` for an inaccuracy, a mistake or a blunder; else empty."""
    return MARKS.get(judgement, "")


def move_line(review: Body) -> str:
    """One move's line: its number, side, move and mark, the judgement, the value
    after it (for the mover; ``~`` marks an estimate), the engine's better move
    when it was a mistake or a blunder, and the hint the mover had asked for.

    >>> move_line({"ply": 6, "side": "first", "move": "e3", "best": "d3",
    ...            "judgement": "blunder", "value_after": "loss in 4", "exact_after": True})
    '  7. X e3??   blunder     loss in 4       better: d3'
    >>> move_line({"ply": 1, "side": "second", "move": "4", "best": "4",
    ...            "judgement": "best", "value_after": "+0.3", "exact_after": False})
    '  2. O 4      best        ~+0.3'
    >>> move_line({"ply": 0, "side": "first", "move": "b2", "best": "b2", "hint": "b2",
    ...            "judgement": "best", "value_after": "draw", "exact_after": True})
    '  1. X b2     best        draw   (after a hint: b2)'
    """
    move = f"{review['move']}{judgement_mark(review['judgement'])}"
    value = value_text(review["value_after"])
    if not review.get("exact_after", True):
        value = f"~{value}"
    number = f"{review['ply'] + 1:>3}."
    judgement = judgement_text(review["judgement"])
    line = f"{number} {Player(review['side']).symbol} {move:<6} {judgement:<11} {value}"
    better = review.get("best")
    if review["judgement"] in ("mistake", "blunder") and better not in (None, review["move"]):
        line = f"{line:<41} " + _("better: {move}", move=better)
    if review.get("hint") is not None:
        line = f"{line.rstrip()}   " + _("(after a hint: {move})", move=review["hint"])
    return line.rstrip()


def heading_lines(body: Body) -> list[str]:
    """The game: its title, id and players, and how it ended."""
    players = body.get("players", {})
    result = body.get("result") or {}
    winner = result.get("winner")
    if winner in tuple(Player):  # the body's JSON word of a side
        ended = _(
            "{player} won",
            player=Player(winner).symbol + " " + player_label(players.get(winner) or "?"),
        )
    else:
        ended = _("draw") if result else _("no result")
    if result.get("reason"):
        reason = str(result["reason"])
        ended += f" ({_(ENDINGS[reason]) if reason in ENDINGS else reason})"
    first = f"X {player_label(players.get(Player.FIRST) or '?')}"
    second = f"O {player_label(players.get(Player.SECOND) or '?')}"
    title = game_title(str(body.get("title", body.get("game", "game"))))
    return [
        _(
            "{title} #{id}: {first} v {second}: {ended}",
            title=title,
            id=body["game_id"],
            first=first,
            second=second,
            ended=ended,
        )
    ]


def progress_line(body: Body) -> str:
    """``analysing… 17 of 42``, while the analysis runs."""
    return _(
        "analysing… {done} of {total}",
        done=len(body.get("reviews", [])),
        total=body.get("total", "?"),
    )


def new_lines(body: Body, printed: int) -> tuple[list[str], int]:
    """The lines of the moves in ``body`` not yet printed (``printed`` of them
    were), and how many are printed after these. Reviews arrive in ply order,
    each answer a longer prefix of the last, so the count is all that is kept."""
    reviews = body.get("reviews", [])
    return [move_line(review) for review in reviews[printed:]], max(printed, len(reviews))


def summary_lines(body: Body) -> list[str]:
    """After the moves: whether the values are estimates (:data:`ESTIMATED`), the
    turning points, then each player's accuracy and, if anyone asked the engine
    for hints during the game, how many each did (a hinted move is the engine's,
    which the accuracy does not say).

    >>> summary_lines({"players": {"first": "ann", "second": "bob"},
    ...                "accuracy": {"first": 97.5, "second": 69.46},
    ...                "turning_points": [{"ply": 1, "side": "second",
    ...                                    "text": "move 2 (O): a2 lost"}]})
    ['', 'Turning points:', '  move 2 (O): a2 lost', '', 'Accuracy: X ann 97.5%, O bob 69.5%']
    >>> summary_lines({"players": {"first": "ann", "second": "bob"},
    ...                "accuracy": {"first": 100.0, "second": 90.0},
    ...                "hints": {"first": 2, "second": 0}})[-2:]
    ['Accuracy: X ann 100.0%, O bob 90.0%', 'Hints used: X ann 2, O bob 0']
    >>> summary_lines({"estimated": True, "accuracy": {}})[:2] == ["", ESTIMATED]
    True
    """
    lines = ["", _(ESTIMATED)] if body.get("estimated") else []
    lines += ["", _("Turning points:")]
    points = body.get("turning_points", [])
    reviews = {review.get("ply"): review for review in body.get("reviews", [])}
    lines += [f"  {turning_point_text(point, reviews.get(point.get('ply')))}" for point in points]
    if not points:
        lines.append("  " + _("none: no move changed the game's course"))
    players = body.get("players", {})
    accuracy = body.get("accuracy", {})
    figures = [
        _(
            "{player} {percent}%",
            player=side.symbol + " " + player_label(players.get(side, "?")),
            percent=current().decimal(accuracy[side], 1),
        )
        for side in Player
        if isinstance(accuracy.get(side), int | float)
    ]
    lines += ["", _("Accuracy: {figures}", figures=", ".join(figures))]
    hints = body.get("hints") or {}
    counts = {side: hints.get(side) for side in Player}
    if any(isinstance(count, int) and count > 0 for count in counts.values()):
        used = [
            f"{side.symbol} {player_label(players.get(side, '?'))} "
            f"{count if isinstance(count, int) else 0}"
            for side, count in counts.items()
        ]
        lines.append(_("Hints used: {counts}", counts=", ".join(used)))
    return lines


def turning_point_text(point: Body, review: Body | None) -> str:
    """A turning point in the reader's language, from its data (``kind``, ``move``,
    ``best``) and its move's review (the values); the server's English ``text``
    for a point this client cannot word (no review of its move, an unknown kind).

    >>> point = {"ply": 6, "side": "first", "kind": "threw_away_win", "move": "e3",
    ...          "best": "d3", "text": "move 7 (X): e3 threw away the win; d3 won in 5"}
    >>> turning_point_text(point, {"value_before": "win in 5", "value_after": "draw"})
    'move 7 (X): e3 threw away the win; d3 won in 5'
    """
    text = str(point.get("text", ""))
    if review is None or point.get("kind") not in TURNING_POINT_KINDS:
        return text
    try:
        kind, words = turning_point_words(
            ply=int(point["ply"]),
            symbol=Player(point["side"]).symbol,
            move=str(point["move"]),
            best=str(point["best"]),
            value_before=str(review["value_before"]),
            value_after=str(review["value_after"]),
            exact=point["kind"] != "estimate_drop",
        )
    except (KeyError, TypeError, ValueError):
        return text
    return words if kind == point["kind"] else text


def error_text(status: int, body: Body | None, game_id: int, retry_after: str | None = None) -> str:
    """What to say when the server answered ``status`` (not 200 or 202);
    ``retry_after``: its ``Retry-After`` header, for a busy engine.

    >>> error_text(404, {"error": "unknown_game_record"}, 99)
    'no game 99 on this server'
    >>> error_text(409, {"error": "game_in_progress"}, 5)
    'game 5 is still being played: it can be reviewed once it is over'
    """
    code = (body or {}).get("error")
    if status == 404 or code == "unknown_game_record":
        return _("no game {id} on this server", id=game_id)
    if status == 409 or code == "game_in_progress":
        return _("game {id} is still being played: it can be reviewed once it is over", id=game_id)
    if status == 503 or code == "engine_busy":
        retry = (body or {}).get("retry_after", retry_after)
        if retry is not None:
            return _(
                "the server's engine is busy with other analyses: try again in {seconds} s",
                seconds=retry,
            )
        return _("the server's engine is busy with other analyses: try again later")
    message = (body or {}).get("message")
    if message:
        return _("the server answered HTTP {status}: {message}", status=status, message=message)
    return _("the server answered HTTP {status}", status=status)


# -- the adapter ---------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: its status and its JSON body (None if it was not JSON)."""

    status: int
    body: Body | None
    retry_after: str | None = None
    """The ``Retry-After`` header, if any (seconds)."""


class UnreachableError(Exception):
    """The server could not be reached (refused, unknown host, timed out)."""


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""An opener that ignores ``http_proxy``: a class server is on the local network."""


def http_get(url: str) -> Answer:
    """GET ``url``; raises :class:`UnreachableError` when no answer came."""
    try:
        with _DIRECT.open(url, timeout=HTTP_TIMEOUT) as response:
            return Answer(response.status, _json(response.read()))
    except urllib.error.HTTPError as error:
        return Answer(error.code, _json(error.read()), error.headers.get("Retry-After"))
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        raise UnreachableError(str(getattr(error, "reason", None) or error)) from None


def _json(data: bytes) -> Body | None:
    try:
        body = json.loads(data)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def run_review(
    game_id: int,
    server: str,
    *,
    get: Callable[[str], Answer] = http_get,
    out: TextIO | None = None,
    err: TextIO | None = None,
    pause: Callable[[float], None] = time.sleep,
) -> int:
    """Poll the analysis of ``game_id`` until it is complete, printing as it comes."""
    out = out or sys.stdout
    err = err or sys.stderr
    url = analysis_url(server, game_id)
    printed = 0
    headed = False
    announced = False
    while True:
        try:
            answer = get(url)
        except UnreachableError as error:
            print(
                _(
                    "boardroom review: cannot reach the server at {url}: {error}",
                    url=url,
                    error=error,
                ),
                file=err,
            )
            return 1
        if answer.status not in (200, 202) or answer.body is None:
            why = error_text(answer.status, answer.body, game_id, answer.retry_after)
            print(_("boardroom review: {why}", why=why), file=err)
            return 1
        body = answer.body
        if not headed:
            print("\n".join(heading_lines(body)), file=out)
            headed = True
        lines, printed = new_lines(body, printed)
        for line in lines:
            print(line, file=out)
        if answer.status == 200 and body.get("complete", True):
            print("\n".join(summary_lines(body)), file=out)
            return 0
        if not announced:
            # Once, on stderr: the moves on stdout stay the review alone.
            print(
                _(
                    "boardroom review: {progress}, more as the engine goes",
                    progress=progress_line(body),
                ),
                file=err,
            )
            announced = True
        out.flush()
        pause(POLL_SECONDS)


def register(subparsers: Any) -> None:
    """Add ``review`` to the ``boardroom`` CLI."""
    parser = subparsers.add_parser(
        "review",
        help=_("a finished game's analysis: every move judged by the engine"),
        description=_(
            "Show the engine's review of a finished game: each move with its "
            "judgement (?! inaccuracy, ? mistake, ?? blunder: a move proven to lower "
            "the game's value), the value after it (~ marks an estimate), the better "
            "move and any hint asked for, then the turning points, each player's "
            "accuracy and the hints each used. Moves print as the server analyses them."
        ),
    )
    parser.add_argument(
        "game_id",
        type=parse_game_id,
        nargs="?",
        metavar="GAME_ID",
        help=_(
            "the game's id, as its result line says (#12); left out: your last game on the server"
        ),
    )
    add_server_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, *, profile: Profile | None = None) -> int:
    """The handler of ``boardroom review``; ``profile``: where the last game is
    kept (the user's own by default)."""
    game_id = args.game_id
    if game_id is None:
        profile = profile or Profile(profile_path())
        game_id = profile.last_game(normalize_server_url(args.server))
        if game_id is None:
            print(
                _("boardroom review: {why}", why=no_last_game_text(args.server)),
                file=sys.stderr,
            )
            return 1
    return run_review(game_id, args.server)


def no_last_game_text(server: str) -> str:
    """Why ``review`` without an id has nothing to review.

    >>> print(no_last_game_text("192.0.2.5"))
    no game of yours on ws://192.0.2.5:8765/ws is known here: give a game's id, as its result line says (boardroom review 12)
    """  # noqa: E501
    return _(
        "no game of yours on {server} is known here: give a game's id, "
        "as its result line says ({example})",
        server=normalize_server_url(server),
        example="boardroom review 12",
    )
