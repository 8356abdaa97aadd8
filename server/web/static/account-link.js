// account-link.js: the join link of a class account, `#/account/TOKEN?name=NAME`,
// as the teacher's sheet prints it (one per student, docs/classroom.md). Opening
// it makes this browser that student: main.js keeps the token and the name
// (storage.js) and takes the link out of the address at once, so that the secret
// is not left in the address bar, the history or a screenshot.

import { t } from "./i18n.js";

const ROUTE = /^#\/?account(?:\/|$)/; // the route, whatever follows it
const LINK = /^#\/?account\/([^?#]*)(?:\?(.*))?$/;
const PLAYER_TOKEN = /^bp_[A-Za-z0-9_-]{43}$/; // the server's shape (server/core/players.py)

/**
 * Read the address's fragment `hash` (as `location.hash` gives it) as a join link.
 *
 * Returns:
 * - `null` when `hash` is not a join link at all (the lobby, a room, a join code):
 *   nothing for the caller to do;
 * - `{ token, name }` for a usable link: `token` is a player token (`bp_` and 43
 *   URL-safe characters), `name` the `name` parameter percent-decoded and trimmed
 *   ("" when the link has none, or an empty one);
 * - `{ error }` for a join link that cannot be used (no player token in it, a name
 *   that does not decode): `error` says why, in words for the student; the caller
 *   keeps nothing of it.
 *
 * Pure: reads nothing but `hash`, never throws.
 */
export function parseAccountLink(hash) {
  if (!ROUTE.test(hash ?? "")) return null;
  const broken = {
    error: t(
      "This join link is incomplete: it holds no student's key. Copy it again in full from the teacher's sheet.",
    ),
  };
  const [, rawToken = "", query = ""] = LINK.exec(hash) ?? [];
  let token;
  try {
    token = decodeURIComponent(rawToken).trim();
  } catch {
    return broken;
  }
  if (!PLAYER_TOKEN.test(token)) return broken;
  let name;
  try {
    // URLSearchParams reads "+" as a space, as a form would write it.
    name = (new URLSearchParams(query).get("name") ?? "").trim();
  } catch {
    return broken;
  }
  return { token, name };
}
