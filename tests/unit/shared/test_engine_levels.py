"""The playing levels: each is stronger than the one below, and ``easy`` loses like a person.

``easy`` must never blunder the obvious (a win on the board, a single threat to
block, a fork the opponent could make next move) yet fall for plans two moves
deep. Games between levels come from :func:`boardroom.client.bench.levels.play_match`.
Everything here is seeded; only ``hard`` stops on the clock, and only in the
last test, whose per-move cap leaves it far deeper than ``medium`` on any machine.
"""

from __future__ import annotations

import pytest

from boardroom.client.bench.levels import GameRecord, play_game, play_match
from boardroom.shared.engine import Level, Result, search, solve_move
from boardroom.shared.games import Game, GridGame, Move, Player, Position, get_game
from boardroom.shared.protocol import decode_client_message, encode_message
from boardroom.shared.protocol import messages as wire

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

SEEDS = range(12)
"""Seeds tried wherever a varied level must *always* do something."""


def test_the_engine_plays_the_levels_the_wire_names_one_type() -> None:
    """A level a client may ask for is one the engine plays: the same type, sent by
    its value and decoded to the member, weakest first."""
    assert Level is wire.Level
    assert wire.LEVELS == tuple(Level) == ("random", "easy", "medium", "hard", "perfect")
    added = decode_client_message(b'{"type": "add_ai", "room": "K7Q2", "level": "hard"}')
    assert isinstance(added, wire.AddAi)
    assert added.level is Level.HARD
    assert '"level":"hard"' in encode_message(added)


def winning_moves(game: Game, position: Position) -> set[Move]:
    """Moves that win at once for the side to move."""
    return {
        move
        for move in game.legal_moves(position)
        if game.outcome(game.play_unchecked(position, move)).winner is not None
    }


def threats_against(game: Game, position: Position) -> set[Move]:
    """Moves with which the side *not* to move would win at once, were it its turn."""
    assert isinstance(game, GridGame)
    other = game.to_move(position).other
    return {
        move
        for move in game.legal_moves(position)
        if game.grid.has_line(
            position.stones[other.number] | game.move_bit_in(position.occupied, move)
        )
    }


def could_survive_a_turn(game: Game, position: Position) -> bool:
    """True if some move leaves the opponent no immediate win."""
    for move in game.legal_moves(position):
        child = game.play_unchecked(position, move)
        if game.outcome(child).is_over or not winning_moves(game, child):
            return True
    return False


def easy_moves(game: Game, position: Position, seeds: range = SEEDS) -> set[str]:
    """The moves ``easy`` plays in ``position`` over ``seeds``, as text."""
    return {game.format_move(search(game, position, level="easy", seed=s).move) for s in seeds}


def last_turn_of(game: Game, record: GameRecord, seat: Player) -> Position:
    """The last position of ``record`` in which ``seat`` was to move."""
    position = last = game.new()
    for move in game.from_moves(record.moves).moves:
        if game.to_move(position) is seat:
            last = position
        position = game.play_unchecked(position, move)
    return last


def lost_by(record: GameRecord, level: Level) -> bool:
    """True if ``level`` sat in the game and the other seat won."""
    return record.winner is not None and record.winning_level is not level


# -- never blunders the obvious -----------------------------------------------------

WINS_ON_THE_BOARD = [
    # (game, moves, winning moves); mostly the opponent threatens too, to tempt a block.
    ("tictactoe", "a1 b1 a2 b2", {"a3"}),
    ("tictactoe", "b2 a1 c3 a2 c1", {"a3"}),  # O wins a3 even though X threatens two cells
    ("tictactoe4", "a1 b1 a2 b2 a3 b3", {"a4"}),
    ("tictactoe4", "a1 a2 b2 a3 c3 b3 d1 c2", {"d4"}),
    ("connect4", "121212", {"1"}),
    ("connect4", "445566", {"3", "7"}),
    ("gomoku", "h8 a1 h9 a2 h10 a3 h11 a4", {"h7", "h12"}),
    ("gomoku", "c3 o15 d3 o14 f3 o13 g3 o12", {"e3"}),  # a broken four
]

