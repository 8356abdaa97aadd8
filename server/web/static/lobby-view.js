// lobby-view.js: the lobby: open a room (any game, against a person or the AI,
// public or private, with or without a clock; or two AIs to watch at a pace),
// quick match, join or watch by
// code, the public rooms (refreshed every few seconds and on demand), and the
// rooms this tab is already in.

import { button, formValues, h, setText, show } from "./dom.js";
import {
  clockFields,
  clockFromValues,
  field,
  formError,
  familySizes,
  gameFields,
  panel,
  radio,
  select,
  toggleFieldset,
} from "./forms.js";
import { DEFAULT_GAME, gameOptions } from "./game-list.js";
import { formatDateTime, formatNumber, N_, t, tn } from "./i18n.js";
import { gameTitle, LEVELS, levelName, refusalText, roomSummary, shownName } from "./words.js";

const ROOMS_REFRESH_MS = 5000; // live enough for a classroom, light on the server

/** An AI match's paces: seconds each move stays on screen at least (the server allows 0 to 10). */
const PACES = ["0.5", "1", "2", "5"].map((pace) => [pace, t("{seconds} s a move", { seconds: formatNumber(Number(pace)) })]);
const DEFAULT_PACE = "2"; // slow enough for a class to follow on the wall

const STATUS_WORDS = { waiting: N_("waiting for a player"), playing: N_("playing"), finished: N_("finished") };

export class LobbyView {
  /** `app` gives the session, opens rooms and says notices (main.js). */
  constructor(app) {
    this.app = app;
    this.timer = null;
    this.roomsBody = h("tbody");
    this.roomsEmpty = h("p", { class: "empty" }, t("No public rooms yet: open one!"));
    this.roomsUpdated = h("span", { class: "updated" });
    this.yours = h("ul", { class: "your-rooms" });
    this.yoursPanel = panel("yours", t("Your rooms"), this.yours);
    this.element = h(
      "section",
      { class: "lobby-view", "aria-label": t("Lobby") },
      h("div", { class: "lobby-column" }, this.createPanel()),
      h("div", { class: "lobby-column" }, this.codePanel(), this.yoursPanel, this.roomsPanel()),
    );
  }

  // -- the panels ---------------------------------------------------------------

