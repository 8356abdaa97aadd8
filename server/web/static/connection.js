// connection.js: the WebSocket to the server, kept open. It says `hello` (with
// the player token, and the resume token once it has one), matches each reply
// to its request by `id`, and when the connection drops it reconnects by
// itself, waiting longer after each failed try, and resumes the session with
// the token. It knows nothing of rooms (session.js does), nor of storage: the
// page keeps what the welcome says.
//
// Events (a plain EventTarget; read `event.detail`):
//   "status"   { status, reason, retryAt }: status is "connecting", "open",
//              "reconnecting", "replaced" (another tab took the session over),
//              "refused" (the server turned the hello down: `reason` says why),
//              "removed" (by the teacher), "revoked" (this player's token was
//              revoked: it connects no more), "invalid" (a class's server does
//              not know this player token: a mistyped join link; it connects
//              no more, and nothing was made) or "closed". A hello refused as
//              `rate_limited` (too many new players from this address) or
//              `storage_unavailable` (its database is down) is said
//              again after the server's `retry_after`, longer each time:
//              "reconnecting" meanwhile, with `retryAt`.
//   "welcome"  { welcome, resumed, unknownPlayer }: greeted; `resumed` is false
//              when the server did not know the resume token (a new session:
//              earlier seats are gone); `unknownPlayer` is true when it did not
//              know the player token either, and made a new player (then, as
//              for any new player, `welcome.player_token` is its token to keep)
//   "message"  every other server message, replies included, before the
//              request's promise settles

import { t } from "./i18n.js";

const PROTOCOL_VERSION = 2; // 2: durable players (hello.player_token)

const BACKOFF_FIRST_MS = 250; // a restarting server is back within a second or two...
const BACKOFF_MAX_MS = 5000; // ...but a long outage is not hammered
const BUSY_MAX_MS = 60000; // a busy server's retry_after is honoured, but never waited past a minute
const REPLY_TIMEOUT_MS = 30000; // the server answers in milliseconds; this only stops a wait for ever
const QUIET_MS = 20000; // after this long without a word from the server, ping it...
const PONG_WAIT_MS = 10000; // ...and if nothing comes back this soon, the connection is dead
const WATCHDOG_MS = 5000;
const HELLO_ID = "hello";
const CLOSE_SESSION_REPLACED = 4000;
const CLOSE_REMOVED = 4003;
const CLOSE_TOKEN_REVOKED = 4004;

/** Close codes in words (docs/protocol.md, Close codes). */
const CLOSE_REASONS = {
  1000: t("the connection was closed"),
  1001: t("the server is shutting down"),
  1006: t("the connection was lost"),
  1009: t("a message was too large"),
  1011: t("the server had an internal error"),
  1013: t("the server is busy for now (too many connections from this address, or a restart)"),
  4000: t("this game was opened in another tab or window"),
  4001: t("the server dropped us for reading too slowly"),
  4002: t("the server dropped us for sending too many messages"),
  4003: t("the teacher removed you from the class"),
  4004: t("this player's token was revoked"),
};

