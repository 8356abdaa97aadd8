// clocks.js: clock readings for people (m:ss) and the ticker that redraws running
// clocks a few times a second. The times themselves come from room-state.js,
// which counts down locally from the server's last figures.

import { formatNumber, t } from "./i18n.js";

/** A figure as the page's language writes it (1,5 in Spanish), without grouping (3600 s). */
const plain = (value) => formatNumber(value, { useGrouping: false });

const TICK_MS = 200;
export const LOW_TIME_MS = 10000; // a clock under this is shown in alarm colours

/** A reading as m:ss (h:mm:ss from an hour up), rounded down to the second. */
export function formatClock(ms) {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  return `${minutes}:${seconds}`;
}

/** A room's clock setting in words: "5 min + 3 s", "30 s a move" or "". */
export function clockSetting(clock) {
  if (!clock || !clock.kind || clock.kind === "none") return "";
  if (clock.kind === "per_move") return t("{seconds} s a move", { seconds: plain(clock.per_move) });
  const initial = clock.initial % 60 === 0 ? `${plain(clock.initial / 60)} min` : `${plain(clock.initial)} s`;
  return clock.increment ? `${initial} + ${plain(clock.increment)} s` : initial;
}

/** Call `redraw` every 200 ms until the returned function is called. */
export function startTicking(redraw) {
  const timer = setInterval(redraw, TICK_MS);
  return () => clearInterval(timer);
}
