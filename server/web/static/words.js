// words.js: a room in words for people: who sits where, whose turn it is, how a
// game ended, what just happened (for the room's log) and why a request was
// refused. Pure functions of a Room (room-state.js), like the terminal client's
// client/terminal/room_text.py.

import { parseCell } from "./board-rows.js";
import { formatNumber, language, N_, t, tn } from "./i18n.js";
import { otherSide, SYMBOLS } from "./room-state.js";

export const LEVELS = ["random", "easy", "medium", "hard", "perfect"];

/** The AI levels (wire codes, LEVELS) as people read them. */
const LEVEL_NAMES = {
  random: N_("random"),
  easy: N_("easy"),
  medium: N_("medium"),
  hard: N_("hard"),
  perfect: N_("perfect"),
};

/** An AI level (a wire code: "hard") in the page's language ("difícil"); an unknown code as it is. */
export function levelName(level) {
  return LEVEL_NAMES[level] ? t(LEVEL_NAMES[level]) : level;
}

/** The autopilot's choices (POST /api/admin/autopilot's `level`, a tournament's
 * `autopilot`) as [value, words] pairs: off, then each level. */
export function autopilotOptions() {
  return [["off", t("Off: they lose the game")], ...LEVELS.map((level) => [level, levelName(level)])];
}

/** An autopilot as stored ("off" or a level) in words: "off" or the level's name. */
export function autopilotName(choice) {
  return choice === "off" ? t("off") : levelName(choice);
}

/** A player's name as shown: the server's AI seats, "AI (hard)", in the page's
 * language ("IA (difícil)"); any other name as it is. */
export function shownName(name) {
  const ai = /^AI \((\w+)\)$/.exec(name ?? "");
  if (ai && LEVEL_NAMES[ai[1]]) return t("AI ({level})", { level: levelName(ai[1]) });
  return name;
}

/** A game's title (GET /api/games, a room's `title`) in the page's language: the
 * titles are marked in shared/games; an m,n,k board's, "5,5,4 game", too. */
export function gameTitle(title) {
  const sized = /^(\d+),(\d+),(\d+) game$/.exec(title ?? "");
  if (sized) return t("{m},{n},{k} game", { m: sized[1], n: sized[2], k: sized[3] });
  return title ? t(title) : title;
}

/** The name a tab that only watches says hello with (the teacher's Watch link). */
export const SPECTATOR_NAME = "Teacher";
/** What the header says before that name, in place of "Playing as". */
export const WATCHING_AS = t("Watching as");

/** The page shown for a join link that the class's server does not know (main.js). */
export const INVALID_LINK = {
  title: t("Link not valid"),
  heading: t("Your card's link did not work"),
  text: t("This link is not valid: ask your teacher for your card."),
  hint: t(
    "Nobody was signed in and nothing was added to the class. Open the link on your card again, or type it exactly as printed.",
  ),
  startOver: t("Type your class code instead"),
};

/** A side as a player reads it: "You" for your own seat, else "O bob". */
export function who(room, side, { capital = true } = {}) {
  if (side === room.you) return capital ? t("You") : t("you");
  const name = room.playerName(side);
  return name ? `${SYMBOLS[side]} ${shownName(name)}` : SYMBOLS[side];
}

/** A seat's presence: "" when there, else "gone, seat held 40 s" or "away". */
export function presence(seat, nowSeconds = Date.now() / 1000) {
  if (!seat.name || seat.connected || seat.kind === "ai" || seat.autopilot) return "";
  if (seat.gone_until != null) {
    const held = Math.max(0, Math.round(seat.gone_until - nowSeconds));
    return t("gone, seat held {seconds} s", { seconds: held });
  }
  return t("away");
}

/** What a seat's player is, when the name does not say: "bot" or "". (The
 * server names its AI seats "AI (hard)".) */
export function seatKind(seat) {
  return seat.kind === "bot" ? t("bot") : "";
}

/** Where the game stands: waiting, whose move (and a draw offer), or over. */
export function turnText(room) {
  const { status, to_move: toMove, draw_offer: offer } = room.state;
  if (status === "waiting") return t("Waiting for an opponent");
  if (status === "finished") return resultText(room) || t("Game over");
  const turn = room.myTurn ? t("Your move") : t("{who} to move", { who: who(room, toMove) });
  if (offer && offer === room.you) return t("{turn} · you offered a draw", { turn });
  if (offer) return t("{turn} · {who} offers a draw", { turn, who: who(room, offer) });
  return turn;
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
  if (columns.length === 1) return t("up column {column}", { column: columns[0] });
  const span = { first: columns[0], last: columns.at(-1) };
  return rows.size === 1 ? t("across columns {first} to {last}", span) : t("diagonally across columns {first} to {last}", span);
}

