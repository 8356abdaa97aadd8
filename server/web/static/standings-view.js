// standings-view.js: a tournament's standings for a student, at #/tournament/ID:
// what the wall shows (tournament-tables.js, compact), read from the public
// GET /api/tournaments/{id} (docs/operations.md, "Tournaments"). The page opens
// it when a tournament the student played in ends (main.js: the server's
// `announcement` names the tournament), and the end's notice offers it again.
// The student's own row is marked.

import { h, setText } from "./dom.js";
import { t } from "./i18n.js";
import { standingsTable, tournamentLine } from "./tournament-tables.js";

const RETRY_MS = 3000; // after a failed request (the connection dropped)

export class StandingsView {
  /** `id` is the address's tournament id (text); `you` the player's name, whose row is marked. */
  constructor(id, you) {
    this.id = id;
    this.you = you;
    this.timer = null;
    this.gone = false;
    this.title = h("h2", { class: "room-title", id: "standings-title", tabindex: "-1" }, t("Tournament {id}", { id }));
    this.meta = h("p", { class: "room-meta" });
    this.status = h("p", { class: "standings-status", role: "status", "aria-live": "polite" });
    this.table = h("div", { class: "standings-scroll" });
    this.element = h(
      "section",
      { class: "panel standings-view", "aria-labelledby": this.title.id, dataset: { tournament: id } },
      h(
        "header",
        { class: "room-head" },
        h("div", {}, this.title, this.meta),
        h("a", { class: "quiet-link", href: "#/" }, t("← Lobby")),
      ),
      this.status,
      this.table,
    );
    if (/^[0-9]+$/.test(id)) this.load();
    else setText(this.status, t('"{id}" is not a tournament id: a tournament id is a number, like 3.', { id }));
  }

  async load() {
    let response;
    let body = null;
    try {
      response = await fetch(`/api/tournaments/${this.id}`, { cache: "no-store" });
      body = await response.json().catch(() => null);
    } catch {
      if (this.gone) return;
      setText(this.status, t("Could not reach the server: trying again…"));
      this.timer = setTimeout(() => this.load(), RETRY_MS);
      return;
    }
    if (this.gone) return;
    if (response.ok && body?.tournament) {
      this.show(body.tournament);
    } else if (response.status === 404 && body?.error === "unknown_tournament") {
      setText(this.status, t("There is no tournament {id} on this server.", { id: this.id }));
    } else {
      const reason = body?.message ?? `HTTP ${response.status}`;
      setText(this.status, t("The server could not show the standings: {reason}", { reason }));
    }
  }

  show(tournament) {
    setText(this.title, tournament.status === "running" ? tournament.name : t("Final standings: {name}", { name: tournament.name }));
    setText(this.meta, tournamentLine(tournament));
    setText(this.status, "");
    this.element.dataset.status = tournament.status;
    const block = standingsTable(tournament, { compact: true });
    for (const row of block.querySelectorAll("tbody tr")) {
      if (row.querySelector(".name")?.textContent === this.you) {
        row.classList.add("you");
        row.setAttribute("aria-current", "true");
      }
    }
    this.table.replaceChildren(block);
    document.title = `${tournament.name} · Boardroom`;
  }

  focus() {
    this.title.focus({ preventScroll: true });
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.timer);
  }
}
