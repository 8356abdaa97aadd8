// look-othello.js: Othello's look (board.js draws a game with its look-NAME.js):
// the cells board (board-cells.js), on green felt, with black discs for the
// first player and white for the second; its own style sheet, look-othello.css,
// is added to the page with the first board. A pass (when it is the only legal
// move) is offered by the room's move buttons, as any move that names no cell.

import { CellsBoard } from "./board-cells.js";
import { h } from "./dom.js";

const SHEET = "/static/look-othello.css";

export class Board extends CellsBoard {
  constructor(shape, onMove) {
    super(shape, onMove);
    this.element.classList.add("othello-board");
    if (!document.querySelector(`link[href="${SHEET}"]`)) {
      document.head.append(h("link", { rel: "stylesheet", href: SHEET }));
    }
  }
}
