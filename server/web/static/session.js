// session.js: one player's session with the server: the rooms this tab sits in
// or watches, kept current from every server message (room-state.js), and what
// a reconnection needs (the browser twin of client/session.py). After a drop,
// seats the server did not give back are dropped with a notice, and watched
// rooms are watched again with the code that first let us in (the server keeps
// no spectators across a drop). The watched codes live in sessionStorage, so a
// reload watches them again too.
//
// Events (read `event.detail`):
//   "room"    { code, message, before }: a room changed (`before`: its state until
//             then, if it was known; the code is gone from `rooms` when left or
//             closed: `message` is then the `left` or `room_closed`)
//   "notice"  { text, key? }: something the player should read (one with a key
//             replaces the last with that key)
//   "ready"   greeted, and every room it had is back or known lost
//   "announcement"  { text }: the teacher's message to everyone (class mode)
//   "match"   the server's `match` message: a tournament game is ready for this
//             player (class mode; docs/protocol.md). It comes again after each
//             welcome until that game starts.

import { t } from "./i18n.js";
import { Room } from "./room-state.js";
import { savePlayerToken, saveToken, saveWatching, savedWatching } from "./storage.js";
import { closedText, eventText, gameTitle } from "./words.js";

const ROOM_EVENTS = new Set([
  "moved",
  "game_over",
  "player_status",
  "draw_offered",
  "draw_declined",
  "rematch_offered",
]);

const SAVING_WAIT_MAX_MS = 60000; // the server's retry_after is honoured, but never waited past a minute
const SAVING_RETRY_FOR_MS = 600000; // the server's storage_outage_limit: it keeps the room this long

export class Session extends EventTarget {
  constructor(connection) {
    super();
    this.connection = connection;
    /** Rooms by room code. */
    this.rooms = new Map();
    /** The last `match` for each tournament room, by room code: its opponent and deadline. */
    this.matches = new Map();
    /** Rooms watched: room code -> the code that let us in. */
    this.watching = savedWatching();
    this.ready = false;
    connection.addEventListener("welcome", (event) => this.welcomed(event.detail));
    connection.addEventListener("message", (event) => this.receive(event.detail));
    connection.addEventListener("status", (event) => {
      if (event.detail.status !== "open") this.ready = false;
    });
  }

  get name() {
    return this.connection.name;
  }

