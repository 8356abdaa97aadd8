// forms.js: the pieces the pages' forms are made of (panels, fields, selects,
// number fields, radios, an error line), and the parts that the lobby's "New
// game" and the teacher's tournament form share: the game and, for a family of
// boards, its sizes (from GET /api/games: game-list.js), and the clock, read
// back into the protocol's fields.

import { h, show } from "./dom.js";
import { DEFAULT_GAME, gameNamed, gameOptions, GAMES, isFamily, startingSizes } from "./game-list.js";
import { t } from "./i18n.js";
import { GAMES_UNAVAILABLE, sizeLabel } from "./words.js";

/** A section with a heading: the page's unit of layout. */
export function panel(name, title, ...content) {
  const id = `${name}-title`;
  return h("section", { class: "panel", "aria-labelledby": id }, h("h2", { id }, title), content);
}

/** Where a form says why it was refused (hidden until then). */
export function formError() {
  return h("p", { class: "form-error", role: "alert", hidden: true });
}

/** A labelled control, the label above it. */
export function field(label, control) {
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control);
}

/** A select named `name` with `options` as [value, text] pairs. */
export function select(name, id, options, selected = null) {
  return h(
    "select",
    { name, id },
    options.map(([value, text]) => h("option", { value, selected: value === selected }, text)),
  );
}

export function numberField(name, label, value, min, max, step = 1, { required = true } = {}) {
  const id = `field-${name}`;
  const input = h("input", { type: "number", name, id, value, min, max, step, required });
  return h("span", { class: "number-field" }, h("label", { for: id }, label), input);
}

export function radio(name, value, label, checked) {
  const input = h("input", { type: "radio", name, value, checked });
  return h("label", { class: "check" }, input, ` ${label}`);
}

/** Hide and disable a fieldset that does not apply (a disabled field is not validated). */
export function toggleFieldset(fieldset, on) {
  show(fieldset, on);
  fieldset.disabled = !on;
}

/**
 * The game's select (`name` "game"), every game the server lists, and one
 * fieldset of sizes per family of boards, shown while it is chosen (the m,n,k
 * board's columns, rows and line). `sync(values)` shows the sizes that apply.
 * It starts on the server's default game unless told `selected`.
 */
export function gameFields(id, { families = true, selected = DEFAULT_GAME } = {}) {
  const options = gameOptions({ families });
  const choice = field(t("Game"), select("game", id, options, selected));
  if (!options.length) choice.append(h("p", { class: "form-error", role: "alert" }, GAMES_UNAVAILABLE));
  const sizes = (families ? GAMES.filter(isFamily) : []).map((family) => {
    const start = startingSizes(family);
    const fields = family.sizes.map((size) =>
      numberField(size.name, sizeLabel(size), start[size.name], size.min, size.max),
    );
    return h("fieldset", { class: "sizes", dataset: { family: family.name } }, h("legend", {}, t("Board")), fields);
  });
  const sync = (values) => {
    for (const fieldset of sizes) toggleFieldset(fieldset, values.game === fieldset.dataset.family);
  };
  return { elements: [choice, ...sizes], sync };
}

/** The sizes of a family's board from a form's values ({ m, n, k }); null for a single game. */
export function familySizes(values) {
  const game = gameNamed(values.game);
  if (!isFamily(game)) return null;
  return Object.fromEntries(game.sizes.map((size) => [size.name, Number(values[size.name])]));
}

/** The clock's choice (field `clock`) and its settings, each shown when chosen. */
export function clockFields(id) {
  const choice = field(
    t("Clock"),
    select("clock", id, [
      ["none", t("No clock")],
      ["per_move", t("Time per move")],
      ["increment", t("Time per game, plus a bonus a move")],
    ]),
  );
  const perMove = h("fieldset", { class: "clock-fields" }, numberField("per_move", t("Seconds a move"), 30, 1, 3600));
  const increment = h(
    "fieldset",
    { class: "clock-fields" },
    numberField("minutes", t("Minutes"), 5, 0.5, 600, 0.5),
    numberField("increment", t("+ seconds a move"), 3, 0, 3600),
  );
  const sync = (values) => {
    toggleFieldset(perMove, values.clock === "per_move");
    toggleFieldset(increment, values.clock === "increment");
  };
  return { elements: [choice, perMove, increment], sync };
}

/** The protocol's Clock from a form's values (clockFields), or null for none. */
export function clockFromValues(values) {
  if (values.clock === "per_move") return { kind: "per_move", per_move: Number(values.per_move) };
  if (values.clock === "increment") {
    return { kind: "increment", initial: Number(values.minutes) * 60, increment: Number(values.increment) };
  }
  return null;
}
