// board.js: the board for a game, by the look the server's files offer for it
// or by its kind. A game with a look of its own has a module `look-NAME.js`
// (NAME the game's name, as the server gives it) exporting `Board`; the server
// lists those modules in looks.js (server/web/routes.py). Every other game is
// drawn by its board's kind: cells (board-cells.js) or columns
// (board-columns.js). Every board takes (shape, onMove) and has `element`,
// update(position) and focus() (board-cells.js says what `update` reads).

import { ColumnsBoard } from "./board-columns.js";
import { CellsBoard } from "./board-cells.js";
import { LOOKS } from "./looks.js";

const BY_KIND = { cells: CellsBoard, columns: ColumnsBoard };

// Loaded once, with this module: a look is a few lines, and a board is drawn at once.
const LOOK_BOARDS = Object.fromEntries(
  await Promise.all(LOOKS.map(async (name) => [name, (await import(`./look-${name}.js`)).Board])),
);

/** The board of `game` (its name), of `shape` ({ kind, columns, rows }: board-rows.js shapeOf). */
export function createBoard(game, shape, onMove) {
  const Board = LOOK_BOARDS[game] ?? BY_KIND[shape.kind];
  return new Board(shape, onMove);
}
