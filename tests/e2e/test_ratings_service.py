"""Ratings through the real server: games played over WebSockets, read at /api/leaderboard.

Each test starts the whole server (:func:`harness.running_server`), plays short
tic-tac-toe games with real clients (a move, then a resignation or a draw by
agreement, so that every result is known in advance) and reads the leaderboard.
The expected ratings are worked out here from Glickman's formulas, step by step
(:func:`glicko2_by_hand`), not by the module under test. One test fills a real
store directly, for the endings no client can produce on demand.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from classroom_helpers import Teacher
from harness import Player, RunningServer, running_server

from boardroom.server.core.players import PlayerId, PlayerRecord
from boardroom.server.core.records import PlayerKind, SeatRecord, Termination
from boardroom.server.ratings.service import Leaderboards
from boardroom.server.store import GameStore
from boardroom.shared.games import Player as Side

# -- Glicko-2 by hand ----------------------------------------------------------------------

SCALE = 173.7178
"""Glicko to Glicko-2 units, as in Glickman's "Example of the Glicko-2 system"."""
SYSTEM_TAU = 0.5
"""tau, the value of the paper's example and Boardroom's."""
NEWCOMER = (1500.0, 350.0, 0.06)


def glicko2_by_hand(
    player: tuple[float, float, float], opponent: tuple[float, float, float], score: float
) -> tuple[float, float, float]:
    """(rating, deviation, volatility) after one game as its own rating period.

    Steps as numbered in Glickman's paper; the new volatility (step 5) is found by
    plain bisection rather than the paper's iteration, so this is a second way to
    the same numbers.
    """
    rating, deviation, sigma = player
    # Step 2: the Glicko-2 scale.
    mu, phi = (rating - 1500.0) / SCALE, deviation / SCALE
    mu_j, phi_j = (opponent[0] - 1500.0) / SCALE, opponent[1] / SCALE
    # Step 3: g of the opponent's deviation, the expected score, and v.
    g = 1.0 / math.sqrt(1.0 + 3.0 * phi_j**2 / math.pi**2)
    expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
    v = 1.0 / (g**2 * expected * (1.0 - expected))
    # Step 4: delta, the improvement the game suggests.
    delta = v * g * (score - expected)
    # Step 5: sigma' = exp(A / 2) where f(A) = 0; f falls from + to - around a = ln(sigma²).
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (
            ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2)
            - (x - a) / SYSTEM_TAU**2
        )

    low, high = a - 10.0, a + 10.0
    assert f(low) > 0 > f(high)
    for _ in range(200):
        middle = (low + high) / 2.0
        low, high = (middle, high) if f(middle) > 0 else (low, middle)
    new_sigma = math.exp(low / 2.0)
    # Step 6: the deviation widened by the new volatility.
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    # Step 7: the new deviation and rating.
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    new_mu = mu + new_phi**2 * g * (score - expected)
    # Step 8: back to the Glicko scale. (Boardroom clamps the deviation to [45, 350]:
    # the games here keep every deviation well inside, which the test checks.)
    return 1500.0 + SCALE * new_mu, SCALE * new_phi, new_sigma


