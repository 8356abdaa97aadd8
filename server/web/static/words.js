// words.js: a room in words for people: who sits where, whose turn it is, how a
// game ended, what just happened (for the room's log) and why a request was
// refused. Pure functions of a Room (room-state.js), like the terminal client's
// client/terminal/room_text.py.

import { parseCell } from "./board-rows.js";
import { t } from "./i18n.js";
import { otherSide, SYMBOLS } from "./room-state.js";

const NUMBER_WORDS = { 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven" };

export const LEVELS = ["random", "easy", "medium", "hard", "perfect"];

/** The name a tab that only watches says hello with (the teacher's Watch link). */
export const SPECTATOR_NAME = "Teacher";
/** What the header says before that name, in place of "Playing as". */
export const WATCHING_AS = "Watching as";

/** The page shown for a join link that the class's server does not know (main.js). */
export const INVALID_LINK = {
  title: "Link not valid",
  heading: "Your card's link did not work",
  text: "This link is not valid: ask your teacher for your card.",
  hint: "Nobody was signed in and nothing was added to the class. Open the link on your card again, or type it exactly as printed.",
  startOver: "Type your class code instead",
};

/** A side as a player reads it: "You" for your own seat, else "O bob". */
export function who(room, side, { capital = true } = {}) {
  if (side === room.you) return capital ? "You" : "you";
  const name = room.playerName(side);
  return name ? `${SYMBOLS[side]} ${name}` : SYMBOLS[side];
}

/** A seat's presence: "" when there, else "gone, seat held 40 s" or "away". */
export function presence(seat, nowSeconds = Date.now() / 1000) {
  if (!seat.name || seat.connected || seat.kind === "ai") return "";
  if (seat.gone_until != null) {
    const held = Math.max(0, Math.round(seat.gone_until - nowSeconds));
    return `gone, seat held ${held} s`;
  }
  return "away";
}

/** What a seat's player is, when the name does not say: "bot" or "". (The
 * server names its AI seats "AI (hard)".) */
export function seatKind(seat) {
  return seat.kind === "bot" ? "bot" : "";
}

/** Where the game stands: waiting, whose move (and a draw offer), or over. */
export function turnText(room) {
  const { status, to_move: toMove, draw_offer: offer } = room.state;
  if (status === "waiting") return "Waiting for an opponent";
  if (status === "finished") return resultText(room) || "Game over";
  let text = room.myTurn ? "Your move" : `${who(room, toMove)} to move`;
  if (offer && offer === room.you) text += " · you offered a draw";
  else if (offer) text += ` · ${who(room, offer)} offers a draw`;
  return text;
}

/**
 * A winning line (the server's cell names, `result.line`) in the notation of the
 * board (`shape.kind`, board-rows.js): the cells, "a1-b2-c3"; on a columns board
 * the columns, "up column 4", "across columns 3 to 6", "diagonally across
 * columns 1 to 4".
 */
export function lineText(shape, cellNames) {
  const cells = cellNames.map(parseCell);
  if (shape?.kind !== "columns" || !cells.length || cells.includes(null)) return cellNames.join("-");
  const columns = [...new Set(cells.map((cell) => cell.column + 1))].sort((a, b) => a - b);
  const rows = new Set(cells.map((cell) => cell.row));
  if (columns.length === 1) return `up column ${columns[0]}`;
  const span = `columns ${columns[0]} to ${columns.at(-1)}`;
  return rows.size === 1 ? `across ${span}` : `diagonally across ${span}`;
}

/** A winning line in words: "three in a row, a1-b2-c3", "four in a row, up column 4". */
export function lineWords(shape, line) {
  const count = NUMBER_WORDS[line.length] ?? String(line.length);
  return `${count} in a row, ${lineText(shape, line)}`;
}

/** How the last game ended ("You win: four in a row, up column 4"); "" before the end. */
export function resultText(room) {
  const result = room.state.result;
  if (!result) return "";
  const winner = result.winner;
  if (!winner) {
    return (
      {
        full_board: "Draw: the board is full",
        agreement: "Draw by agreement",
        aborted: "Aborted before the first move: nobody wins",
        abandonment: "No result: both players left",
      }[result.reason] ?? `No winner (${result.reason})`
    );
  }
  const wins = `${who(room, winner)} ${winner === room.you ? "win" : "wins"}`;
  const loser = who(room, otherSide(winner), { capital: false });
  switch (result.reason) {
    case "line":
      return `${wins}: ${lineWords(room.shape, result.line)}`;
    case "resignation":
      return `${wins}: ${loser} resigned`;
    case "timeout":
      return `${wins} on time`;
    case "abandonment":
      return `${wins}: ${loser} left and did not come back`;
    default:
      return `${wins} (${result.reason})`;
  }
}

/**
 * A standing rematch request in words, for whoever reads it: "Rematch asked:
 * waiting for bob" to the asker, "ann asks for a rematch" to the other player
 * and to spectators; "" when there is none.
 */
export function rematchText(room) {
  const offer = room.state.rematch_offer;
  if (!offer || room.state.status !== "finished") return "";
  if (offer === room.you) return `Rematch asked: waiting for ${room.seat(otherSide(offer)).name ?? "the opponent"}`;
  return `${room.seat(offer).name ?? SYMBOLS[offer]} asks for a rematch`;
}

/** One line for the lobby's list of your rooms: "your move", "waiting"... */
export function roomSummary(room) {
  if (room.state.status === "waiting") return "waiting for an opponent";
  if (room.state.status === "finished") return "game over";
  if (room.you === null) return "watching";
  return room.myTurn ? "your move" : "their move";
}

/** The log line for a room event, or null for events not worth a line. */
export function eventText(room, message, before) {
  switch (message.type) {
    case "moved":
      return null; // the board shows moves
    case "game_over":
      return resultText(room);
    case "player_status":
      if (message.side === room.you) return null;
      return message.connected
        ? `${who(room, message.side)} is back`
        : `${who(room, message.side)} lost the connection`;
    case "draw_offered":
      return `${who(room, message.side)} ${message.side === room.you ? "offer" : "offers"} a draw`;
    case "draw_declined":
      return "The draw offer is off";
    case "rematch_offered":
      return message.side === room.you ? "You ask for a rematch" : rematchText(room);
    case "state":
      return stateChange(room, before);
    default:
      return null;
  }
}

function stateChange(room, before) {
  if (!before) return null;
  const state = room.state;
  const newGame = before.status !== "playing" || before.game_number !== state.game_number;
  if (state.status === "playing" && newGame) {
    const number = state.game_number ?? 1;
    const side = room.you ? `: you play ${SYMBOLS[room.you]}` : "";
    return `Game ${number} started${side}`;
  }
  for (const seat of state.seats) {
    const earlier = before.seats.find((other) => other.side === seat.side) ?? {};
    const symbol = SYMBOLS[seat.side];
    if (seat.name && !earlier.name && seat.side !== room.you) return `${symbol} ${seat.name} sat down`;
    if (!seat.name && earlier.name) return `${symbol} ${earlier.name} left the seat`;
  }
  return null;
}

/** A refused move in words: the turn and a moved-on position said for people. */
export function moveRefusalText(room, error) {
  if (error?.code === "not_your_turn" && room.state.to_move) {
    return `Not your turn: wait for ${who(room, room.state.to_move, { capital: false })} to move`;
  }
  if (error?.code === "stale_move") return "The position changed before your move arrived: look again";
  return refusalText(error);
}

/** The start page's line: "Play Tic-tac-toe, Connect Four and Gomoku against friends, ...". */
export function welcomeLine(titles) {
  const games = titles.length > 1 ? `${titles.slice(0, -1).join(", ")} and ${titles.at(-1)}` : (titles[0] ?? "board games");
  return `Play ${games} against friends, classmates or the AI.`;
}

/** Said where a game is chosen when GET /api/games did not answer. */
export const GAMES_UNAVAILABLE = "The list of games did not load: reload the page to try again";

/** The label of a family's size field (GET /api/games `sizes`): "Columns", "Rows", "In a row". */
export function sizeLabel(size) {
  const labels = { columns: "Columns", rows: "Rows", line: "In a row" };
  const meaning = String(size.meaning ?? size.name);
  return labels[meaning] ?? meaning.charAt(0).toUpperCase() + meaning.slice(1);
}

/**
 * Why a move picked on the board is not played (nothing was sent): not this
 * player's turn, or not a legal move there (a full column, a taken cell, or
 * a free cell the rules do not allow).
 */
export function illegalPickText(room, move) {
  if (!room.myTurn) return moveRefusalText(room, { code: "not_your_turn", message: "not your turn" });
  if (room.shape?.kind === "columns") return `Column '${move}' is full: choose a column with room`;
  if (room.stones.has(move)) return `Cell '${move}' is taken: choose an empty cell`;
  return `'${move}' is not a legal move here: choose another`;
}

/** A legal move that is no place on the board, on its button: "Pass". */
export function otherMoveText(move) {
  return move.charAt(0).toUpperCase() + move.slice(1);
}

/** The engine's hint for people: "Hint: b2 — draw", "Hint: 4 — +0.35 (estimate)". */
export function hintText(hint) {
  const value = hint.search?.value;
  if (!value) return `Hint: ${hint.move}`;
  return `Hint: ${hint.move} — ${value}${hint.search.exact ? "" : " (estimate)"}`;
}

/** A refused hint in words: short, and what to do about it. */
export function hintRefusalText(error) {
  switch (error?.code) {
    case "hints_off":
      return "Hints are off in this game";
    case "engine_busy":
      return "The engine is busy: ask again in a moment";
    case "stale_move":
      return "The game moved on before the hint came: ask again";
    default:
      return refusalText(error);
  }
}

/** A refused request (RefusedError or ConnectionLostError) in words. */
export function refusalText(error) {
  const message = error?.message || "something went wrong";
  if (error?.code === "connection_lost") return `Not sent: ${message}`;
  if (error?.code === "rate_limited") return "Too fast: wait a moment and try again";
  if (error?.code === "storage_unavailable") return t("The server cannot save games for now: try again later");
  // The server's messages are written for people: they name the input at fault
  // and say what would be accepted.
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** A seat's label: "ann", "ann (you)", "bob (left)" for who played a finished
 * game and has left the seat since, else "empty seat". */
export function seatLabel(room, side) {
  const seated = room.seat(side).name;
  if (seated) return `${seated}${side === room.you ? " (you)" : ""}`;
  const played = room.playerName(side);
  return played ? `${played} (left)` : "empty seat";
}

/** The line the AI expects, under "How did the AI think?": "Expected line: b2 a1
 * c3"; while hints are off the server sends none (its next move would be the
 * player's hint), and that is said; "" for a move found without a search. */
export function expectedLineText(search) {
  if (search.line_hidden) return "Expected line: not shown while hints are off";
  return search.nodes > 0 ? `Expected line: ${search.pv.join(" ")}` : "";
}

/** A tournament player seated before their opponent: "Waiting for Dmitri to sit
 * down: 28 s, then you win by forfeit" (`secondsLeft` until the server's
 * deadline); while the games are paused no deadline passes, and it says so. */
export function waitingText(opponent, secondsLeft, paused) {
  if (paused) return `Waiting for ${opponent} to sit down (the games are paused)`;
  const left = secondsLeft < 60 ? `${secondsLeft} s` : `${Math.floor(secondsLeft / 60)} min ${String(secondsLeft % 60).padStart(2, "0")} s`;
  return `Waiting for ${opponent} to sit down: ${left}, then you win by forfeit`;
}

/** The seat of a tournament opponent who has not sat down yet: "bob (not here yet)". */
export function absentLabel(opponent) {
  return `${opponent} (not here yet)`;
}

/** The review page's words (review-view.js) for what its judgements rest on. */
export const REVIEW = {
  /** Shown when a judged move rests on an estimate (the analysis's `estimated`). */
  estimated: "Some values are estimates: the engine cannot solve this board, or did not in time. Judgements on estimates are cautious: none is a blunder.",
  /** The graph's legend for the mark over a blunder. */
  blunderLegend: "?? lowered the game's value",
};

/** A turning point of a review in words, from its data (the analysis's
 * `turning_points`) and the review of its move (for the values): "move 9 (X): 5
 * threw away the win and lost in 17; 6 won in 17". The same words as the
 * server's `text` (shared/engine/analysis.py, turning_points), which stands for
 * a kind this page does not know. */
export function turningPointText(point, review) {
  if (!review) return point.text;
  const head = `move ${point.ply + 1} (${SYMBOLS[point.side]}): ${point.move}`;
  const before = review.value_before;
  const after = review.value_after;
  const led =
    after === "draw"
      ? ""
      : point.lets_win_in_one
        ? ` and let ${SYMBOLS[otherSide(point.side)]} win in one`
        : ` and lost in ${after.replace(/^loss in /, "")}`;
  const won = before.replace(/^win in /, "");
  const kept = won === "1" ? `${point.best} won at once` : `${point.best} won in ${won}`;
  switch (point.kind) {
    case "threw_away_draw":
      return `${head} threw away the draw${led}; ${point.best} held the draw`;
    case "missed_win_in_one":
      return `${head} missed a win in one${led}; ${kept}`;
    case "threw_away_win":
      return `${head} threw away the win; ${kept}`;
    case "win_to_loss":
      return `${head} threw away the win${led}; ${kept}`;
    case "estimate_drop":
      return `${head} went from ${before} to ${after} (estimates); ${point.best} was worth ${before}`;
    default:
      return point.text;
  }
}
