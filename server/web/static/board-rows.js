// board-rows.js: the board as the server says it (docs/protocol.md, "The board"):
// rows top first, "X" a first player's stone, "O" a second player's, "." empty;
// and how a board's kind names places on it: a "cells" board by column letter
// and row number ("b2", a1 at the bottom left), a "columns" board by column
// number ("4"). The page keeps no rules: what is on the board and which moves
// are legal come from the server; this module only reads them.

const SIDE_OF = { X: "first", O: "second" };

/** The board's shape: { kind, columns, rows }; null when the server said no board. */
export function shapeOf(rows, kind) {
  if (!Array.isArray(rows) || !rows.length) return null;
  return { kind: kind === "columns" ? "columns" : "cells", columns: rows[0].length, rows: rows.length };
}

/** "b2" for column 1, row 1 (both counted from 0, a1 at the bottom left). */
export function cellName(column, row) {
  return String.fromCharCode(97 + column) + String(row + 1);
}

/** { column, row } of a cell name, counted from 0; null if it is not one. */
export function parseCell(name) {
  const match = /^([a-z])(\d+)$/.exec(String(name).trim().toLowerCase());
  if (!match) return null;
  return { column: match[1].charCodeAt(0) - 97, row: Number(match[2]) - 1 };
}

/** The stones on `rows`: cell name -> "first" | "second" (empty cells left out). */
export function stonesOf(rows) {
  const stones = new Map();
  (rows ?? []).forEach((line, index) => {
    const row = rows.length - 1 - index; // the server's rows are top first
    [...line].forEach((mark, column) => {
      if (SIDE_OF[mark]) stones.set(cellName(column, row), SIDE_OF[mark]);
    });
  });
  return stones;
}

/** The last move of a move string as the server writes it: "3" of "4453", "a1" of "b2 a1". */
export function lastMove(kind, moves) {
  const text = (moves ?? "").trim();
  if (!text) return null;
  return kind === "columns" ? text.at(-1) : text.split(/\s+/).at(-1);
}

/** The move played at `ply` (from 0) in `moves`, the server's move string; null if none yet. */
export function moveAt(kind, moves, ply) {
  const text = (moves ?? "").trim();
  if (!text) return null;
  return (kind === "columns" ? [...text] : text.split(/\s+/))[ply] ?? null;
}

/** `moves` with `move` added, as the server writes a move string. */
export function appendMove(kind, moves, move) {
  if (!moves) return move;
  return kind === "columns" ? moves + move : `${moves} ${move}`;
}
