// look-othello.js: Othello's look (board.js draws a game with its look-NAME.js):
// the cells board (board-cells.js), on green felt, with black discs for the
// first player and white for the second; its own style sheet, look-othello.css,
// is added to the page with the first board. A pass (when it is the only legal
// move) is offered by the room's move buttons, as any move that names no cell.

import { CellsBoard } from "./board-cells.js";
import { h } from "./dom.js";

// This module's name ("look-" and the game's) is the board's class, and its
// style sheet is the file of that name beside it (NAME.css for NAME.js).
const PATH = new URL(import.meta.url).pathname;
const LOOK = PATH.split("/").at(-1).replace(/\.js$/, "");
const SHEET = PATH.replace(/\.js$/, ".css");

export class Board extends CellsBoard {
  constructor(shape, onMove) {
    super(shape, onMove);
    this.element.classList.add(LOOK);
    /** The look's class, which the room view puts on the whole room too, so
     * that its badges and marks take the discs' colours (look-othello.css). */
    this.look = LOOK;
    if (!document.querySelector(`link[href="${SHEET}"]`)) {
      document.head.append(h("link", { rel: "stylesheet", href: SHEET }));
    }
  }
}