/** A winning line in words: "three in a row, a1-b2-c3", "four in a row, up column 4". */
export function lineWords(shape, line) {
  const where = lineText(shape, line);
  switch (line.length) {
    case 3:
      return t("three in a row, {line}", { line: where });
    case 4:
      return t("four in a row, {line}", { line: where });
    case 5:
      return t("five in a row, {line}", { line: where });
    case 6:
      return t("six in a row, {line}", { line: where });
    case 7:
      return t("seven in a row, {line}", { line: where });
    default:
      return t("{count} in a row, {line}", { count: line.length, line: where });
  }
}

/** Why a game ended (a result's `reason`, a wire code), in a word or two: "resignation". */
const REASON_WORDS = {
  line: N_("line"),
  full_board: N_("full board"),
  count: N_("most discs"),
  no_moves: N_("no moves"),
  resignation: N_("resignation"),
  agreement: N_("agreement"),
  timeout: N_("timeout"),
  abandonment: N_("abandonment"),
  aborted: N_("aborted"),
};

/** A result's reason in words ("full board"); an unknown code with its underscores as spaces. */
export function reasonWords(reason) {
  return REASON_WORDS[reason] ? t(REASON_WORDS[reason]) : String(reason).replace(/_/g, " ");
}

/** How the last game ended ("You win: four in a row, up column 4"); "" before the end. */
export function resultText(room) {
  const result = room.state.result;
  if (!result) return "";
  const winner = result.winner;
  if (!winner) {
    switch (result.reason) {
      case "full_board":
        return t("Draw: the board is full");
      case "agreement":
        return t("Draw by agreement");
      case "aborted":
        return t("Aborted before the first move: nobody wins");
      case "abandonment":
        return t("No result: both players left");
      default:
        return t("No winner ({reason})", { reason: reasonWords(result.reason) });
    }
  }
  const mine = winner === room.you;
  const lost = otherSide(winner) === room.you;
  const params = { winner: who(room, winner), loser: who(room, otherSide(winner), { capital: false }) };
  switch (result.reason) {
    case "line": {
      const line = lineWords(room.shape, result.line);
      return mine ? t("You win: {line}", { line }) : t("{winner} wins: {line}", { ...params, line });
    }
    case "resignation":
      if (mine) return t("You win: {loser} resigned", params);
      return lost ? t("{winner} wins: you resigned", params) : t("{winner} wins: {loser} resigned", params);
    case "timeout":
      return mine ? t("You win on time") : t("{winner} wins on time", params);
    case "abandonment":
      if (mine) return t("You win: {loser} left and did not come back", params);
      return lost
        ? t("{winner} wins: you left and did not come back", params)
        : t("{winner} wins: {loser} left and did not come back", params);
    default: {
      const reason = reasonWords(result.reason);
      return mine ? t("You win ({reason})", { reason }) : t("{winner} wins ({reason})", { ...params, reason });
    }
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
  if (offer === room.you) {
    const other = room.seat(otherSide(offer)).name;
    return other
      ? t("Rematch asked: waiting for {name}", { name: shownName(other) })
      : t("Rematch asked: waiting for the opponent");
  }
  return t("{name} asks for a rematch", { name: shownName(room.seat(offer).name) ?? SYMBOLS[offer] });
}

/** One line for the lobby's list of your rooms: "your move", "waiting"... */
export function roomSummary(room) {
  if (room.state.status === "waiting") return t("waiting for an opponent");
  if (room.state.status === "finished") return t("game over");
  if (room.you === null) return t("watching");
  return room.myTurn ? t("your move") : t("their move");
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
      if (message.autopilot) return t("The AI plays for {who} until they come back", { who: who(room, message.side) });
      return message.connected
        ? t("{who} is back", { who: who(room, message.side) })
        : t("{who} lost the connection", { who: who(room, message.side) });
    case "draw_offered":
      return message.side === room.you ? t("You offer a draw") : t("{who} offers a draw", { who: who(room, message.side) });
    case "draw_declined":
      return t("The draw offer is off");
    case "rematch_offered":
      return message.side === room.you ? t("You ask for a rematch") : rematchText(room);
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
    return room.you
      ? t("Game {number} started: you play {side}", { number, side: SYMBOLS[room.you] })
      : t("Game {number} started", { number });
  }
  for (const seat of state.seats) {
    const earlier = before.seats.find((other) => other.side === seat.side) ?? {};
    const symbol = SYMBOLS[seat.side];
    if (seat.name && !earlier.name && seat.side !== room.you) {
      return t("{who} sat down", { who: `${symbol} ${shownName(seat.name)}` });
    }
    if (!seat.name && earlier.name) return t("{who} left the seat", { who: `${symbol} ${shownName(earlier.name)}` });
  }
  return null;
}

