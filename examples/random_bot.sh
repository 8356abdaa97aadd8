#!/usr/bin/env bash
# A Boardroom bot in bash: it plays a random legal move (see docs/bots.md).
#
# For each of its turns, `boardroom bot` writes one line on stdin:
#     GAME YOU TIME_MS MOVES LEGAL       e.g.  connect4 O 29500 4,4,5 1,2,3,4,5,6,7
# and the bot answers with one line on stdout: its move. Anything on stderr goes
# to the log. Play it against the server's AI:
#     boardroom bot --cmd examples/random_bot.sh --create connect4 --ai random

while read -r game me time_ms moves legal; do
    IFS=, read -r -a choices <<< "$legal"
    echo "${choices[RANDOM % ${#choices[@]}]}"
    echo "$game as $me: ${time_ms} ms left, moves so far: $moves" >&2
done
