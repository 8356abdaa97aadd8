// side-mark.js: a side's symbol (X or O) within a line of text, in the side's
// colour (style.css `.side-mark`: the same colour as its discs and badges), for
// the lists that name players by side.

import { h } from "./dom.js";
import { SYMBOLS } from "./room-state.js";

/** X or O, coloured as `side` ("first" or "second") is everywhere. */
export function sideMark(side) {
  return h("span", { class: `side-mark ${side}` }, SYMBOLS[side]);
}