/** A refused move in words: the turn and a moved-on position said for people. */
export function moveRefusalText(room, error) {
  if (error?.code === "not_your_turn" && room.state.to_move) {
    return t("Not your turn: wait for {who} to move", { who: who(room, room.state.to_move, { capital: false }) });
  }
  if (error?.code === "stale_move") return t("The position changed before your move arrived: look again");
  return refusalText(error);
}

/** The start page's line: "Play Tic-tac-toe, Connect Four and Gomoku against friends, ...". */
export function welcomeLine(titles) {
  // British English lists take no comma before "and", as this page always wrote them.
  const list = new Intl.ListFormat(language() === "en" ? "en-GB" : language(), { type: "conjunction" });
  const games = titles.length ? list.format(titles.map(gameTitle)) : t("board games");
  return t("Play {games} against friends, classmates or the AI.", { games });
}

/** Said where a game is chosen when GET /api/games did not answer. */
export const GAMES_UNAVAILABLE = t("The list of games did not load: reload the page to try again");

/** The label of a family's size field (GET /api/games `sizes`): "Columns", "Rows", "In a row". */
export function sizeLabel(size) {
  const labels = { columns: N_("Columns"), rows: N_("Rows"), line: N_("In a row") };
  const meaning = String(size.meaning ?? size.name);
  return labels[meaning] ? t(labels[meaning]) : meaning.charAt(0).toUpperCase() + meaning.slice(1);
}

/**
 * Why a move picked on the board is not played (nothing was sent): not this
 * player's turn, or not a legal move there (a full column, a taken cell, or
 * a free cell the rules do not allow).
 */
export function illegalPickText(room, move) {
  if (!room.myTurn) return moveRefusalText(room, { code: "not_your_turn", message: "not your turn" });
  if (room.shape?.kind === "columns") return t("Column '{move}' is full: choose a column with room", { move });
  if (room.stones.has(move)) return t("Cell '{move}' is taken: choose an empty cell", { move });
  return t("'{move}' is not a legal move here: choose another", { move });
}

/** A legal move that is no place on the board, on its button: "Pass". */
export function otherMoveText(move) {
  if (move === "pass") return t("Pass");
  return move.charAt(0).toUpperCase() + move.slice(1);
}

/** An engine's value (the server's: "win in 3", "loss in 2", "draw", "+1.25"),
 * said in the page's language: "victoria en 3", "+1,25". */
export function valueText(value) {
  const text = String(value ?? "");
  const decided = /^(win|loss) in (\d+)$/.exec(text);
  if (decided) {
    const moves = Number(decided[2]);
    return decided[1] === "win" ? t("win in {moves}", { moves }) : t("loss in {moves}", { moves });
  }
  if (text === "draw") return t("draw");
  if (/^[+-]\d+(\.\d+)?$/.test(text)) {
    const digits = text.split(".")[1]?.length ?? 0;
    const options = { signDisplay: "always", minimumFractionDigits: digits, maximumFractionDigits: digits };
    return formatNumber(Number(text), options);
  }
  return text;
}

/** The engine's hint for people: "Hint: b2 — draw", "Hint: 4 — +0.35 (estimate)". */
export function hintText(hint) {
  const value = hint.search?.value;
  if (!value) return t("Hint: {move}", { move: hint.move });
  const params = { move: hint.move, value: valueText(value) };
  return hint.search.exact ? t("Hint: {move} — {value}", params) : t("Hint: {move} — {value} (estimate)", params);
}

/** A refused hint in words: short, and what to do about it. */
export function hintRefusalText(error) {
  switch (error?.code) {
    case "hints_off":
      return t("Hints are off in this game");
    case "engine_busy":
      return t("The engine is busy: ask again in a moment");
    case "stale_move":
      return t("The game moved on before the hint came: ask again");
    default:
      return refusalText(error);
  }
}