/** The server refused a request: `code` is the protocol's error code. */
export class RefusedError extends Error {
  constructor(code, message, retryAfter = null) {
    super(message);
    this.name = "RefusedError";
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** No connection, or it dropped before the reply came. */
export class ConnectionLostError extends Error {
  constructor(message = t("not connected to the server: reconnecting…")) {
    super(message);
    this.name = "ConnectionLostError";
    this.code = "connection_lost";
  }
}

/** The WebSocket address of the server that served this page (`/ws` beside it). */
export function serverUrl(location = window.location) {
  const url = new URL("ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.hash = "";
  url.search = "";
  return url.href;
}

export class Connection extends EventTarget {
  constructor(url, { name, token = null, playerToken = null, client = "human" }) {
    super();
    this.url = url;
    this.name = name;
    this.client = client; // "human", or "spectator" for a tab that only watches
    this.token = token;
    this.playerToken = playerToken; // said in every hello; set by a welcome that makes a player
    this.playerId = null; // the player's public id, from the welcome
    this.unknownPlayer = false; // the server did not know playerToken: the next welcome is a new player
    this.status = "closed";
    this.reason = "";
    this.ws = null;
    this.greeted = false;
    this.nextId = 1;
    this.pending = new Map(); // id -> { resolve, reject, timer }
    this.attempts = 0;
    this.retryTimer = null;
    this.lastHeard = 0;
    this.openedAt = 0;
    this.pingSentAt = null;
    this.watchdog = null;
    this.onOnline = () => this.reconnectNow();
  }

  /** Connect, and keep connected until close(). */
  start() {
    window.addEventListener("online", this.onOnline);
    this.watchdog = setInterval(() => this.checkAlive(), WATCHDOG_MS);
    this.open("connecting");
  }

  /** Close for good (a new name, or the page going away). */
  close() {
    window.removeEventListener("online", this.onOnline);
    clearInterval(this.watchdog);
    clearTimeout(this.retryTimer);
    this.setStatus("closed", t("the connection was closed"));
    this.lost(this.ws, 1000, "closed");
  }

  /** Try again at once, without waiting for the pause to end. */
  reconnectNow() {
    if (this.status !== "reconnecting") return;
    clearTimeout(this.retryTimer);
    if (!this.ws) {
      this.open("reconnecting");
    } else if (!this.greeted && this.ws.readyState === WebSocket.OPEN) {
      // Connected, waiting out a busy server's retry_after (helloLater): ask now.
      this.openedAt = performance.now();
      this.hello(this.ws, this.token);
    }
  }

  /**
   * Send a client message with a fresh `id`; resolves to the reply, rejects with
   * RefusedError (the server's `error`) or ConnectionLostError. Nothing is queued
   * while the connection is down: the caller decides what is worth sending again.
   */
  request(message) {
    if (!this.greeted) return Promise.reject(new ConnectionLostError());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ConnectionLostError(t("no answer from the server")));
      }, REPLY_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  // -- the socket ---------------------------------------------------------------

  open(status) {
    this.setStatus(status, status === "reconnecting" ? this.reason : "");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.openedAt = performance.now();
    ws.onopen = () => this.hello(ws, this.token);
    ws.onmessage = (event) => this.receive(ws, event.data);
    ws.onclose = (event) => this.lost(ws, event.code, event.reason);
    // An error is always followed by close, which handles it.
  }

  hello(ws, token) {
    const hello = { type: "hello", name: this.name, version: PROTOCOL_VERSION, client: this.client };
    // The AI's moves come with how it searched ("How did the AI think?" under the board).
    hello.search_info = true;
    if (token) hello.resume_token = token;
    if (this.playerToken) hello.player_token = this.playerToken;
    hello.id = HELLO_ID;
    ws.send(JSON.stringify(hello));
  }

  receive(ws, data) {
    if (ws !== this.ws) return;
    this.lastHeard = performance.now();
    this.pingSentAt = null;
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return; // not JSON: nothing a client can do with it
    }
    if (!this.greeted) {
      this.greeting(ws, message);
      return;
    }
    this.dispatchEvent(new CustomEvent("message", { detail: message }));
    this.settle(message);
  }

  greeting(ws, message) {
    if (message.id !== HELLO_ID) return;
    if (message.type === "welcome") {
      const resumed = Boolean(this.token) && message.resume_token === this.token;
      const unknownPlayer = this.unknownPlayer;
      this.token = message.resume_token;
      this.name = message.name;
      this.playerId = message.player_id ?? null;
      if (message.player_token) this.playerToken = message.player_token;
      this.unknownPlayer = false;
      this.greeted = true;
      this.attempts = 0;
      this.setStatus("open");
      this.dispatchEvent(new CustomEvent("welcome", { detail: { welcome: message, resumed, unknownPlayer } }));
    } else if (message.type === "error" && message.code === "bad_player_token") {
      // The server does not know this browser's player (its database is new):
      // carry on as a new player, and say so once welcomed. No session of an
      // unknown player can be resumed: the resume token goes too.
      this.playerToken = null;
      this.token = null;
      this.unknownPlayer = true;
      this.hello(ws, null);
    } else if (message.type === "error" && message.code === "unknown_class_token") {
      // A class's server does not know this key (a mistyped join link). Saying
      // hello without it would make a new student: stop here, make nobody.
      this.playerToken = null;
      this.token = null;
      this.setStatus("invalid", message.message);
      this.lost(ws, 1000, message.message);
    } else if (message.type === "error" && ["rate_limited", "storage_unavailable"].includes(message.code)) {
      // Too many hellos from this address (a class joining at once behind one
      // school address): say hello again once the server says, a little later
      // each time, spread so that a class does not come back all at once.
      this.helloLater(ws, message);
    } else if (message.type === "error" && message.code === "player_token_revoked") {
      // Trying again would be refused again: stop here (the server closes with 4004).
      this.playerToken = null;
      this.setStatus("revoked", message.message);
      this.lost(ws, CLOSE_TOKEN_REVOKED, message.message);
    } else if (message.type === "error" && message.code === "bad_token") {
      // The server no longer knows the session (the grace window ended, or it
      // restarted without it): start a new one.
      this.token = null;
      this.hello(ws, null);
    } else if (message.type === "error") {
      // bad_name, unsupported_version...: trying again would be refused again.
      this.setStatus("refused", message.message, { code: message.code });
      this.lost(ws, 1000, message.message);
    }
  }

  /** Say hello on `ws` again after the server's `retry_after` (and the backoff). */
  helloLater(ws, refusal) {
    const asked = Math.max(0, Number(refusal.retry_after) || 0) * 1000;
    const backoff = Math.min(BACKOFF_FIRST_MS * 2 ** this.attempts, BACKOFF_MAX_MS);
    const delay = Math.min(Math.max(asked, backoff) * (1 + 0.2 * Math.random()), BUSY_MAX_MS);
    this.attempts += 1;
    this.setStatus("reconnecting", t("the server is busy: trying again shortly"), {
      retryAt: Date.now() + delay,
    });
    // The watchdog gives up on a hello unanswered for long: this one is not yet said.
    this.openedAt = performance.now() + delay;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (ws !== this.ws || this.greeted || ws.readyState !== WebSocket.OPEN) return;
      this.openedAt = performance.now();
      this.hello(ws, this.token);
    }, delay);
  }

  settle(message) {
    let waiting = this.pending.get(message.id);
    if (!waiting && message.type === "error" && message.id == null && this.pending.size) {
      // Refused before it was read (rate_limited): the oldest request waiting.
      message = { ...message, id: Math.min(...this.pending.keys()) };
      waiting = this.pending.get(message.id);
    }
    if (!waiting) return;
    this.pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.type === "error") {
      waiting.reject(new RefusedError(message.code, message.message, message.retry_after ?? null));
    } else {
      waiting.resolve(message);
    }
  }

  /** The socket `ws` is gone (closed by either side, or given up on). */
  lost(ws, code, reason) {
    if (!ws || ws !== this.ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close();
    this.ws = null;
    this.greeted = false;
    this.pingSentAt = null;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const { reject, timer } of pending) {
      clearTimeout(timer);
      reject(new ConnectionLostError(t("the connection dropped before the answer came")));
    }
    if (["closed", "refused", "replaced", "removed", "revoked", "invalid"].includes(this.status)) return;
    // While retrying, keep saying why the connection went ("the server is shutting
    // down"), not that the latest try failed.
    const why =
      this.status === "reconnecting" && this.reason
        ? this.reason
        : (CLOSE_REASONS[code] ?? (reason || t("the connection closed (code {code})", { code })));
    if (code === CLOSE_SESSION_REPLACED) {
      this.setStatus("replaced", why);
      return;
    }
    if (code === CLOSE_REMOVED) {
      // The token opens nothing any more, and trying again would only start a
      // new student behind the teacher's back: stop here.
      this.token = null;
      this.setStatus("removed", CLOSE_REASONS[CLOSE_REMOVED]);
      return;
    }
    if (code === CLOSE_TOKEN_REVOKED) {
      this.playerToken = null;
      this.setStatus("revoked", CLOSE_REASONS[CLOSE_TOKEN_REVOKED]);
      return;
    }
    const delay = Math.min(BACKOFF_FIRST_MS * 2 ** this.attempts, BACKOFF_MAX_MS);
    this.attempts += 1;
    this.setStatus("reconnecting", why, { retryAt: Date.now() + delay });
    this.retryTimer = setTimeout(() => this.open("reconnecting"), delay);
  }

  /** Ping a quiet server; give up on a connection that does not answer. */
  checkAlive() {
    const now = performance.now();
    if (!this.greeted) {
      // A connection that neither opens nor answers hello (a host gone silent, not
      // refusing) would otherwise wait for the browser's own, much longer, limit.
      if (this.ws && now - this.openedAt > PONG_WAIT_MS) this.lost(this.ws, 1006, "no answer");
      return;
    }
    if (this.pingSentAt !== null) {
      if (now - this.pingSentAt > PONG_WAIT_MS) this.lost(this.ws, 1006, "no answer from the server");
    } else if (now - this.lastHeard > QUIET_MS) {
      this.pingSentAt = now;
      this.ws.send(JSON.stringify({ type: "ping" }));
    }
  }

  setStatus(status, reason = "", extra = {}) {
    this.status = status;
    this.reason = reason;
    this.dispatchEvent(new CustomEvent("status", { detail: { status, reason, ...extra } }));
  }
}
