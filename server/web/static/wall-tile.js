// wall-tile.js: one room on the wall: its players, the board, whose turn or
// how the game ended, and "Paused" while the teacher has the games paused.
// The room comes from GET /api/admin/rooms; it is kept as the client keeps a
// room (room-state.js) and drawn by the client's own boards and words, so the
// wall shows a game exactly as its players see it. A finished game still
// names its players once they have left their seats (the view's
// `game_players`); a tournament game waiting for its players names who has
// not sat down, and the seconds left before they lose by forfeit.

import { createBoard } from "./board.js";
import { h, setText, show } from "./dom.js";
import { t } from "./i18n.js";
import { otherSide, Room, SIDES, SYMBOLS } from "./room-state.js";
import { secondsLeft, shownName } from "./tournament-tables.js";
import { turnText } from "./words.js";

const SMALL_CELLS_FROM = 8; // more columns than this: cells of a few pixels on a wall tile

export class WallTile {
  /** `view` is a room of GET /api/admin/rooms; `pairing` its tournament game (see `update`). */
  constructor(view, pairing = null) {
    this.code = view.code;
    this.room = new Room(stateOf(view));
    this.names = {};
    const seats = h("ul", { class: "tile-seats" });
    for (const side of SIDES) {
      this.names[side] = h("span", { class: "tile-name" });
      seats.append(
        h(
          "li",
          { class: `tile-seat ${side}`, dataset: { side } },
          h("span", { class: `stone ${side}`, "aria-hidden": "true" }, SYMBOLS[side]),
          this.names[side],
        ),
      );
    }
    this.seats = seats;
    this.turn = h("p", { class: "tile-turn" });
    this.pausedMark = h("p", { class: "tile-paused", hidden: true }, t("Paused"));
    let board;
    if (this.room.shape) {
      this.board = createBoard(view.game, this.room.shape, () => {});
      this.board.element.inert = true; // the wall only shows
      this.board.element.classList.add("readonly");
      board = h(
        "div",
        { class: "tile-board" },
        h(
          "div",
          {
            class: "wall-frame",
            style: { "--columns": this.room.shape.columns, "--rows": this.room.shape.rows },
            // Small cells (Gomoku's 15x15 on a small tile): their marks fill them.
            dataset: { cells: this.room.shape.columns > SMALL_CELLS_FROM ? "small" : "" },
          },
          this.board.element,
        ),
      );
    } else {
      this.board = null;
      board = h("p", { class: "tile-board" }, t("({game}: reload the wall to show it)", { game: view.game }));
    }
    this.title = h("span", { class: "tile-title" });
    this.element = h(
      "article",
      { class: "tile", dataset: { room: view.code } },
      h("header", { class: "tile-head" }, this.title, h("span", { class: "tile-code" }, view.code)),
      seats,
      board,
      this.turn,
      this.pausedMark,
    );
    this.update(view, pairing);
  }

  /**
   * Draw the room as GET /api/admin/rooms shows it now. `pairing` is the
   * tournament game played in it, `{ first, second, startsBy }` (the players'
   * names, the no-show deadline in Unix seconds), or null.
   */
  update(view, pairing = null) {
    const room = this.room;
    room.apply({ type: "state", room: stateOf(view) });
    const { state } = room;
    Object.assign(this.element.dataset, {
      status: state.status,
      moves: state.moves,
      toMove: state.to_move ?? "",
      paused: state.paused ? "true" : "",
    });
    setText(this.title, t(state.title)); // a game's title: marked in shared/games
    // A tournament game not started yet: the seats are reserved for its players.
    const waiting = state.status === "waiting" && pairing?.startsBy != null;
    const absent = waiting ? SIDES.filter((side) => !room.seat(side).name) : [];
    for (const side of SIDES) {
      const seat = room.seat(side);
      setText(this.names[side], seat.name ? shownName(seat.name) : waiting ? pairing[side] : "—");
      const item = this.names[side].parentElement;
      item.classList.toggle("absent", absent.includes(side));
      item.classList.toggle("to-move", room.playing && state.to_move === side);
      item.classList.toggle("winner", state.result?.winner === side);
      item.classList.toggle("loser", state.result?.winner === otherSide(side));
    }
    this.board?.update(room);
    if (absent.length) {
      setText(this.turn, waitingText(absent.map((side) => pairing[side]), secondsLeft(pairing.startsBy)));
    } else {
      setText(this.turn, turnText(room));
    }
    // A result or a wait names players and a reason: a line more (wall.css).
    this.element.classList.toggle("long-line", state.status === "finished" || absent.length > 0);
    show(this.pausedMark, Boolean(state.paused) && state.status !== "finished");
    this.element.classList.toggle("paused", Boolean(state.paused));
  }
}

/** "Waiting for ann to sit down (12 s left)": one player or both. */
function waitingText(names, seconds) {
  return names.length === 1
    ? t("Waiting for {name} to sit down ({seconds} s left)", { name: names[0], seconds })
    : t("Waiting for {first} and {second} to sit down ({seconds} s left)", { first: names[0], second: names[1], seconds });
}

/**
 * A room of the admin API as the protocol's room state (room-state.js reads
 * that). A finished game's empty seats take the names of who played it.
 */
function stateOf(view) {
  const played = view.status === "finished" ? (view.game_players ?? {}) : {};
  return {
    code: view.code,
    game: view.game,
    title: view.title,
    status: view.status,
    public: view.public,
    seats: view.players.map((seat) => (seat.name || !played[seat.side] ? seat : { ...seat, name: played[seat.side] })),
    moves: view.moves,
    ply: view.ply ?? 0,
    to_move: view.to_move ?? null,
    board: view.board,
    board_kind: view.board_kind,
    result: view.result ?? null,
    paused: view.paused,
  };
}