/**
 * The refusal codes (shared/protocol/errors.py ErrorCode) a person may meet,
 * in words. The server's English `message` is more precise (it names the input
 * at fault and what would be accepted), so an English page shows it; a page in
 * another language shows the code's words (wire codes stay English: the words
 * are the client's, docs/protocol.md).
 */
const REFUSALS = {
  unsupported_version: N_("This page is out of date: reload it"),
  bad_name: N_("That name cannot be used: use 1 to 32 letters, digits or spaces"),
  bad_text: N_("That message holds characters that cannot be sent, such as line breaks"),
  too_many_connections: N_("Too many connections from this network: close a tab and try again"),
  unknown_game: N_("The server does not play that game, or not on a board of that size"),
  bad_options: N_("Those room options do not fit together: check the form"),
  bad_level: N_("That AI level does not exist"),
  unknown_room: N_("No room has that code: check it and try again"),
  room_full: N_("That room is full: every seat is taken"),
  too_many_rooms: N_("You have too many open rooms: finish or leave one first"),
  watch_only: N_("This tab only watches: it cannot take a seat"),
  not_seated: N_("You have no seat in this room"),
  not_your_turn: N_("Not your turn"),
  illegal_move: N_("That move is not allowed here: choose another"),
  stale_move: N_("The position changed before your move arrived: look again"),
  game_not_started: N_("The game has not started yet: it is waiting for an opponent"),
  game_over: N_("The game is over"),
  game_in_progress: N_("The game is still being played"),
  no_draw_offer: N_("There is no draw offer to answer"),
  tournament_room: N_("Not in a tournament room: the next round comes by itself"),
  paused: N_("The teacher paused the games: wait until they resume"),
  hints_off: N_("Hints are off in this game"),
  engine_busy: N_("The engine is busy: ask again in a moment"),
  internal_error: N_("Something went wrong on the server: try again"),
  storage_unavailable: N_("The server cannot save games for now: try again later"),
  storage_lost: N_("The server could not save this game for too long: it has ended"),
  too_many_ai_matches: N_("You have as many AI matches open as the server allows: close one first"),
  unreadable_record: N_("A newer Boardroom stored that game: this server cannot read it"),
};

