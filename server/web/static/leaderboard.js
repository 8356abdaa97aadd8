// leaderboard.js: the /leaderboard page. It reads GET /api/leaderboard every 10
// seconds and shows one game's table at a time, a tab per game. It opens on the
// game played most (each board's `played`); a game chosen is kept in the
// address (#connect4), so a projector stays on it across reloads.

import { formatDateTime, languageSwitch, t } from "./i18n.js"; // first: the catalogue is loaded before any module shows a word
import { h, setText, show } from "./dom.js";
import { gameTitle, shownName } from "./words.js";

const REFRESH_MS = 10_000; // a game takes minutes: every 10 s is fresh enough for a wall
const ID_SHOWN = 6; // "p" and 5 hex digits: a million to one that two namesakes share them

/** Names as the server compares them: "Bob" and "bob" are one name on the wall. */
const nameKey = (name) => name.toLowerCase();

class LeaderboardPage {
  constructor() {
    this.updated = document.getElementById("updated");
    this.tabs = document.getElementById("tabs");
    this.board = document.getElementById("board");
    this.empty = document.getElementById("empty");
    this.table = document.getElementById("ratings");
    this.rows = document.getElementById("rows");
    this.games = [];
    window.addEventListener("hashchange", () => this.render());
  }

  /** Fetch the leaderboards, show them, and come back in REFRESH_MS, whatever happened. */
  async refresh() {
    try {
      const response = await fetch("/api/leaderboard", { cache: "no-store" });
      if (!response.ok) throw new Error(t("the server answered {status}", { status: response.status }));
      this.games = (await response.json()).games;
      this.render();
      setText(this.updated, t("Updated at {time}", { time: formatDateTime(new Date(), { timeStyle: "medium" }) }));
    } catch (error) {
      // Keep what is on screen: a wall should not go blank for a dropped request.
      setText(this.updated, t("Cannot reach the server ({reason}); trying again", { reason: error.message }));
    } finally {
      setTimeout(() => this.refresh(), REFRESH_MS);
    }
  }

  /** The game the address names, or else the one played most (the first of those tied). */
  chosen() {
    let wanted = location.hash.slice(1);
    try {
      wanted = decodeURIComponent(wanted);
    } catch {
      // A hand-typed "#%" is no game: show the one played most.
    }
    const named = this.games.find((board) => board.game === wanted);
    if (named) return named;
    let most = null;
    for (const board of this.games) if (most === null || (board.played ?? 0) > (most.played ?? 0)) most = board;
    return most;
  }

  render() {
    const current = this.chosen();
    show(this.tabs, this.games.length > 0);
    // The tabs are made afresh at each refresh: keyboard focus moves to the new one.
    const focused = this.tabs.contains(document.activeElement) ? document.activeElement.dataset.game : null;
    this.tabs.replaceChildren(...this.games.map((board) => this.tab(board, board === current)));
    if (focused) this.tabs.querySelector(`[data-game="${CSS.escape(focused)}"]`)?.focus();
    show(this.empty, current === null || current.rows.length === 0);
    show(this.table, current !== null && current.rows.length > 0);
    if (current === null) {
      this.board.removeAttribute("aria-labelledby");
      this.rows.replaceChildren();
      return;
    }
    this.board.setAttribute("aria-labelledby", `tab-${current.game}`);
    // Two players under one name are two rows: those get the start of their player id.
    const count = new Map();
    for (const { player } of current.rows) count.set(nameKey(player), (count.get(nameKey(player)) ?? 0) + 1);
    const shared = (row) => Boolean(row.player_id) && count.get(nameKey(row.player)) > 1;
    this.rows.replaceChildren(...current.rows.map((row) => this.row(row, shared(row))));
  }

  tab(board, selected) {
    return h(
      "button",
      {
        type: "button",
        role: "tab",
        id: `tab-${board.game}`,
        class: selected ? "tab selected" : "tab",
        "aria-selected": selected ? "true" : "false",
        "aria-controls": "board",
        dataset: { game: board.game },
        // replaceState, not a new history entry per click; render by hand, as no hashchange fires.
        onclick: () => {
          history.replaceState(null, "", `#${encodeURIComponent(board.game)}`);
          this.render();
        },
      },
      gameTitle(board.title),
    );
  }

  row(row, shared) {
    const number = (text) => h("td", { class: "number" }, String(text));
    const who = shared
      ? h("span", { class: "who", title: t("player {id}", { id: row.player_id }) }, ` · ${row.player_id.slice(0, ID_SHOWN)}`)
      : null;
    const dataset = { player: row.player, ...(row.player_id ? { playerId: row.player_id } : {}) };
    return h(
      "tr",
      { class: row.provisional ? "provisional" : null, dataset },
      number(row.rank),
      h("td", { class: "player" }, shownName(row.player), who),
      h(
        "td",
        { class: "number rating", title: row.provisional ? t("provisional: too few games yet") : null },
        String(row.rating),
        row.provisional ? h("span", { class: "unsure" }, "?") : null,
      ),
      number(`±${row.deviation}`),
      number(row.games),
      number(row.wins),
      number(row.draws),
      number(row.losses),
    );
  }
}

// The language switch, at the end of the header: choosing reloads the page in it.
document.querySelector("header.top").append(languageSwitch());
new LeaderboardPage().refresh();