def by_hand(
    first: tuple[float, float, float], second: tuple[float, float, float], score_first: float
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Both players after one game, each from the other's rating before it."""
    return (
        glicko2_by_hand(first, second, score_first),
        glicko2_by_hand(second, first, 1.0 - score_first),
    )


# -- playing -------------------------------------------------------------------------------


async def table(server: RunningServer, first: Player, second: Player) -> str:
    """``first`` opens a tic-tac-toe room, ``second`` joins it; ``first`` plays b2."""
    created = await first.request({"type": "create_room", "game": "tictactoe"})
    code: str = created["room"]["code"]
    joined = await second.request({"type": "join", "code": code})
    assert joined["room"]["status"] == "playing", joined
    moved = await first.request({"type": "move", "room": code, "move": "b2", "ply": 0})
    assert moved["type"] == "moved", moved
    await second.expect("moved", room=code, ply=0)
    return code


async def resigns(loser: Player, code: str) -> None:
    over = await loser.request({"type": "resign", "room": code})
    assert over["type"] == "game_over" and over["result"]["reason"] == "resignation", over


async def agree_a_draw(offering: Player, accepting: Player, code: str) -> None:
    await offering.request({"type": "offer_draw", "room": code})
    await accepting.expect("draw_offered", room=code)
    over = await accepting.request({"type": "accept_draw", "room": code})
    assert over["type"] == "game_over" and over["result"]["reason"] == "agreement", over


async def loses_to_the_ai(player: Player, level: str) -> None:
    """``player`` opens a room against the AI, plays b2, waits for the answer, resigns."""
    created = await player.request({"type": "create_room", "game": "tictactoe", "ai_level": level})
    code = created["room"]["code"]
    await player.request({"type": "move", "room": code, "move": "b2", "ply": 0})
    await player.expect("moved", room=code, ply=1)
    await resigns(player, code)


async def board(server: RunningServer, game: str = "tictactoe") -> list[dict[str, Any]]:
    """The rows of ``game``'s leaderboard."""
    answer = await server.get_json(f"/api/leaderboard?game={game}")
    (only,) = answer["games"]
    assert only["game"] == game
    rows: list[dict[str, Any]] = only["rows"]
    return rows


def matches(row: dict[str, Any], hand: tuple[float, float, float]) -> bool:
    """The row shows the hand-computed rating and deviation, to the whole point."""
    return bool(abs(row["rating"] - hand[0]) <= 0.5 and abs(row["deviation"] - hand[1]) <= 0.5)


# -- the ratings ---------------------------------------------------------------------------


async def test_ratings_follow_the_glicko2_formulas_game_after_game(tmp_path: Path) -> None:
    """ann beats bob, draws with cat; cat loses to the easy AI. After each game the
    leaderboard shows what Glicko-2 gives by hand, one game per rating period."""
    async with running_server(tmp_path / "games.db") as server:
        assert await server.get_json("/api/leaderboard") == {"games": []}
        ann, bob, cat = [await Player.join_server(server.ws_url, n) for n in ("ann", "bob", "cat")]

        await resigns(bob, await table(server, ann, bob))
        ann_1, bob_1 = by_hand(NEWCOMER, NEWCOMER, 1.0)
        rows = await board(server)
        assert [(r["rank"], r["player"], r["games"], r["wins"], r["losses"]) for r in rows] == [
            (1, "ann", 1, 1, 0),
            (2, "bob", 1, 0, 1),
        ]
        assert matches(rows[0], ann_1) and matches(rows[1], bob_1)

        await agree_a_draw(ann, cat, await table(server, ann, cat))
        ann_2, cat_1 = by_hand(ann_1, NEWCOMER, 0.5)
        await loses_to_the_ai(cat, "easy")
        cat_2, ai_1 = by_hand(cat_1, NEWCOMER, 0.0)

        answer = await server.get_json("/api/leaderboard")
        (tictactoe,) = answer["games"]
        assert (tictactoe["game"], tictactoe["title"]) == ("tictactoe", "Tic-tac-toe")
        by_player = {row["player"]: row for row in tictactoe["rows"]}
        expected = {"ann": ann_2, "bob": bob_1, "cat": cat_2, "AI (easy)": ai_1}
        assert by_player.keys() == expected.keys()
        for player, hand in expected.items():
            assert 45 < hand[1] < 350, "the clamps would apply: pick other games"
            assert matches(by_player[player], hand), (player, by_player[player], hand)
            assert by_player[player]["provisional"] is True  # deviations above 110
        assert [
            (by_player[p]["wins"], by_player[p]["draws"], by_player[p]["losses"]) for p in expected
        ] == [
            (1, 1, 0),
            (0, 0, 1),
            (0, 1, 1),
            (1, 0, 0),
        ]
        ranked = sorted(expected, key=lambda player: -expected[player][0])
        assert [row["player"] for row in tictactoe["rows"]] == ranked
        assert [row["rank"] for row in tictactoe["rows"]] == [1, 2, 3, 4]
        assert list(tictactoe["rows"][0]) == [
            "rank",
            "player",
            "rating",
            "deviation",
            "provisional",
            "games",
            "wins",
            "draws",
            "losses",
            "player_id",
        ]
        ids = {row["player"]: row["player_id"] for row in tictactoe["rows"]}
        welcomes = {p.name: p.seen[0]["player_id"] for p in (ann, bob, cat)}
        assert ids == {**welcomes, "AI (easy)": None}


# -- who a player is -----------------------------------------------------------------------


async def test_a_renamed_student_keeps_their_rating_under_the_new_name(tmp_path: Path) -> None:
    """In class mode a student is their roster entry: renamed by the teacher, ann
    shows as Annie with the same rating, and her next game adds to it. A student
    the teacher removes leaves the leaderboard."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, bob = [await Player.join_server(server.ws_url, n) for n in ("ann", "bob")]
        await resigns(bob, await table(server, ann, bob))
        before = await board(server)
        assert [row["player"] for row in before] == ["ann", "bob"]

        ann_id = await teacher.student_id("ann")
        await teacher.post(f"/api/admin/students/{ann_id}/rename", {"name": "Annie"})
        after = await board(server)
        assert [row["player"] for row in after] == ["Annie", "bob"]
        assert [{**row, "player": "-"} for row in after] == [
            {**row, "player": "-"} for row in before
        ]

        await resigns(bob, await table(server, ann, bob))
        rows = await board(server)
        assert [(r["player"], r["games"], r["wins"]) for r in rows] == [
            ("Annie", 2, 2),
            ("bob", 2, 0),
        ]
        assert rows[0]["rating"] > before[0]["rating"]

        bob_id = await teacher.student_id("bob")
        await teacher.post(f"/api/admin/students/{bob_id}/remove")
        assert [(r["rank"], r["player"], r["games"]) for r in await board(server)] == [
            (1, "Annie", 2)
        ]


async def test_one_player_token_is_one_player_whatever_the_name_says(tmp_path: Path) -> None:
    """ "Ann" and later "ANN" (another session of the same player: her token)
    are one player, shown under the name of her latest hello; a game between
    "Ann" and "aNN" is one player against themselves, and is not rated."""

    async def as_ann(name: str) -> Player:
        """Another connection of Ann's player (her token), saying hello as ``name``."""
        player = await Player.connect(server.ws_url)
        token = first_ann.seen[0]["player_token"]
        hello = {"type": "hello", "name": name, "version": 2, "player_token": token}
        welcome = await player.request(hello)
        assert welcome["type"] == "welcome" and welcome["name"] == name, welcome
        return player

    async with running_server(tmp_path / "games.db") as server:
        first_ann, bob = [await Player.join_server(server.ws_url, n) for n in ("Ann", "bob")]
        await resigns(bob, await table(server, first_ann, bob))
        second_ann = await as_ann("ANN")
        await resigns(bob, await table(server, second_ann, bob))
        expected = [("ANN", 2, 2, 0), ("bob", 2, 0, 2)]
        rows = await board(server)
        assert [(r["player"], r["games"], r["wins"], r["losses"]) for r in rows] == expected

        third_ann = await as_ann("aNN")
        await resigns(third_ann, await table(server, first_ann, third_ann))
        record = await server.get_json("/api/games/3")
        assert (record["result"], [p["name"] for p in record["players"]]) == ("1-0", ["Ann", "aNN"])
        rows = await board(server)
        shown = [(r["player"], r["games"], r["wins"], r["losses"]) for r in rows]
        assert shown == [("aNN", 2, 2, 0), ("bob", 2, 0, 2)]
        assert rows[0]["player_id"] == first_ann.seen[0]["player_id"]


async def test_two_players_under_one_name_are_two_rows(tmp_path: Path) -> None:
    """A person says hello as bob, and a bot as bob too (a bot may share a name):
    two players, two rows both shown as "bob", told apart by their player ids;
    without --class and with it."""
    for mode in ({}, {"class_name": "7B"}):
        async with running_server(tmp_path / f"games-{len(mode)}.db", **mode) as server:
            ann, first_bob = [await Player.join_server(server.ws_url, n) for n in ("ann", "bob")]
            second_bob = await Player.join_server(server.ws_url, "bob", client="bot")
            assert second_bob.name == "bob"
            await resigns(first_bob, await table(server, ann, first_bob))
            await agree_a_draw(ann, second_bob, await table(server, ann, second_bob))

            rows = await board(server)
            bobs = {
                r["player_id"]: (r["games"], r["wins"], r["draws"], r["losses"])
                for r in rows
                if r["player"] == "bob"
            }
            assert bobs == {
                first_bob.seen[0]["player_id"]: (1, 0, 0, 1),
                second_bob.seen[0]["player_id"]: (1, 0, 1, 0),
            }, (mode, rows)
            assert [(r["player"], r["games"]) for r in rows if r["player"] != "bob"] == [("ann", 2)]


async def test_a_student_back_with_their_token_is_one_row(tmp_path: Path) -> None:
    """In class mode, ann plays, leaves, and comes back in a new session with her
    player token: the leaderboard has one ann with both games."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        ann, bob = [await Player.join_server(server.ws_url, n) for n in ("ann", "bob")]
        await resigns(bob, await table(server, ann, bob))
        token = ann.seen[0]["player_token"]
        await ann.close()
        ann = await Player.connect(server.ws_url)
        hello = {"type": "hello", "name": "ann", "version": 2, "player_token": token}
        welcome = await ann.request(hello)
        assert welcome["type"] == "welcome" and not welcome.get("new_player"), welcome
        await resigns(bob, await table(server, ann, bob))

        rows = await board(server)
        assert [(r["player"], r["games"], r["wins"], r["player_id"]) for r in rows] == [
            ("ann", 2, 2, welcome["player_id"]),
            ("bob", 2, 0, bob.seen[0]["player_id"]),
        ]


async def test_aborted_and_closed_games_are_not_rated(tmp_path: Path) -> None:
    """A resignation before the first move (aborted) and a room the teacher closes
    mid-game (aborted too) leave the leaderboard empty."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        ann, bob = [await Player.join_server(server.ws_url, n) for n in ("ann", "bob")]
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        await bob.request({"type": "join", "code": created["room"]["code"]})
        over = await bob.request({"type": "resign", "room": created["room"]["code"]})
        assert over["result"] == {"winner": None, "reason": "aborted"}, over

        code = await table(server, ann, bob)
        await Teacher(server).post(f"/api/admin/rooms/{code}/close")
        await bob.expect("room_closed")
        records = [await server.get_json(f"/api/games/{n}") for n in (1, 2)]
        assert [(r["termination"], r["result"]) for r in records] == [("aborted", "*")] * 2

        assert await server.get_json("/api/leaderboard") == {"games": []}
        assert await server.get_json("/api/leaderboard?game=tictactoe") == {
            "games": [{"game": "tictactoe", "title": "Tic-tac-toe", "rows": [], "played": 0}]
        }


async def test_endings_without_a_result_and_players_against_themselves(store: GameStore) -> None:
    """Straight from a store: an abandonment with nobody left, a game never
    started and the AI against itself at one level are not rated; an abandonment
    with a winner, a full board and the AI at two levels are, each game type
    apart and listed in the server's order of games."""
    at = 1_800_000_000.0

    async def finished(
        game: str, first: SeatRecord, second: SeatRecord, winner: Side | None, how: Termination
    ) -> None:
        nonlocal at
        at += 60.0
        game_id = await store.create_game("ROOM", game, (first, second), at=at, started_at=at)
        await store.append_move(game_id, 0, "4" if game == "connect4" else "b2", at=at)
        await store.finish_game(game_id, winner, how, at=at + 1.0)

    def ai(level: str) -> SeatRecord:
        return SeatRecord(f"AI ({level})", PlayerKind.AI, level)

    dee, eve = SeatRecord("dee", session="s-dee"), SeatRecord("eve", PlayerKind.BOT, session="s-e")
    bob, cy = SeatRecord("bob", session="s-bob"), SeatRecord("cy", session="s-cy")
    await finished("mnk-5-5-4", dee, eve, None, Termination.FULL_BOARD)
    await finished("connect4", bob, cy, None, Termination.ABANDONMENT)
    await finished("connect4", bob, cy, Side.SECOND, Termination.ABANDONMENT)
    await finished("tictactoe", ai("easy"), ai("easy"), Side.FIRST, Termination.LINE)
    await finished("tictactoe", ai("easy"), ai("hard"), Side.SECOND, Termination.LINE)
    never = await store.create_game("ROOM", "tictactoe", (dee, None), at=at)
    await store.finish_game(never, None, Termination.ABORTED, at=at)

    boards = await Leaderboards(store, None).boards()
    shown = [
        (b.game, b.title, [(r.player, r.wins, r.draws, r.losses) for r in b.rows]) for b in boards
    ]
    assert shown == [
        ("tictactoe", "Tic-tac-toe", [("AI (hard)", 1, 0, 0), ("AI (easy)", 0, 0, 1)]),
        ("connect4", "Connect Four", [("cy", 1, 0, 0), ("bob", 0, 0, 1)]),
        ("mnk-5-5-4", "5,5,4 game", [("dee", 0, 1, 0), ("eve", 0, 1, 0)]),
    ]


async def test_seats_with_a_player_go_by_it_and_old_seats_by_name(store: GameStore) -> None:
    """Straight from a store: seats holding player "pa" under two names are one
    player, shown under the players table's name; a seat of the same name with
    no player (stored before players were kept) is the name, another row."""
    bob = PlayerId("p" + "a" * 16)
    await store.add_player(PlayerRecord(bob, "Bob", PlayerKind.HUMAN, 1.0), None)
    at = 1_800_000_000.0
    seats = [
        (SeatRecord("bob", player=bob), SeatRecord("cy")),
        (SeatRecord("cy"), SeatRecord("BOBBY", player=bob)),
        (SeatRecord("Bob"), SeatRecord("cy")),
    ]
    for first, second in seats:
        at += 60.0
        game_id = await store.create_game(
            "ROOM", "tictactoe", (first, second), at=at, started_at=at
        )
        await store.append_move(game_id, 0, "b2", at=at)
        await store.finish_game(game_id, Side.FIRST, Termination.LINE, at=at + 1.0)

    (only,) = await Leaderboards(store, None).boards()
    shown = {(r.player, r.player_id, r.wins, r.losses) for r in only.rows}
    assert shown == {("Bob", None, 1, 0), ("Bob", bob, 1, 1), ("cy", None, 1, 2)}


# -- bad input -----------------------------------------------------------------------------


async def test_an_unknown_game_is_a_400_that_names_it(tmp_path: Path) -> None:
    """An unknown name, mnk without sizes, sizes out of range and an empty name
    are refused as unknown_game; an m,n,k name of a preset reads as the preset."""
    async with running_server(tmp_path / "games.db") as server:
        for game, named in (("chess", "chess"), ("mnk", "sizes"), ("mnk-99-3-3", "99"), ("", "")):
            status, content_type, body = await server.get(f"/api/leaderboard?game={game}")
            assert (status, content_type) == (400, "application/json"), game
            refusal = json.loads(body)
            assert refusal["error"] == "unknown_game" and named in refusal["message"], refusal
        same = await server.get_json("/api/leaderboard?game=mnk-3-3-3")
        assert same == {
            "games": [{"game": "tictactoe", "title": "Tic-tac-toe", "rows": [], "played": 0}]
        }
