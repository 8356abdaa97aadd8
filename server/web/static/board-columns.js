// board-columns.js: a board of kind "columns", where a move names a column and
// the disc falls: one button per column, each holding its discs (the bottom row
// is row 1), numbered from 1 below as moves are named. Clicking a column drops
// a disc in it; on the keyboard, the arrow keys move between columns, Enter or
// Space drops, and the digit keys drop at once. It draws what the server says
// (board-rows.js): the discs, and which columns are legal moves.

import { cellName } from "./board-rows.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { SYMBOLS } from "./room-state.js";

export class ColumnsBoard {
  /** `onMove(move)` is called with the column a player chose ("4"). */
  constructor(shape, onMove) {
    this.shape = shape;
    this.onMove = onMove;
    this.columns = []; // buttons, left to right
    this.discs = []; // discs[column][row], row 0 at the bottom
    this.focused = Math.floor(shape.columns / 2);
    this.element = h("div", {
      class: "board columns-board",
      role: "group",
      "aria-label": t("Board: columns 1 to {columns}; a disc falls to the lowest free row", { columns: shape.columns }),
      style: { "--columns": shape.columns, "--rows": shape.rows },
      onkeydown: (event) => this.key(event),
      onfocusin: (event) => this.focusMoved(event),
    });
    for (let column = 0; column < shape.columns; column += 1) {
      const discs = [];
      const button = h("button", {
        type: "button",
        class: "column",
        tabindex: column === this.focused ? "0" : "-1",
        dataset: { column: String(column + 1) },
        onclick: () => onMove(String(column + 1)),
      });
      for (let row = shape.rows - 1; row >= 0; row -= 1) {
        const disc = h("span", { class: "disc", dataset: { cell: cellName(column, row) } });
        discs[row] = disc;
        button.append(disc);
      }
      this.columns.push(button);
      this.discs.push(discs);
      this.element.append(button);
    }
    for (let column = 0; column < shape.columns; column += 1) {
      const label = h("span", { class: "label", "aria-hidden": "true" }, String(column + 1));
      this.element.append(label);
    }
  }

  /** Draw a position: as board-cells.js's update, with moves naming columns ("4"). */
  update(room) {
    const stones = room.stones;
    // The last move names a column: its disc is the top one there.
    const last = this.topDisc(stones, Number(room.lastMove) - 1);
    const winning = new Set(room.winningCells);
    const hint = room.hintMove ?? null;
    this.element.classList.toggle("has-line", winning.size > 0);
    this.columns.forEach((button, column) => {
      const held = [];
      let lastHere = false;
      let winHere = false;
      this.discs[column].forEach((disc, row) => {
        const name = cellName(column, row);
        const side = stones.get(name);
        const classes = ["disc"];
        if (side) {
          classes.push(side);
          held.push(SYMBOLS[side]);
        }
        if (name === last) {
          classes.push("last");
          lastHere = true;
        }
        if (winning.has(name)) {
          classes.push("win");
          winHere = true;
        }
        disc.className = classes.join(" ");
      });
      const free = this.shape.rows - held.length;
      const parts = [];
      if (held.length) parts.push(t("{discs} from the bottom", { discs: held.join(" ") }));
      parts.push(free ? tn("{n} free", "{n} free", free) : t("full"));
      if (lastHere) parts.push(t("last move"));
      if (winHere) parts.push(t("winning line"));
      const hinted = hint === String(column + 1);
      if (hinted) parts.push(t("the hint"));
      const label = t("Column {column}: {what}", { column: column + 1, what: parts.join(", ") });
      button.setAttribute("aria-label", label);
      button.classList.toggle("hint", hinted);
      button.setAttribute("aria-disabled", String(!room.allows(String(column + 1))));
      button.classList.toggle("full", free === 0);
    });
  }

  /** Whether `move` names a place on this board (a column), not another kind of move. */
  hasPlace(move) {
    return /^\d+$/.test(move) && Number(move) >= 1 && Number(move) <= this.shape.columns;
  }

  /** The cell name of the top disc in `column` (from 0); null if it has none. */
  topDisc(stones, column) {
    if (!(column >= 0 && column < this.shape.columns)) return null;
    for (let row = this.shape.rows - 1; row >= 0; row -= 1) {
      if (stones.has(cellName(column, row))) return cellName(column, row);
    }
    return null;
  }

  focus() {
    this.columns[this.focused]?.focus();
  }

  focusMoved(event) {
    const column = Number(event.target.dataset?.column) - 1;
    if (!(column >= 0) || column === this.focused) return;
    this.columns[this.focused].setAttribute("tabindex", "-1");
    event.target.setAttribute("tabindex", "0");
    this.focused = column;
  }

  key(event) {
    if (/^[1-9]$/.test(event.key) && Number(event.key) <= this.shape.columns) {
      event.preventDefault();
      this.onMove(event.key);
      return;
    }
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const next = Math.min(this.shape.columns - 1, Math.max(0, this.focused + step));
    this.columns[next].focus();
  }
}
