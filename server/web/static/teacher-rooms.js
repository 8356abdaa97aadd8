// teacher-rooms.js: every room of the class on the teacher's page, private
// ones too: the game, who sits where, how far the game is, a Watch link (the
// room in a new tab, as a spectator) and a Close button (a second click
// confirms; closing ends the game with no result). Rooms whose game is over
// go under a "Finished" heading, folded, so the list shows what is going on.
// Rows are kept per room across the page's polls, so that a Close waiting for
// its second click is not lost to a refresh.

import { confirming, h, placeInOrder, setText, show } from "./dom.js";
import { t, tn } from "./i18n.js";
import { SYMBOLS } from "./room-state.js";
import { sideMark } from "./side-mark.js";
import { errorText } from "./teacher-api.js";
import { shownName } from "./tournament-tables.js";

export class RoomsPanel {
  /** `api` is the AdminApi; `changed()` asks the page to poll again at once. */
  constructor(api, changed) {
    this.api = api;
    this.changed = changed;
    this.rows = new Map(); // room code -> RoomRow
    this.body = h("tbody");
    this.finishedBody = h("tbody");
    this.count = h("span", { class: "updated" });
    this.empty = h("p", { class: "empty" }, t("No rooms open."));
    this.finishedTitle = h("summary", {});
    // Folded at first; the teacher's unfolding is kept across polls (the element stays).
    this.finished = h(
      "details",
      { class: "finished-rooms", hidden: true },
      this.finishedTitle,
      roomsTable(this.finishedBody),
    );
    this.table = roomsTable(this.body);
    this.element = h(
      "section",
      { class: "panel rooms-panel", "aria-labelledby": "rooms-title" },
      h("div", { class: "panel-head" }, h("h2", { id: "rooms-title" }, t("Rooms")), this.count),
      this.table,
      this.empty,
      this.finished,
    );
  }

  /** Show `rooms` (GET /api/admin/rooms), oldest first; `expected` maps the rooms of
   * a tournament's games to who is to sit there (TournamentPanel.expectedSeats). */
  update(rooms, expected = new Map()) {
    const codes = new Set(rooms.map((room) => room.code));
    for (const [code, row] of this.rows) {
      if (!codes.has(code)) {
        row.element.remove();
        this.rows.delete(code);
      }
    }
    for (const room of rooms) {
      let row = this.rows.get(room.code);
      if (!row) {
        row = new RoomRow(this, room.code);
        this.rows.set(room.code, row);
      }
      row.update(room, expected.get(room.code) ?? null);
    }
    const over = rooms.filter((room) => room.status === "finished");
    const going = rooms.filter((room) => room.status !== "finished");
    placeInOrder(this.body, going.map((room) => this.rows.get(room.code).element));
    placeInOrder(this.finishedBody, over.map((room) => this.rows.get(room.code).element));
    const playing = rooms.filter((room) => room.status === "playing").length;
    setText(this.count, t("{open} open, {playing} playing", { open: rooms.length, playing }));
    show(this.table, going.length > 0);
    show(this.empty, going.length === 0);
    setText(this.finishedTitle, t("Finished ({count})", { count: over.length }));
    show(this.finished, over.length > 0);
  }
}

/** A table of rooms with its column heads, around `body`. The open rooms' table and
 * the finished rooms' share their columns' widths (teacher.css: a fixed layout
 * over these <col>s), so that the two read as one list. */
function roomsTable(body) {
  const column = (text) => h("th", { scope: "col" }, text);
  const widths = ["room", "game", "players", "status", "actions"];
  return h(
    "table",
    { class: "rooms" },
    h("colgroup", {}, widths.map((name) => h("col", { class: `col-${name}` }))),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        column(t("Room")),
        column(t("Game")),
        column(t("Players")),
        column(t("Status")),
        column(h("span", { class: "offscreen" }, t("Actions"))),
      ),
    ),
    body,
  );
}

class RoomRow {
  constructor(panel, code) {
    this.panel = panel;
    this.code = code;
    this.game = h("td", {});
    this.players = h("td", {});
    this.status = h("span", {});
    this.error = h("p", { class: "form-error", role: "alert", hidden: true });
    this.close = confirming(t("Close"), t("Click again"), () => this.closeRoom(), {
      class: "danger small",
      "aria-label": t("Close room {code}", { code }),
    });
    // The last game's review, for the projector: shown once a game is over.
    this.review = h("a", { class: "review-link", target: "_blank", hidden: true }, t("Review"));
    // The room in a new tab that only watches (main.js: "?spectator"): the teacher is no player.
    this.watch = h(
      "a",
      { class: "watch-link", target: "_blank", rel: "noopener", "aria-label": t("Watch room {code}", { code }) },
      t("Watch"),
    );
    this.element = h(
      "tr",
      { dataset: { room: code } },
      h("th", { scope: "row" }, h("code", {}, code)),
      this.game,
      this.players,
      h("td", {}, this.status, " ", this.review),
      h("td", { class: "actions" }, this.watch, this.close, this.error),
    );
  }