SINGLE_THREATS = [
    # (game, moves, the one blocking move); the side to move has no win of its own.
    ("tictactoe", "a1 b2 a2", {"a3"}),
    ("tictactoe", "b2 a1 c3 c1", {"b1"}),
    ("tictactoe4", "a1 b1 a2 b2 a3", {"a4"}),
    ("tictactoe4", "a1 a2 b2 a3 c3", {"d4"}),
    ("connect4", "12121", {"1"}),
    ("connect4", "55667", {"4"}),
    ("connect4", "12234334747", {"4"}),  # on a diagonal
    ("gomoku", "h8 a1 h9 a2 h10 a3 o15 a4", {"a5"}),
    ("gomoku", "h8 c3 h10 d3 j8 f3 o15 g3", {"e3"}),  # a broken four in the making
]


@pytest.mark.parametrize(("name", "moves", "wins"), WINS_ON_THE_BOARD)
def test_easy_always_takes_an_immediate_win(name: str, moves: str, wins: set[str]) -> None:
    """Whatever the seed, easy completes its line instead of blocking the opponent's."""
    game = get_game(name)
    position = game.from_moves(moves)
    assert {game.format_move(m) for m in winning_moves(game, position)} == wins
    assert easy_moves(game, position) <= wins


@pytest.mark.parametrize(("name", "moves", "blocks"), SINGLE_THREATS)
def test_easy_always_blocks_a_single_immediate_threat(
    name: str, moves: str, blocks: set[str]
) -> None:
    """Whatever the seed, easy fills the one cell where the opponent would win next move."""
    game = get_game(name)
    position = game.from_moves(moves)
    assert not winning_moves(game, position)
    assert {game.format_move(m) for m in threats_against(game, position)} == blocks
    assert easy_moves(game, position) == blocks


def test_easy_never_misses_a_win_or_a_single_block_anywhere_in_tic_tac_toe() -> None:
    """In every reachable tic-tac-toe position easy wins if it can, else blocks a lone threat."""
    game = get_game("tictactoe")
    frontier = [game.new()]
    seen = {frontier[0].stones}
    checked = 0
    while frontier:
        position = frontier.pop()
        if game.outcome(position).is_over:
            continue
        wins = winning_moves(game, position)
        threats = threats_against(game, position)
        if wins or len(threats) == 1:
            move = search(game, position, level="easy", seed=checked).move
            assert move in (wins or threats), game.move_string(position)
            checked += 1
        for move in game.legal_moves(position):
            child = game.play_unchecked(position, move)
            if child.stones not in seen:
                seen.add(child.stones)
                frontier.append(child)
    assert checked > 1000


def test_easy_sees_a_fork_its_opponent_could_make_next_move() -> None:
    """Easy never lets the opponent make two threats with its next stone."""
    # X holds opposite corners round O's centre: an O corner forces X's block, and
    # that block makes two threats. Easy's two plies see it; the edges are safe.
    game = get_game("tictactoe")
    position = game.from_moves("a1 b2 c3")
    played = easy_moves(game, position, range(40))
    assert not played & {"a3", "c1"}
    assert len(played) > 1  # it still varies among the safe edges


# -- falls for plans two moves deep ---------------------------------------------------


def test_easy_walks_into_a_two_move_fork_in_tic_tac_toe_and_perfect_never_does() -> None:
    """Easy sometimes falls for a tic-tac-toe fork built over two moves; perfect never does."""
    # After X's corner only the centre holds; elsewhere X threatens, O must block,
    # and X's next stone makes two threats: four plies, beyond easy's two.
    game = get_game("tictactoe")
    corner = game.from_moves("a1")
    as_easy = [
        play_game(game, Level.PERFECT, Level.EASY, seed=seed, start=corner) for seed in range(16)
    ]
    lost = [record for record in as_easy if lost_by(record, Level.EASY)]
    assert lost, "easy never left the centre open"
    assert len(lost) < len(as_easy), "easy never found the centre"
    for record in lost:  # every loss is a fork: O's last move could not stop it
        assert not could_survive_a_turn(game, last_turn_of(game, record, Player.SECOND))
    as_perfect = play_game(game, Level.PERFECT, Level.PERFECT, seed=0, start=corner)
    assert as_perfect.winner is None