  createPanel() {
    const error = formError();
    const game = gameFields("new-game");
    const level = h(
      "select",
      { name: "level", id: "new-level", "aria-label": t("AI level") },
      LEVELS.map((name) => h("option", { value: name, selected: name === "easy" }, levelName(name))),
    );
    const levelSelect = (name, id, label, chosen) =>
      h(
        "select",
        { name, id, "aria-label": label },
        LEVELS.map((level) => h("option", { value: level, selected: level === chosen }, levelName(level))),
      );
    // Two AIs play each other and the creator watches: no seat and no clock for them.
    const aiMatch = h(
      "fieldset",
      { class: "ai-match" },
      h("legend", {}, t("Two AIs")),
      field(t("X plays at"), levelSelect("first_level", "match-first", t("X AI level"), "medium")),
      field(t("O plays at"), levelSelect("second_level", "match-second", t("O AI level"), "perfect")),
      field(t("Pace"), select("pace", "match-pace", PACES, DEFAULT_PACE)),
    );
    const clock = clockFields("new-clock");
    const seat = field(
      t("You play"),
      select("seat", "new-seat", [
        ["first", t("X (moves first)")],
        ["second", t("O (moves second)")],
        ["random", t("X or O at random")],
      ]),
    );
    const form = h(
      "form",
      { id: "new-room", onsubmit: (event) => this.create(event, form, error) },
      game.elements,
      h(
        "fieldset",
        {},
        h("legend", {}, t("Opponent")),
        radio("opponent", "person", t("A person"), true),
        radio("opponent", "ai", t("The AI"), false),
        level,
        radio("opponent", "ai_match", t("Two AIs (watch)"), false),
      ),
      aiMatch,
      seat,
      clock.elements,
      h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", name: "private" }),
        // Not in a template literal: the extraction of messages does not look inside one.
        " " + t("Private: only people you give the code to can join or watch"),
      ),
      h("button", { type: "submit", class: "primary" }, t("Create room")),
      error,
    );
    // Fields that do not apply are hidden and disabled (so that they are not validated).
    const sync = () => {
      const values = formValues(form);
      game.sync(values);
      level.disabled = values.opponent !== "ai";
      const watching = values.opponent === "ai_match";
      toggleFieldset(aiMatch, watching);
      show(seat, !watching);
      seat.querySelector("select").disabled = watching;
      for (const part of clock.elements) show(part, !watching);
      if (watching) clock.sync({});
      else clock.sync(values);
    };
    form.addEventListener("change", sync);
    sync();
    return panel("new", t("New game"), form);
  }

  codePanel() {
    const quickError = formError();
    const quick = h(
      "form",
      { id: "quick-match", onsubmit: (event) => this.quickMatch(event, quick, quickError) },
      h("label", { for: "quick-game" }, t("Play the next person who asks for")),
      h(
        "div",
        { class: "row" },
        select("game", "quick-game", gameOptions({ families: false }), DEFAULT_GAME),
        h("button", { type: "submit" }, t("Quick match")),
      ),
      quickError,
    );
    const codeError = formError();
    const input = h("input", {
      id: "code-input",
      name: "code",
      required: true,
      maxlength: 32,
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      placeholder: t("e.g. {code}", { code: "XTZRUWF6" }),
    });
    const watch = (event) => this.byCode(event, "watch", input, codeError);
    const byCode = h(
      "form",
      { id: "by-code", onsubmit: (event) => this.byCode(event, "join", input, codeError) },
      h("label", { for: "code-input" }, t("Room, join or watch code")),
      h(
        "div",
        { class: "row" },
        input,
        h("button", { type: "submit" }, t("Join")),
        button(t("Watch"), watch),
      ),
      codeError,
    );
    return panel("code", t("Join a game"), h("div", { class: "join-forms" }, quick, byCode));
  }

  roomsPanel() {
    const column = (text) => h("th", { scope: "col" }, text);
    const table = h(
      "table",
      { class: "rooms" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          column(t("Game")),
          column(t("Players")),
          column(t("Status")),
          column(h("span", { class: "offscreen" }, t("Actions"))),
        ),
      ),
      this.roomsBody,
    );
    return h(
      "section",
      { class: "panel rooms-panel", "aria-labelledby": "rooms-title" },
      h(
        "div",
        { class: "panel-head" },
        h("h2", { id: "rooms-title" }, t("Public rooms")),
        this.roomsUpdated,
        button(t("Refresh"), () => this.refresh(), { class: "quiet" }),
      ),
      table,
      this.roomsEmpty,
    );
  }

  // -- showing ------------------------------------------------------------------

  shown() {
    this.roomsChanged();
    this.refresh();
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (!document.hidden) this.refresh();
    }, ROOMS_REFRESH_MS);
  }

  hidden() {
    clearInterval(this.timer);
    this.timer = null;
  }

  /** Redraw "Your rooms" (the session's rooms changed). */
  roomsChanged() {
    const rooms = this.app.session?.seatedFirst ?? [];
    show(this.yoursPanel, rooms.length > 0);
    this.yours.replaceChildren(
      ...rooms.map((room) =>
        h(
          "li",
          {},
          h("span", {}, t("{game} · room {code} · {summary}", { game: gameTitle(room.state.title), code: room.code, summary: roomSummary(room) })),
          button(t("Open"), () => this.app.openRoom(room.code)),
        ),
      ),
    );
  }

  /** Ask for the public rooms again (quietly: a refusal waits for the next turn). */
  async refresh() {
    const session = this.app.session;
    if (!session?.ready) return;
    try {
      const reply = await session.request({ type: "list_rooms" });
      this.showRooms(reply.rooms ?? [], reply.total);
    } catch {
      // Reconnecting, or too fast: the next refresh will do.
    }
  }

  /** A page of the public rooms; `total` (how many in all) says if some are left out. */
  showRooms(rooms, total = rooms.length) {
    show(this.roomsEmpty, rooms.length === 0);
    const time = formatDateTime(new Date(), { timeStyle: "medium" });
    setText(
      this.roomsUpdated,
      total > rooms.length
        ? t("the first {shown} of {total} · updated {time}", { shown: rooms.length, total, time })
        : t("updated {time}", { time }),
    );
    this.roomsBody.replaceChildren(
      ...rooms.map((room) => {
        const open = room.status === "waiting" && room.players.length < 2;
        const status = t(STATUS_WORDS[room.status] ?? room.status);
        const watchers = room.spectators
          ? tn("{status} · {n} watching", "{status} · {n} watching", room.spectators, { status })
          : status;
        return h(
          "tr",
          { dataset: { room: room.code } },
          h("td", {}, gameTitle(room.title)),
          h("td", {}, room.players.map(shownName).join(" vs ") || "—"),
          h("td", {}, watchers),
          h(
            "td",
            { class: "actions" },
            open && button(t("Join"), () => this.enter("join", room.code)),
            button(t("Watch"), () => this.enter("watch", room.code)),
          ),
        );
      }),
    );
  }

  // -- acting -------------------------------------------------------------------

  async create(event, form, error) {
    event.preventDefault();
    const values = formValues(form);
    const message = { type: "create_room", game: values.game, public: !values.private };
    Object.assign(message, familySizes(values) ?? {});
    if (values.opponent === "ai_match") {
      // The AIs take both seats: no seat, level or clock goes with it (the server refuses them).
      message.ai_match = { first: values.first_level, second: values.second_level, pace: Number(values.pace) };
      await this.ask(message, error);
      return;
    }
    message.seat = values.seat;
    const clock = clockFromValues(values);
    if (clock) message.clock = clock;
    if (values.opponent === "ai") message.ai_level = values.level;
    await this.ask(message, error);
  }

  async quickMatch(event, form, error) {
    event.preventDefault();
    await this.ask({ type: "quick_match", game: formValues(form).game }, error);
  }

  async byCode(event, kind, input, error) {
    event.preventDefault();
    const code = input.value.trim();
    if (!code) {
      input.focus();
      return;
    }
    if (await this.ask({ type: kind, code }, error)) input.value = "";
  }

  async enter(kind, code) {
    try {
      const reply = await this.app.session.request({ type: kind, code });
      this.app.openRoom(reply.room.code);
    } catch (refusal) {
      this.app.say(refusalText(refusal));
      this.refresh();
    }
  }

  /** Send a request that opens a room; show a refusal under its form. True if it worked. */
  async ask(message, error) {
    show(error, false);
    try {
      const reply = await this.app.session.request(message);
      this.app.openRoom(reply.room.code);
      return true;
    } catch (refusal) {
      setText(error, refusalText(refusal));
      show(error, true);
      return false;
    }
  }
}
