# A Boardroom bot: it wins when it can, blocks when it must, and otherwise plays at random.
# Play it against the server's AI:
#     boardroom bot --script examples/random_bot.py --create tictactoe --ai random
import random


def choose_move(state):
    """Called at each of the bot's turns: return one of state.legal_moves."""
    wins = state.winning_moves()  # moves that make a line at once
    blocks = state.winning_moves(opponent=True)  # where the opponent would make one
    return random.choice(wins or blocks or state.legal_moves)


def on_game_end(state, result):
    """Optional: called once the game is over (result.outcome: win, loss, draw, aborted)."""
    print(f"room {state.room}: {result.outcome} ({result.reason})")
