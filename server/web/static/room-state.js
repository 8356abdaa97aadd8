// room-state.js: this tab's live copy of one room, kept current from the
// server's messages (the browser twin of client/tracked_room.py). A `state`
// replaces the copy whole; `moved`, `game_over`, `player_status`, the draw
// messages and `rematch_offered` are folded into it. A message that does not fit makes `apply` answer
// false, meaning "ask the server for the whole state again". Clocks are read as
// of the moment their figures arrived and count down locally from there; the
// server stays the judge of timeouts.
//
// The board is the server's: every `state` and `moved` says it (rows, top
// first) and the legal moves (docs/protocol.md, "The board"); the page draws
// those and offers only those, with no rules of its own.

import { appendMove, lastMove, moveAt, shapeOf, stonesOf } from "./board-rows.js";

export const SYMBOLS = { first: "X", second: "O" };
export const SIDES = ["first", "second"];
export const otherSide = (side) => (side === "first" ? "second" : "first");

const LOG_LINES = 200; // chat and event lines kept per room

export class Room {
  constructor(state) {
    this.code = state.code;
    /** { kind, columns, rows } of the board (board-rows.js); null if the server said none. */
    this.shape = shapeOf(state.board, state.board_kind);
    /** Chat lines and room events, oldest first: { kind: "chat" | "event", name?, text }. */
    this.log = [];
    /** The last AI move that came with its search ({ side, move, search }), this game; or null. */
    this.lastSearch = null;
    /** The engine's answer to this player's `hint` ({ ply, gameNumber, move, search }), or null. */
    this.hint = null;
    this.take(state);
  }

  // -- reading ----------------------------------------------------------------

  get you() {
    return this.state.you ?? null;
  }

  /** The move played at `ply` (from 0) in the current game, or null. */
  moveAt(ply) {
    return moveAt(this.shape?.kind, this.state.moves, ply);
  }

  get playing() {
    return this.state.status === "playing";
  }

  get myTurn() {
    return this.playing && this.you !== null && this.state.to_move === this.you;
  }

  /** Whether the AIs play both seats (an AI match, to watch). */
  get aiMatch() {
    return this.state.ai_pace != null;
  }

  /** Whether the players may ask for hints (`hints` absent means they may). */
  get hintsAllowed() {
    return this.state.hints !== false;
  }

  /** The hint for the position on the board, while it is still this player's to play; else null. */
  get currentHint() {
    const hint = this.hint;
    if (!hint || !this.myTurn || !this.hintsAllowed) return null;
    return hint.ply === this.state.ply && hint.gameNumber === this.state.game_number ? hint : null;
  }

  /** Whether this page's player may play `move` now: their turn, and a legal move. */
  allows(move) {
    if (!this.myTurn) return false;
    return !Array.isArray(this.state.legal) || this.state.legal.includes(move);
  }

  /** The cell (grid) or column (Connect Four) the current hint names; else null. */
  get hintMove() {
    return this.currentHint?.move ?? null;
  }

  /** Keep the engine's `hint` message, for the position it was asked in. */
  takeHint(message) {
    this.hint = { ply: message.ply, gameNumber: this.state.game_number, move: message.move, search: message.search };
  }

  /** The cells of the winning line once a game is won by one, else empty. */
  get winningCells() {
    return this.state.result?.line ?? [];
  }

  /**
   * Who plays `side`, or played it: the seat's name; once the game is over and
   * its player has left the seat, the name they played it under (the state's
   * `game_players`); else null.
   */
  playerName(side) {
    const played = this.state.status === "finished" ? this.state.game_players?.[side] : null;
    return this.seat(side).name ?? played ?? null;
  }

  /** The seat at `side` ({ side } alone when it is empty). */
  seat(side) {
    return this.state.seats.find((seat) => seat.side === side) ?? { side };
  }

  /** Milliseconds left on `side`'s clock at `now` (performance.now()); null without a clock. */
  timeLeft(side, now = performance.now()) {
    const clocks = this.state.clocks;
    if (!clocks) return null;
    let left = side === "first" ? clocks.first_ms : clocks.second_ms;
    if (clocks.running === side && this.playing) left -= now - this.clocksAt;
    return Math.max(0, Math.floor(left));
  }

  // -- updating ---------------------------------------------------------------

  /** Fold one server message about this room in; false when out of step. */
  apply(message) {
    switch (message.type) {
      case "state":
        this.take(message.room);
        return true;
      case "moved":
        return this.takeMove(message);
      case "game_over":
        return this.takeGameOver(message);
      case "player_status":
        this.state = {
          ...this.state,
          seats: this.state.seats.map((seat) =>
            seat.side === message.side
              ? {
                  ...seat,
                  connected: message.connected,
                  gone_until: message.gone_until ?? null,
                  autopilot: message.autopilot ?? null,
                }
              : seat,
          ),
        };
        return true;
      case "draw_offered":
        this.state = { ...this.state, draw_offer: message.side };
        return true;
      case "draw_declined":
        this.state = { ...this.state, draw_offer: null };
        return true;
      case "rematch_offered":
        // Lapses with the next state: the rematch started, or a seat was freed.
        this.state = { ...this.state, rematch_offer: message.side };
        return true;
      default:
        return true;
    }
  }

  /** Add a chat line or an event line to the room's log. */
  note(entry) {
    this.log.push(entry);
    if (this.log.length > LOG_LINES) this.log.splice(0, this.log.length - LOG_LINES);
  }

  take(state) {
    if (this.state && state.game_number !== this.state.game_number) this.lastSearch = null;
    // A room's state does not carry the stored game's id (only game_over does): a
    // state for the same game (a seat freed after the end) keeps the one known.
    if (this.state?.game_id != null && state.game_id == null && state.game_number === this.state.game_number) {
      state = { ...state, game_id: this.state.game_id };
    }
    this.state = state;
    this.clocksAt = performance.now();
    /** The stones on the board: cell name -> side. */
    this.stones = stonesOf(state.board);
    /** The last move played, in the game's notation; null before the first. */
    this.lastMove = lastMove(this.shape?.kind, state.moves);
  }

  takeMove(moved) {
    if (moved.ply < this.state.ply) return true; // already in (a state overtook it)
    if (moved.ply > this.state.ply || !this.playing || !this.shape || !moved.board) return false;
    this.state = {
      ...this.state,
      moves: appendMove(this.shape.kind, this.state.moves, moved.move),
      ply: moved.ply + 1,
      to_move: otherSide(moved.side),
      clocks: moved.clocks ?? this.state.clocks,
      board: moved.board,
      legal: moved.legal ?? null,
    };
    this.stones = stonesOf(moved.board);
    this.lastMove = moved.move;
    if (moved.clocks) this.clocksAt = performance.now();
    if (moved.search) this.lastSearch = { side: moved.side, move: moved.move, search: moved.search };
    return true;
  }

  takeGameOver(over) {
    let clocks = this.state.clocks;
    if (clocks) {
      // Stop the clocks where they stand: nothing runs after the end.
      clocks = { first_ms: this.timeLeft("first"), second_ms: this.timeLeft("second"), running: null };
    }
    const inStep = over.moves === this.state.moves;
    this.state = {
      ...this.state,
      status: "finished",
      result: over.result,
      to_move: null,
      legal: null,
      draw_offer: null,
      clocks,
      delayed: 0, // a late spectator has just been sent the rest of the game
      delayed_seconds: 0,
      // The stored game's id, for its review (#/review/ID); kept if a state gave it already.
      game_id: over.game_id ?? this.state.game_id ?? null,
    };
    // A move missed on the way: the whole state again, board and all.
    return inStep;
  }
}
