// game-list.js: the games this server plays, as GET /api/games lists them (the
// server's game registry, docs/protocol.md "HTTP"), in menu order: fetched once,
// when this module loads, so that every form lists the same games and the page
// names none itself. A family of boards (m,n,k) has `sizes`: the fields a room
// of it asks for ({ name, meaning, min, max }), which the forms offer. The
// list's `default` is the game a form starts on (the registry's default game). Its
// titles, summaries and move help are English, marked for the catalogue where the
// games are declared (shared/games/*.py): the page shows them with t().

import { t } from "./i18n.js";

const LIST = await loadGames();

/** Every game: { name, title, summary, board, moves_help, sizes, ... }; empty if the list could not be had. */
export const GAMES = LIST.games;

/** The name of the game a form starts on: the server's default, else the first listed; null if none. */
export const DEFAULT_GAME = GAMES.some((game) => game.name === LIST.default)
  ? LIST.default
  : (GAMES[0]?.name ?? null);

async function loadGames() {
  try {
    const response = await fetch("/api/games");
    if (!response.ok) return { games: [] };
    const body = await response.json();
    return { games: Array.isArray(body.games) ? body.games : [], default: body.default };
  } catch {
    return { games: [] }; // the server is not answering: the forms say so when used
  }
}

/** Whether `game` is a family of boards, whose sizes a form asks for. */
export function isFamily(game) {
  return Boolean(game?.sizes?.length);
}

/** The game named `name` in the list; null if there is none. */
export function gameNamed(name) {
  return GAMES.find((game) => game.name === name) ?? null;
}

/** [value, text] pairs for a game select: every game, or only single games (a quick match takes no sizes). */
export function gameOptions({ families = true } = {}) {
  return GAMES.filter((game) => families || !isFamily(game)).map((game) => [game.name, t(game.title)]);
}

/** The sizes a family's board starts at in a form: its example board's ("mnk-5-5-4"), else the least. */
export function startingSizes(family) {
  const example = String(family.example ?? "").split("-").slice(1).map(Number);
  return Object.fromEntries(
    family.sizes.map((size, index) => {
      const value = example[index];
      return [size.name, Number.isInteger(value) && value >= size.min && value <= size.max ? value : size.min];
    }),
  );
}
