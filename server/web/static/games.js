// games.js: the games' boards and notation (docs/engine.md). The shape of a
// game's board from its name, cell names ("b2": column letter and row number,
// a1 at the bottom left), and the stones a move string puts on the board.
// Connect Four moves are columns "1" to "7", as its board labels them, and a
// winning line is written by them too ("up column 4"); only the server names a
// line's cells as grid cells ("d1" is the bottom of column 4), for the board
// to find them. shared/games (Game.line_text) writes lines the same way.

const PRESETS = {
  tictactoe: { columns: 3, rows: 3, line: 3, gravity: false },
  tictactoe4: { columns: 4, rows: 4, line: 4, gravity: false },
  connect4: { columns: 7, rows: 6, line: 4, gravity: true },
  gomoku: { columns: 15, rows: 15, line: 5, gravity: false },
};

/** The games offered when opening a room; `mnk` asks for its sizes. */
export const GAME_CHOICES = [
  { game: "tictactoe", title: "Tic-tac-toe (3x3)" },
  { game: "tictactoe4", title: "Tic-tac-toe 4x4 (four in a row)" },
  { game: "connect4", title: "Connect Four" },
  { game: "gomoku", title: "Gomoku (15x15, five in a row)" },
  { game: "mnk", title: "m,n,k: your own board" },
];

/** Sizes the server accepts for `mnk` games. */
export const MNK_LIMITS = { sizeMin: 2, sizeMax: 19, lineMin: 2, lineMax: 7 };

/**
 * The board of a game, by the name the server gives it ("connect4",
 * "mnk-5-4-3"): { game, columns, rows, line, gravity }; null for a name this
 * page does not know (a newer server's game).
 */
export function boardShape(game) {
  const preset = PRESETS[game];
  if (preset) return { game, ...preset };
  const mnk = /^mnk-(\d+)-(\d+)-(\d+)$/.exec(game);
  if (!mnk) return null;
  const [columns, rows, line] = mnk.slice(1).map(Number);
  return { game, columns, rows, line, gravity: false };
}

/** "b2" for column 1, row 1 (both counted from 0, a1 at the bottom left). */
export function cellName(column, row) {
  return String.fromCharCode(97 + column) + String(row + 1);
}

/** { column, row } of a cell name, counted from 0; null if it is not one. */
export function parseCell(name) {
  const match = /^([a-z])(\d+)$/.exec(name.trim().toLowerCase());
  if (!match) return null;
  return { column: match[1].charCodeAt(0) - 97, row: Number(match[2]) - 1 };
}

/**
 * A winning line (the server's cell names, `result.line`) in the notation of the
 * game's board: the cells on a grid, "a1-b2-c3"; in Connect Four the columns,
 * "up column 4", "across columns 3 to 6", "diagonally across columns 1 to 4".
 */
export function lineText(shape, cellNames) {
  const cells = cellNames.map(parseCell);
  if (!shape?.gravity || !cells.length || cells.includes(null)) return cellNames.join("-");
  const columns = [...new Set(cells.map((cell) => cell.column + 1))].sort((a, b) => a - b);
  const rows = new Set(cells.map((cell) => cell.row));
  if (columns.length === 1) return `up column ${columns[0]}`;
  const span = `columns ${columns[0]} to ${columns.at(-1)}`;
  return rows.size === 1 ? `across ${span}` : `diagonally across ${span}`;
}

/**
 * The stones on a board: which side holds each cell, and the cells in the order
 * they were played. `play` takes one move in the game's notation and returns the
 * cell it filled, or null when the move does not fit (off the board, taken, a
 * full column): the copy is then out of step with the server.
 */
export class Position {
  constructor(shape) {
    this.shape = shape;
    this.stones = new Map(); // cell name -> "first" | "second"
    this.played = []; // cell names, in order
    this.heights = new Array(shape.columns).fill(0); // stones per column (gravity)
  }

  /** The position a whole move string leads to; null if it does not parse. */
  static fromMoves(shape, moves) {
    const position = new Position(shape);
    for (const move of splitMoves(shape, moves)) {
      if (position.play(move) === null) return null;
    }
    return position;
  }

  get sideToMove() {
    return this.played.length % 2 === 0 ? "first" : "second";
  }

  get lastCell() {
    return this.played.at(-1) ?? null;
  }

  /** The cell a move would fill, or null if it is not a legal move here. */
  cellOf(move) {
    const { columns, rows, gravity } = this.shape;
    if (gravity) {
      const column = Number(move) - 1;
      if (!Number.isInteger(column) || column < 0 || column >= columns) return null;
      const row = this.heights[column];
      return row < rows ? cellName(column, row) : null;
    }
    const cell = parseCell(move);
    if (!cell || cell.column >= columns || cell.row < 0 || cell.row >= rows) return null;
    const name = cellName(cell.column, cell.row);
    return this.stones.has(name) ? null : name;
  }

  play(move) {
    const cell = this.cellOf(move);
    if (cell === null) return null;
    this.stones.set(cell, this.sideToMove);
    this.played.push(cell);
    this.heights[parseCell(cell).column] += 1;
    return cell;
  }
}

/** The moves of a move string: "4453" in Connect Four, "b2 a1 c3" or "b2a1c3" on grids. */
export function splitMoves(shape, moves) {
  if (shape.gravity) return moves.replace(/[\s,;]/g, "").split("").filter(Boolean);
  return moves.toLowerCase().match(/[a-z]\d+/g) ?? [];
}
