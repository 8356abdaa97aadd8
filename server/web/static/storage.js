// storage.js: what the page remembers between visits. The player's name and
// player token live in localStorage, which belongs to the browser (per server
// address): every tab and every later visit is the same player, the one the
// server made on the first visit. The resume token and the rooms being watched
// live in sessionStorage, which belongs to one tab: a reload returns to the same
// seats, while two tabs keep two sessions (of one player).

const NAME = "boardroom.name";
const PLAYER = "boardroom.playerToken";
const TOKEN = "boardroom.resumeToken";
const WATCHING = "boardroom.watching";
const SPECTATOR = "boardroom.spectator";

export const savedName = () => read(localStorage, NAME) ?? "";
export const saveName = (name) => write(localStorage, NAME, name);

/** The player token the server gave this browser (a secret: never put it in an address). */
export const savedPlayerToken = () => read(localStorage, PLAYER);
export const savePlayerToken = (token) => write(localStorage, PLAYER, token);

export const savedToken = () => read(sessionStorage, TOKEN);
export const saveToken = (token) => write(sessionStorage, TOKEN, token);

/** Rooms watched, as { roomCode: the code that let us in }. */
export function savedWatching() {
  try {
    const value = JSON.parse(read(sessionStorage, WATCHING) ?? "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}
export const saveWatching = (watching) =>
  write(sessionStorage, WATCHING, JSON.stringify(watching));

/** Whether this tab only watches (opened by the teacher's Watch link: main.js). */
export const savedSpectator = () => read(sessionStorage, SPECTATOR) === "yes";
export const saveSpectator = (spectator) => write(sessionStorage, SPECTATOR, spectator ? "yes" : null);

// Storage can throw (disabled, full, a sandboxed frame): the page then simply
// forgets, as if in a private window.
function read(storage, key) {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function write(storage, key, value) {
  try {
    if (value === null || value === undefined) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Nothing to do: see read().
  }
}
