// teacher-api.js: the admin API (docs/operations.md, "Class mode") as the
// teacher's page and the wall call it: the token comes from the page's address
// (`#token=...`, which browsers never send to the server) and goes with every
// request as `Authorization: Bearer`. The page takes it out of the address at
// once (takeToken), as a student's join link is: it is kept in this tab's
// sessionStorage, so that a reload still works while the address bar, the
// history and a screenshot of the projector hold no token. Answers are JSON; a
// refusal rejects with ApiError, carrying the API's error code and message.

import { language, N_, t } from "./i18n.js";

const KEPT_TOKEN = "boardroom.teacherToken";

/**
 * The teacher's token for this page: the address's (`#token=TOKEN`), which is
 * then kept in this tab and taken out of the address at once (the fragment's
 * other parameters stay: the wall's `finished=`), or else the one this tab kept
 * (a reload); "" when there is neither.
 */
export function takeToken() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const given = params.get("token")?.trim() ?? "";
  if (!given) return keptToken();
  params.delete("token");
  const rest = params.toString();
  // replaceState: the entry with the token is replaced, not left in the history.
  history.replaceState(history.state, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
  try {
    sessionStorage.setItem(KEPT_TOKEN, given);
  } catch {
    // Storage refused (a private window's quota): this visit works, a reload asks for the link.
  }
  return given;
}

function keptToken() {
  try {
    return sessionStorage.getItem(KEPT_TOKEN) ?? "";
  } catch {
    return "";
  }
}

/** The API refused, or could not be reached (`code` "network", `status` 0). */
export class ApiError extends Error {
  constructor(status, code, message, body = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.body = body; // the API's whole answer (`problems` of bad_names), or null
  }

  /** The token is missing or wrong: nothing the page does can work. */
  get unauthorized() {
    return this.status === 401;
  }
}

export class AdminApi {
  constructor(token) {
    this.token = token;
  }

  /** GET `path`; resolves to the JSON answer. Works for the public API too. */
  get(path) {
    return this.call("GET", path);
  }

  /** POST `path` with `body` as JSON (none if null); resolves to the JSON answer. */
  post(path, body = null) {
    return this.call("POST", path, body);
  }

  async call(method, path, body = null) {
    const response = await this.fetch(method, path, body);
    return response.json();
  }

  /**
   * Fetch an export and save it as `fileName`. A plain link cannot send the
   * token, so the file is fetched with it and handed to the browser as a Blob.
   */
  async download(path, fileName) {
    const response = await this.fetch("GET", path);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    // The browser has taken the file once the click is handled.
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  /** The response to a request; ApiError unless it answered 2xx. */
  async fetch(method, path, body = null) {
    const headers = { Authorization: `Bearer ${this.token}` };
    const init = { method, headers, cache: "no-store" };
    if (body !== null) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch {
      throw new ApiError(0, "network", t("the server did not answer: is it running?"));
    }
    if (response.ok) return response;
    let error = null;
    try {
      error = await response.json();
    } catch {
      // Not the API's JSON (a route that does not exist answers plain text).
    }
    const code = error?.error ?? (response.status === 404 ? "not_found" : "http_error");
    const message =
      error?.message ??
      t("the server answered {status} {reason}", { status: response.status, reason: response.statusText });
    throw new ApiError(response.status, code, message, error);
  }
}

/**
 * The admin API's refusals whose code says it all, in words for people of
 * another language than English (in English the server's own message is
 * shown: it can say more, "name is 33 characters long"). Those that name a
 * field or a value (`invalid_field`, a tournament's `unknown_game`) keep the
 * server's English message: the code alone does not say which.
 */
const ERROR_WORDS = {
  class_mode_off: N_("This server runs without a class."),
  unauthorized: N_("The token in this link is not the teacher's token."),
  malformed_json: N_("The server could not read the request: reload the page and try again."),
  bad_name: N_("That name cannot be used: choose 1 to 32 letters, digits, spaces or punctuation."),
  unknown_student: N_("That student is no longer on the roster."),
  unknown_room: N_("That room is closed already."),
  unknown_tournament: N_("That tournament no longer exists."),
  tournament_running: N_("A tournament is running already: one at a time."),
  tournament_over: N_("The tournament is over: it cannot be cancelled."),
  unknown_player: N_("That player is unknown to the server."),
  already_revoked: N_("That token was revoked already."),
  merge_refused: N_("Both play in the running tournament: they cannot be merged until it ends."),
  rate_limited: N_("Too fast: wait a moment and try again"),
};

/** An API refusal in words for people, capitalised. */
export function errorText(error) {
  const words = ERROR_WORDS[error?.code];
  if (words && language() !== "en") return t(words);
  const message = error?.message || t("something went wrong");
  return message.charAt(0).toUpperCase() + message.slice(1);
}