/** A refused request (RefusedError or ConnectionLostError) in words. */
export function refusalText(error) {
  const message = error?.message || t("something went wrong");
  if (error?.code === "connection_lost") return t("Not sent: {reason}", { reason: message });
  if (error?.code === "rate_limited") return t("Too fast: wait a moment and try again");
  const words = REFUSALS[error?.code];
  if (words && t(words) !== words) return t(words);
  // The server's messages are written for people: they name the input at fault
  // and say what would be accepted.
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** A seat's label: "ann", "ann (you)", "bob (left)" for who played a finished
 * game and has left the seat since, else "empty seat". */
export function seatLabel(room, side) {
  const seat = room.seat(side);
  const seated = seat.name;
  if (seated && seat.autopilot) {
    // The server's engine plays the seat of a player whose grace window ran out.
    return t("AI for {name} ({level})", { name: shownName(seated), level: levelName(seat.autopilot) });
  }
  if (seated) return side === room.you ? t("{name} (you)", { name: shownName(seated) }) : shownName(seated);
  const played = room.playerName(side);
  return played ? t("{name} (left)", { name: shownName(played) }) : t("empty seat");
}

/** The line the AI expects, under "How did the AI think?": "Expected line: b2 a1
 * c3"; while hints are off the server sends none (its next move would be the
 * player's hint), and that is said; "" for a move found without a search. */
export function expectedLineText(search) {
  if (search.line_hidden) return t("Expected line: not shown while hints are off");
  return search.nodes > 0 ? t("Expected line: {line}", { line: search.pv.join(" ") }) : "";
}

/** A count of positions for people, as shared/engine/explain.py's count_text
 * writes it, in the page's language: "812", "1.2 M" ("1,2 M" in Spanish). */
export function countText(count) {
  const figure = (value, digits) =>
    formatNumber(value, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
  if (count < 1000) return figure(count, 0);
  let text = figure(count, 0);
  for (const [unit, size] of [["k", 1e3], ["M", 1e6], ["G", 1e9]]) {
    const scaled = count / size;
    text = `${figure(scaled, Math.round(scaled * 10) / 10 < 10 ? 1 : 0)} ${unit}`;
    if (Math.round(scaled) < 1000) return text;
  }
  return text;
}

/** A search's time for people, as explain.py's seconds_text: "37 ms", "0.84 s", "31.4 s". */
function secondsText(milliseconds) {
  const seconds = milliseconds / 1000;
  const figure = (value, digits) => formatNumber(value, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  if (seconds < 0.1) return `${figure(milliseconds, 0)} ms`;
  return seconds < 10 ? `${figure(seconds, 2)} s` : `${figure(seconds, 1)} s`;
}

/** What the AI's search concluded (explain.py's verdict), from the move's `search`. */
function verdictText(search) {
  if (search.nodes === 0 && search.depth === 0) return t("no search: a move at random");
  const decided = /^(win|loss) in (\d+)$/.exec(search.value ?? "");
  if (decided?.[1] === "win") return decided[2] === "1" ? t("wins with this move") : t("sees a win in {moves}", { moves: decided[2] });
  if (decided) return t("sees a loss in {moves}", { moves: decided[2] });
  if (search.value === "draw") return t("proven draw");
  return t("best guess after depth {depth}: {value}", { depth: search.depth, value: valueText(search.value) });
}

/**
 * How the AI found its move, in one line (under "How did the AI think?"):
 * "searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9". An English
 * page shows the server's own `summary` (explain.py's summary, to the
 * millisecond); another language's is made here from the same figures.
 */
export function searchSummaryText(search) {
  if (language() === "en" && search.summary) return search.summary;
  const verdict = verdictText(search);
  if (search.nodes === 0 && search.depth === 0) return verdict;
  if (search.book) return t("from the opening book, solved in advance: {verdict}", { verdict });
  const searched = tn("searched {count} position in {time}", "searched {count} positions in {time}", search.nodes, {
    count: countText(search.nodes),
    time: secondsText(search.elapsed_ms ?? 0),
  });
  if (!search.exact) return t("{searched}: {verdict}", { searched, verdict });
  return t("{searched}, depth {depth}: {verdict}", { searched, depth: search.depth, verdict });
}

/** A time left, "45 s" or "1 min 05 s" (the same units in every language Boardroom speaks). */
export function timeLeft(seconds) {
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/** A tournament player seated before their opponent: "Waiting for Dmitri to sit
 * down: 28 s, then you win by forfeit" (`secondsLeft` until the server's
 * deadline); while the games are paused no deadline passes, and it says so. */
export function waitingText(opponent, secondsLeft, paused) {
  if (paused) return t("Waiting for {name} to sit down (the games are paused)", { name: opponent });
  return t("Waiting for {name} to sit down: {time}, then you win by forfeit", {
    name: opponent,
    time: timeLeft(secondsLeft),
  });
}

/** The seat of a tournament opponent who has not sat down yet: "bob (not here yet)". */
export function absentLabel(opponent) {
  return t("{name} (not here yet)", { name: opponent });
}

/** Why a room was closed (`room_closed`'s `kind`, a wire code), with the names
 * each code's words need: the twin of shared/protocol/room_closing.py's ENGLISH. */
const CLOSINGS = {
  teacher: N_("closed by the teacher"),
  no_show: N_("{absent} did not sit down in time: {winner} wins by forfeit"),
  double_no_show: N_("neither player sat down in time: both lose by forfeit"),
  removed: N_("{absent} was removed from the class: {winner} wins by forfeit"),
  tournament_cancelled: N_("the teacher cancelled the tournament {tournament}"),
  storage_lost: N_("the server could not save its game for too long"),
};

/**
 * Why a room was closed (`room_closed`), in the page's language: "closed by the
 * teacher", "Dora did not sit down in time: Ada wins by forfeit". A room closed
 * without a code, or with one this page does not know, keeps the server's
 * English `reason`.
 */
export function closedText(message) {
  const words = Object.hasOwn(CLOSINGS, message.kind ?? "") ? CLOSINGS[message.kind] : null;
  if (!words) return message.reason;
  const names = message.names ?? {};
  const needed = [...words.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  if (needed.some((name) => typeof names[name] !== "string")) return message.reason;
  return t(words, names);
}

/**
 * A tournament's end, from its standings (GET /api/tournaments/{id}): "Tournament
 * "Cup" is over: ann wins with 3 points." (the server's announcement, which is
 * English, in the page's language); "" while it is not over.
 */
export function tournamentEndText(tournament) {
  const name = tournament.name;
  if (tournament.status === "cancelled") return t("The tournament {name} was cancelled by the teacher.", { name });
  const first = (tournament.standings ?? []).filter((row) => row.rank === 1);
  if (tournament.status !== "finished" || !first.length) return "";
  const names = new Intl.ListFormat(language(), { type: "conjunction" }).format(first.map((row) => shownName(row.name)));
  const points = tn("{n} point", "{n} points", first[0].points);
  return first.length === 1
    ? t('Tournament "{name}" is over: {names} wins with {points}.', { name, names, points })
    : t('Tournament "{name}" is over: {names} share first place with {points}.', { name, names, points });
}

/**
 * The server's announcement of a tournament's end or cancel, from its code
 * (`kind`: `tournament_over` or `tournament_cancelled`; `tournament_paused` and
 * `tournament_resumed` while its results cannot be saved; `tournament_game_replayed`
 * when a game lost to the database is played again) and values, in the
 * page's language: the same words as tournamentEndText; "" for an announcement
 * without them (an older server: then the standings word it).
 */
export function announcementText(message) {
  const name = message.tournament_name;
  if (typeof name !== "string") return "";
  if (message.kind === "tournament_cancelled") return tournamentEndText({ name, status: "cancelled" });
  if (message.kind === "tournament_paused") {
    return t("The tournament {name} is paused: the server cannot save its results. It goes on by itself once it can.", { name });
  }
  if (message.kind === "tournament_resumed") return t("The tournament {name} goes on: its results are saved again.", { name });
  if (message.kind === "tournament_game_replayed" && Array.isArray(message.players) && message.players.length === 2) {
    const [first, second] = message.players.map(shownName);
    return t(
      "Round {round} of the tournament {name}: {first} and {second} play their game again from the start, because the server could not save it. Nobody loses it by forfeit.",
      { name, round: message.round, first, second },
    );
  }
  if (message.kind !== "tournament_over" || typeof message.points !== "number") return "";
  const standings = (message.winners ?? []).map((winner) => ({ rank: 1, name: winner, points: message.points }));
  return tournamentEndText({ name, status: "finished", standings });
}

/** The review page's words (review-view.js) for what its judgements rest on. */
export const REVIEW = {
  /** Shown when a judged move rests on an estimate (the analysis's `estimated`). */
  estimated: t(
    "Some values are estimates: the engine cannot solve this board, or did not in time. Judgements on estimates are cautious: none is a blunder.",
  ),
  /** The graph's legend for the mark over a blunder. */
  blunderLegend: t("?? lowered the game's value"),
};

/** The engine's judgements of a move (the analysis's `judgement`, a wire code) in words. */
const JUDGEMENTS = {
  best: N_("best"),
  good: N_("good"),
  forced: N_("forced"),
  inaccuracy: N_("inaccuracy"),
  mistake: N_("mistake"),
  blunder: N_("blunder"),
};

/** A move's judgement in words ("mistake"); an unknown code as it is. */
export function judgementText(judgement) {
  return JUDGEMENTS[judgement] ? t(JUDGEMENTS[judgement]) : judgement;
}

/** A turning point of a review in words, from its data (the analysis's
 * `turning_points`) and the review of its move (for the values): "move 9 (X): 5
 * threw away the win and lost in 17; 6 won in 17". The same words as the
 * server's `text` (shared/engine/analysis.py, turning_points), which stands for
 * a kind this page does not know. */
export function turningPointText(point, review) {
  if (!review) return point.text;
  const head = t("move {number} ({side}): {move}", { number: point.ply + 1, side: SYMBOLS[point.side], move: point.move });
  const before = review.value_before;
  const after = review.value_after;
  const led =
    after === "draw"
      ? ""
      : point.lets_win_in_one
        ? t(" and let {side} win in one", { side: SYMBOLS[otherSide(point.side)] })
        : t(" and lost in {moves}", { moves: after.replace(/^loss in /, "") });
  const won = before.replace(/^win in /, "");
  const kept = won === "1" ? t("{best} won at once", { best: point.best }) : t("{best} won in {moves}", { best: point.best, moves: won });
  const params = { head, led, kept, best: point.best };
  switch (point.kind) {
    case "threw_away_draw":
      return t("{head} threw away the draw{led}; {best} held the draw", params);
    case "missed_win_in_one":
      return t("{head} missed a win in one{led}; {kept}", params);
    case "threw_away_win":
      return t("{head} threw away the win; {kept}", params);
    case "win_to_loss":
      return t("{head} threw away the win{led}; {kept}", params);
    case "estimate_drop":
      return t("{head} went from {before} to {after} (estimates); {best} was worth {before}", {
        ...params,
        before: valueText(before),
        after: valueText(after),
      });
    default:
      return point.text;
  }
}
