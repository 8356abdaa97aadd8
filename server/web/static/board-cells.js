// board-cells.js: a board of kind "cells", where a move names a cell: one
// button per cell, named by its coordinates ("b2"), with the row numbers down
// the left and the column letters along the bottom, a1 at the bottom left.
// Arrow keys move between cells; Enter or Space plays the cell in focus. It
// draws what the server says (board-rows.js): the stones, and which cells are
// legal moves.

import { cellName, parseCell } from "./board-rows.js";
import { h, setText } from "./dom.js";
import { t } from "./i18n.js";
import { SYMBOLS } from "./room-state.js";

export class CellsBoard {
  /** `onMove(move)` is called with the cell a player chose ("b2"). */
  constructor(shape, onMove) {
    this.shape = shape;
    this.cells = new Map(); // cell name -> button
    const { columns, rows } = shape;
    this.focused = cellName(Math.floor((columns - 1) / 2), Math.floor((rows - 1) / 2));
    const lastColumn = String.fromCharCode(96 + columns);
    this.element = h("div", {
      class: "board grid-board",
      role: "group",
      "aria-label": t("Board: columns a to {last}, rows 1 to {rows}, a1 at the bottom left", { last: lastColumn, rows }),
      style: { "--columns": columns, "--rows": rows },
      onkeydown: (event) => this.key(event),
      onfocusin: (event) => this.focusMoved(event),
    });
    // Row numbers | the cells, then a corner | the column letters. The cells sit in
    // a grid of their own whose 1px gaps draw the lines; the labels' grids use the
    // same gaps so that each label lines up with its row or column.
    const rowLabels = h("div", { class: "row-labels", "aria-hidden": "true" });
    const cells = h("div", { class: "cells" });
    const columnLabels = h("div", { class: "column-labels", "aria-hidden": "true" });
    for (let row = rows - 1; row >= 0; row -= 1) {
      rowLabels.append(h("span", { class: "label" }, String(row + 1)));
      for (let column = 0; column < columns; column += 1) {
        const name = cellName(column, row);
        const cell = h("button", {
          type: "button",
          class: "cell",
          tabindex: name === this.focused ? "0" : "-1",
          dataset: { cell: name },
          onclick: () => onMove(name),
        });
        this.cells.set(name, cell);
        cells.append(cell);
      }
    }
    for (let column = 0; column < columns; column += 1) {
      columnLabels.append(h("span", { class: "label" }, String.fromCharCode(97 + column)));
    }
    this.element.append(rowLabels, cells, h("span", { class: "corner" }), columnLabels);
  }

  /**
   * Draw a position (a Room of room-state.js, or a review's step): `stones`
   * (cell name -> side), `lastMove`, `winningCells`, `hintMove`, and
   * `allows(move)`, whether this page's player may play a cell now.
   */
  update(room) {
    const stones = room.stones;
    const last = room.lastMove;
    const winning = new Set(room.winningCells);
    const hint = room.hintMove ?? null;
    this.element.classList.toggle("has-line", winning.size > 0);
    for (const [name, cell] of this.cells) {
      const side = stones.get(name);
      const classes = ["cell"];
      if (side) classes.push(side);
      if (name === last) classes.push("last");
      if (winning.has(name)) classes.push("win");
      if (name === hint) classes.push("hint");
      cell.className = classes.join(" ");
      setText(cell, side ? SYMBOLS[side] : "");
      const parts = [name, side ? SYMBOLS[side] : t("empty")];
      if (name === last) parts.push(t("last move"));
      if (winning.has(name)) parts.push(t("winning line"));
      if (name === hint) parts.push(t("the hint"));
      const label = parts.join(", ");
      cell.setAttribute("aria-label", label);
      cell.setAttribute("aria-disabled", String(!room.allows(name)));
    }
  }

  /** Whether `move` names a place on this board (a cell), not another kind of move. */
  hasPlace(move) {
    return this.cells.has(move);
  }

  focus() {
    this.cells.get(this.focused)?.focus();
  }

  focusMoved(event) {
    const name = event.target.dataset?.cell;
    if (!name || name === this.focused) return;
    this.cells.get(this.focused)?.setAttribute("tabindex", "-1");
    event.target.setAttribute("tabindex", "0");
    this.focused = name;
  }

  key(event) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    const { column, row } = parseCell(this.focused);
    const next = cellName(
      Math.min(this.shape.columns - 1, Math.max(0, column + step[0])),
      Math.min(this.shape.rows - 1, Math.max(0, row + step[1])),
    );
    this.cells.get(next).focus();
  }
}
