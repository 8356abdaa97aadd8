// board.js: the board for a room's game, by kind: Connect Four's columns, or a
// grid of cells for every other game. Both draw a Room (room-state.js) through
// update(room), send a chosen move through onMove, and take focus().

import { ColumnsBoard } from "./connect4-board.js";
import { GridBoard } from "./grid-board.js";

export function createBoard(shape, onMove) {
  return shape.gravity ? new ColumnsBoard(shape, onMove) : new GridBoard(shape, onMove);
}