  /** Send a client message; resolves to the reply (see Connection.request). A
   * request refused as `storage_unavailable` (the server cannot save for now: it
   * changed nothing) is sent again after the server's `retry_after`, a little
   * longer each time, for as long as the server keeps a room it cannot save, with
   * a notice before each wait (as client/session.py does). */
  async request(message) {
    const started = Date.now();
    let reply;
    for (let waits = 0; ; waits += 1) {
      try {
        reply = await this.connection.request(message);
        break;
      } catch (refusal) {
        if (refusal?.code !== "storage_unavailable") throw refusal;
        const asked = Math.max(0, Number(refusal.retryAfter) || 1) * 1000;
        const delay = Math.min(asked * (1 + 0.5 * waits) * (1 + 0.2 * Math.random()), SAVING_WAIT_MAX_MS);
        if (Date.now() + delay - started > SAVING_RETRY_FOR_MS) throw refusal;
        const seconds = Math.ceil(delay / 1000);
        const text = t("Saving is paused on the server: trying again in {seconds} s.", { seconds });
        this.dispatchEvent(new CustomEvent("notice", { detail: { text, key: "saving" } }));
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    if (message.type === "watch" && reply.type === "state") {
      this.watching[reply.room.code] = message.code;
      saveWatching(this.watching);
    } else if (message.type === "create_room" && message.ai_match && reply.type === "state") {
      // The creator of an AI match watches it: after a drop it is watched again
      // like any other room (a private match by its watch code, which state gives).
      this.watching[reply.room.code] = reply.room.watch_code ?? reply.room.code;
      saveWatching(this.watching);
    }
    return reply;
  }

  /** Rooms this tab sits in, then rooms it watches, each oldest first. */
  get seatedFirst() {
    const rooms = [...this.rooms.values()];
    return [...rooms.filter((room) => room.you !== null), ...rooms.filter((room) => room.you === null)];
  }

  // -- after hello --------------------------------------------------------------

  async welcomed({ welcome, resumed, unknownPlayer }) {
    saveToken(welcome.resume_token);
    // A new player's token comes in this one welcome only: keep it for every tab
    // and every later visit; but not a spectator's, who is nobody to come back as.
    if (welcome.player_token && this.connection.client !== "spectator") savePlayerToken(welcome.player_token);
    if (unknownPlayer) {
      const text = t("The server did not know the player this browser kept: you play as a new player");
      this.dispatchEvent(new CustomEvent("notice", { detail: { text } }));
    }
    const kept = new Set(resumed ? (welcome.resumed_rooms ?? []) : []);
    for (const room of [...this.rooms.values()]) {
      if (room.you !== null && !kept.has(room.code)) {
        this.forget(room.code, t("Your seat in room {code} was not kept: you were away too long", { code: room.code }));
      }
    }
    try {
      // The states of the rooms given back follow the welcome. The server answers
      // a connection in order, so the ping's answer comes after all of them.
      await this.connection.request({ type: "ping" });
      for (const [room, code] of Object.entries(this.watching)) await this.watchAgain(room, code);
    } catch {
      return; // dropped again: the next welcome starts over
    }
    this.ready = true;
    this.dispatchEvent(new CustomEvent("ready"));
  }

  async watchAgain(room, code) {
    try {
      await this.request({ type: "watch", code });
    } catch (error) {
      if (error.code === "connection_lost") throw error;
      this.forget(room, t("Room {code} is no longer open to watch", { code: room }));
    }
  }

  forget(code, notice, message = { type: "left", room: code }) {
    this.rooms.delete(code);
    delete this.watching[code];
    saveWatching(this.watching);
    this.changed(code, message);
    if (notice) this.dispatchEvent(new CustomEvent("notice", { detail: { text: notice } }));
  }

  // -- incoming -----------------------------------------------------------------

  receive(message) {
    if (message.type === "state") {
      const code = message.room.code;
      const room = this.rooms.get(code);
      const before = room?.state ?? null;
      if (room) {
        room.apply(message);
        this.log(room, eventText(room, message, before));
      } else {
        this.rooms.set(code, new Room(message.room));
      }
      this.changed(code, message, before);
    } else if (message.type === "left") {
      this.forget(message.room, null);
    } else if (message.type === "room_closed") {
      const room = this.rooms.get(message.room);
      if (!room) return;
      // The reason says who closed it and why (the teacher, a no-show, a cancelled
      // tournament): worded from its code in the page's language.
      const words = { code: room.code, game: gameTitle(room.state.title), reason: closedText(message) };
      this.forget(room.code, t("Room {code} ({game}) closed: {reason}", words), message);
    } else if (message.type === "announcement" || message.type === "match") {
      if (message.type === "match") this.matches.set(message.room, message);
      this.dispatchEvent(new CustomEvent(message.type, { detail: message }));
    } else if (message.type === "chat") {
      const room = this.rooms.get(message.room);
      if (!room) return;
      room.note({ kind: "chat", name: message.name, text: message.text });
      this.changed(room.code, message);
    } else if (ROOM_EVENTS.has(message.type)) {
      const room = this.rooms.get(message.room);
      if (!room) return;
      if (!room.apply(message)) {
        // Out of step (a move missed): ask for the whole room again.
        this.request({ type: "get_state", room: room.code }).catch(() => {});
        return;
      }
      this.log(room, eventText(room, message));
      this.changed(room.code, message);
    }
  }

  log(room, text) {
    if (text) room.note({ kind: "event", text });
  }

  changed(code, message, before = null) {
    this.dispatchEvent(new CustomEvent("room", { detail: { code, message, before } }));
  }
}