  /** Show `room`; `expected`: a tournament game's players and name, for a room that waits for them. */
  update(room, expected = null) {
    this.element.dataset.status = room.status;
    const watch = `/#/watch/${encodeURIComponent(room.watch_by ?? room.code)}?spectator`;
    if (this.watch.getAttribute("href") !== watch) this.watch.setAttribute("href", watch);
    const title = t(room.title); // a game's title: marked in shared/games
    let game = room.public ? title : t("{game} (private)", { game: title });
    if (expected) game = t("{game} ({tournament_game})", { game: title, tournament_game: expected.label });
    setText(this.game, game);
    const seats = room.players.map((player) => {
      const played = playedBy(room, player.side);
      const awaited = expected?.[player.side];
      const absent = awaited ? t("{name} (not here yet)", { name: awaited }) : t("empty seat");
      let name = player.name ? shownName(player.name) : played ? t("{name} (left)", { name: played }) : absent;
      if (player.name && !player.connected && player.kind !== "ai") name = t("{name} (away)", { name });
      return [player.side, ` ${name}`];
    });
    const watching = room.spectators ? " · " + t("{count} watching", { count: room.spectators }) : "";
    const text = seats.map(([side, rest]) => SYMBOLS[side] + rest).join(" – ") + watching;
    if (this.players.textContent !== text) {
      // Each seat on a line of its own ("X Ann Lee", "O Bob Smith"): a narrow column
      // breaks between the seats, not inside a name; the dash is for screen readers.
      const dash = () => h("span", { class: "offscreen" }, " – ");
      const parts = seats.map(([side, rest], index) =>
        h("span", { class: "seat-names" }, sideMark(side), rest, index < seats.length - 1 ? dash() : null),
      );
      this.players.replaceChildren(...parts, watching);
    }
    setText(this.status, roomStatus(room));
    const reviewable = room.status === "finished" && room.game_id != null;
    show(this.review, reviewable);
    if (reviewable) {
      this.review.href = `/#/review/${room.game_id}`;
      this.review.setAttribute("aria-label", t("Review the last game in room {code}", { code: this.code }));
    }
  }

  async closeRoom() {
    try {
      await this.panel.api.post(`/api/admin/rooms/${this.code}/close`);
      this.element.remove();
      this.panel.rows.delete(this.code);
      this.panel.changed();
    } catch (error) {
      setText(this.error, errorText(error));
      show(this.error, true);
    }
  }
}

/** "playing, 7 moves", "paused", "finished: X ann wins" for the teacher. */
export function roomStatus(room) {
  if (room.status === "waiting") return room.paused ? t("waiting (paused)") : t("waiting for a player");
  if (room.status === "finished") return t("finished: {result}", { result: resultWords(room) });
  const count = room.ply ?? 0;
  return room.paused
    ? tn("paused, {n} move", "paused, {n} moves", count)
    : tn("playing, {n} move", "playing, {n} moves", count);
}

/** How a room's last game ended, in words: "X ann wins", "draw", "no result". */
export function resultWords(room) {
  const result = room.result;
  if (!result) return t("game over");
  if (!result.winner) return result.reason === "full_board" || result.reason === "agreement" ? t("draw") : t("no result");
  const player = room.players.find((seat) => seat.side === result.winner);
  const name = shownName(player?.name ?? playedBy(room, result.winner) ?? "");
  const winner = `${SYMBOLS[result.winner]} ${name}`.trim();
  if (result.reason === "resignation") return t("{winner} wins (resigned)", { winner });
  if (result.reason === "timeout") return t("{winner} wins on time", { winner });
  if (result.reason === "abandonment") return t("{winner} wins (left)", { winner });
  return t("{winner} wins", { winner });
}

/** Who played `side` of a finished game (`game_players`), also once they have left; else null. */
function playedBy(room, side) {
  return room.status === "finished" ? (room.game_players?.[side] ?? null) : null;
}