def test_easy_falls_for_a_two_move_connect_four_trap_that_medium_sees() -> None:
    """Easy sometimes falls for a two-move Connect Four trap that medium always sees."""
    # X to move. Column 1 wins; column 3 lets O make two threats at once (loss in 2);
    # any other lets O threaten, X block, and O make two threats (loss in 3).
    game = get_game("connect4")
    position = game.from_moves("2474444222757751")
    losing_in_three = set()
    for move in game.legal_moves(position):
        reply = solve_move(game, game.play(position, move))
        if reply.value.result is Result.WIN and reply.value.moves == 3:
            losing_in_three.add(game.format_move(move))
    assert losing_in_three == {"2", "4", "5", "6", "7"}
    played = easy_moves(game, position, range(24))
    assert "3" not in played  # loss in 2: within easy's two plies
    assert played & losing_in_three
    assert {
        game.format_move(search(game, position, level="medium", seed=s).move) for s in SEEDS
    } == {"1"}


@pytest.mark.parametrize(
    ("name", "opponent", "games"),
    [
        ("tictactoe", Level.PERFECT, 12),
        ("tictactoe", Level.MEDIUM, 12),
        ("connect4", Level.MEDIUM, 6),
    ],
)
def test_easy_only_ever_loses_to_more_threats_than_it_can_block(
    name: str, opponent: Level, games: int
) -> None:
    """In every game easy loses, its last move had no answer to the threats against it."""
    game = get_game(name)
    match = play_match(name, opponent, Level.EASY, games, seed=5)
    lost = [record for record in match.records if lost_by(record, Level.EASY)]
    assert lost, "easy lost no game: the check below saw nothing"
    for record in lost:
        easy_seat = Player.FIRST if record.first is Level.EASY else Player.SECOND
        last_turn = last_turn_of(game, record, easy_seat)
        assert not could_survive_a_turn(game, last_turn), record.moves


# -- stronger levels score more --------------------------------------------------------


@pytest.mark.parametrize("opponent", list(Level))
def test_perfect_never_loses_at_tic_tac_toe(opponent: Level) -> None:
    """Perfect draws or wins every game against every level, with either colour."""
    match = play_match("tictactoe", Level.PERFECT, opponent, games=6, seed=3)
    assert match.losses == 0
    if opponent is Level.RANDOM:
        assert match.wins >= 4


def test_a_match_alternates_colours_and_plays_a_different_game_each_time() -> None:
    """Level a takes the first seat in even games; varied levels differ game to game."""
    match = play_match("connect4", Level.EASY, Level.RANDOM, games=6, seed=1)
    assert [r.first for r in match.records] == [Level.EASY, Level.RANDOM] * 3
    assert match.distinct_games == 6
    assert match.games == 6 and match.points_a + match.points_b == 6
    again = play_match("connect4", Level.EASY, Level.RANDOM, games=6, seed=1)
    assert again.records == match.records


@pytest.mark.e2e  # a whole match: thirty games, about 6 s
def test_medium_outscores_easy_at_connect_four() -> None:
    """Over thirty seeded Connect Four games, medium takes more points than easy."""
    # Medium scores about 70% against easy (70.5 of 100 games), which leaves thirty
    # games a wide margin. Neither level reaches its clock: the games replay exactly.
    match = play_match("connect4", Level.MEDIUM, Level.EASY, games=30, seed=1)
    assert match.points_a > match.points_b, match


@pytest.mark.e2e  # a whole match on hard's clock: about 8 s
def test_hard_outscores_medium_at_connect_four() -> None:
    """Over six Connect Four games, hard held to 0.3 s a move takes more points than medium."""
    # 0.3 s takes hard to depth 8 typically, even with the machine shared. Do not cut
    # it much further: hard held at depth 5 scored only 13 of 40 against medium.
    match = play_match("connect4", Level.HARD, Level.MEDIUM, games=6, seed=1, time_limit=0.3)
    assert match.points_a > match.points_b, match
