// teacher.js: the teacher's page (/teacher#token=TOKEN, class mode). It takes
// the token out of the address (kept in this tab: teacher-api.js), checks it once (a missing or wrong token shows
// only a message saying what to do), then shows the class and polls it every
// 2 s: the summary with pause / resume, the hints switch and the class's autopilot (the AI
// that plays for a student who leaves a game), a broadcast and the exports, every
// room, the roster, adding students (with the sheet of their join links), and
// the tournaments. Each panel is a module of its own;
// this one fetches and hands out what they show.

import { languageSwitch, t, tn } from "./i18n.js"; // first: the catalogue is loaded before any module shows a word
import { button, h, setText, show } from "./dom.js";
import { addressNotice } from "./class-words.js";
import { AccountsPanel } from "./teacher-accounts.js";
import { AdminApi, errorText, takeToken } from "./teacher-api.js";
import { BotsPanel } from "./teacher-bots.js";
import { RoomsPanel } from "./teacher-rooms.js";
import { RosterPanel } from "./teacher-roster.js";
import { TournamentPanel } from "./teacher-tournament.js";
import { autopilotOptions } from "./words.js";

const POLL_MS = 2000; // live enough to follow a class, light on the server
const BROADCAST_MAX = 500; // the API's limit

class TeacherPage {
  constructor(token) {
    this.api = new AdminApi(token);
    this.token = token;
    this.main = document.getElementById("teacher");
    this.status = document.getElementById("status");
    this.timer = null;
    this.polling = false;
  }

  async start() {
    let summary;
    try {
      summary = await this.api.get("/api/admin/class");
    } catch (error) {
      this.refused(error);
      return;
    }
    this.build();
    this.showSummary(summary);
    await this.poll();
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  /** The page cannot work: say why and what to do, and show nothing else. */
  refused(error) {
    clearInterval(this.timer);
    show(document.getElementById("links"), false);
    show(this.status, false);
    let title = t("This page could not reach the class");
    let text = errorText(error);
    if (error.unauthorized) {
      title = t("Wrong link");
      text = t(
        "The token in this link is not the teacher's token. Open the teacher's link that {command} printed (it ends with #token=…).",
        { command: "boardroom serve" },
      );
    } else if (error.code === "class_mode_off") {
      title = t("Not running for a class");
      text = t("This server runs without a class: start it with {command}.", {
        command: "boardroom serve --class NAME",
      });
    }
    this.main.replaceChildren(messagePanel(title, text));
  }

  // -- building -------------------------------------------------------------------------

  build() {
    const again = () => this.poll();
    this.accounts = new AccountsPanel(this.api, again, () => this.summary?.class ?? "");
    this.roster = new RosterPanel(this.api, again, (entry) => this.accounts.addCards([entry]));
    this.rooms = new RoomsPanel(this.api, again);
    this.tournament = new TournamentPanel(this.api, again);
    this.bots = new BotsPanel(this.api, again);
    const links = document.getElementById("links");
    const wall = `/wall#token=${encodeURIComponent(this.token)}`;
    links.replaceChildren(
      h("a", { href: wall, target: "_blank", rel: "noopener" }, t("Open the wall")),
      h("a", { href: "/leaderboard", target: "_blank", rel: "noopener" }, t("Leaderboard")),
    );
    show(links, true);
    // Where students must go, when the page itself is open at an address they cannot use.
    this.addressNotice = h("p", { id: "address-notice", class: "address-notice", role: "note", hidden: true });
    // Two columns on a projector (rooms, adding students and bots | the tournament)
    // over the roster across the whole width, where its controls fit on one line;
    // one column on a narrower screen, in this order: rooms, roster, adding
    // students, bots, tournament (teacher.css).
    this.main.replaceChildren(
      this.addressNotice,
      this.buildClass(),
      this.accounts.sheet,
      h(
        "div",
        { class: "teacher-columns" },
        h("div", { class: "teacher-column" }, this.rooms.element, this.accounts.element, this.bots.element),
        h("div", { class: "teacher-column" }, this.tournament.element),
        this.roster.element,
      ),
    );
  }

  buildClass() {
    this.title = h("h1", { class: "class-name" });
    this.counts = h("p", { class: "class-counts" });
    this.pauseState = h("span", { class: "pause-state", role: "status" });
    this.pauseButton = button("", () => this.togglePause(), { id: "pause-toggle" });
    this.pauseError = errorLine();
    // Hints (the engine's move for a student who asks): off when the class starts.
    this.hintsButton = button("", () => this.toggleHints(), {
      id: "hints-toggle",
      role: "switch",
      "aria-checked": "false",
      title: t(
        "Whether students may ask the engine for a hint in their games (a tournament's games follow its own Hints box)",
      ),
    });
    // The class's autopilot: who plays for a student whose seat's grace window runs
    // out, in the class's new rooms and the tournaments that take the class's choice.
    this.autopilotSelect = h(
      "select",
      { id: "class-autopilot", onchange: () => this.setAutopilot(this.autopilotSelect.value) },
      autopilotOptions().map(([value, text]) => h("option", { value }, text)),
    );
    this.broadcastInput = h("input", {
      id: "broadcast-text",
      name: "text",
      maxlength: BROADCAST_MAX,
      autocomplete: "off",
      placeholder: t("e.g. Ten minutes left"),
    });
    this.broadcastResult = h("span", { class: "form-note", role: "status" });
    this.broadcastError = errorLine();
    this.exportError = errorLine();
    const exportButton = (file) =>
      button(file, () => this.download(file), { "aria-label": t("Download {file}", { file }) });
    return h(
      "section",
      { class: "panel class-panel", "aria-label": t("The class") },
      h("div", { class: "class-head" }, this.title, this.counts),
      h(
        "div",
        { class: "class-controls" },
        h(
          "div",
          { class: "control" },
          h("h2", {}, t("Games")),
          h("div", { class: "row" }, this.pauseButton, this.pauseState, this.hintsButton),
          h(
            "div",
            { class: "row autopilot-row" },
            h("label", { for: "class-autopilot" }, t("AI for a student who leaves a game")),
            this.autopilotSelect,
          ),
          this.pauseError,
        ),
        h(
          "form",
          { class: "control broadcast", onsubmit: (event) => this.broadcast(event) },
          h("h2", {}, h("label", { for: "broadcast-text" }, t("Message to everyone"))),
          h("div", { class: "row" }, this.broadcastInput, h("button", { type: "submit" }, t("Send"))),
          this.broadcastResult,
          this.broadcastError,
        ),
        h(
          "div",
          { class: "control" },
          h("h2", {}, t("Export")),
          h("div", { class: "row" }, exportButton("results.csv"), exportButton("games.zip")),
          this.exportError,
        ),
      ),
    );
  }

  // -- polling --------------------------------------------------------------------------

  async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      // The tournament form lists the roster's first page whichever page the roster shows,
      // so that turning the roster's pages does not take the ticked players away.
      const [summary, roster, rooms, first] = await Promise.all([
        this.api.get("/api/admin/class"),
        this.api.get(this.roster.path()),
        this.api.get("/api/admin/rooms"),
        this.roster.offset === 0 ? null : this.api.get(this.roster.path(0)),
      ]);
      this.showSummary(summary);
      this.roster.update(roster.students, roster);
      const entrants = first ?? roster;
      this.tournament.updateRoster(entrants.students, entrants.total ?? entrants.students.length);
      await this.pollTournaments();
      this.rooms.update(rooms.rooms, this.tournament.expectedSeats());
      show(this.status, false);
    } catch (error) {
      if (error.unauthorized) {
        this.refused(error);
        return;
      }
      setText(this.status, t("{problem} Trying again…", { problem: errorText(error) }));
      show(this.status, true);
    } finally {
      this.polling = false;
    }
  }

  async pollTournaments() {
    try {
      const answer = await this.api.get("/api/admin/tournaments");
      this.tournament.update(answer.tournaments);
    } catch (error) {
      if (error.status === 404) this.tournament.unavailable(error);
      else throw error;
    }
  }

  showSummary(summary) {
    this.summary = summary;
    setText(this.title, t("Class {name}", { name: summary.class }));
    document.title = t("{class_name} · Teacher · Boardroom", { class_name: summary.class });
    const students = tn("{n} student", "{n} students", summary.students);
    const connected = tn("{n} connected", "{n} connected", summary.connected);
    const rooms = tn("{n} room", "{n} rooms", summary.rooms);
    const games = tn("{n} game in progress", "{n} games in progress", summary.games_in_progress);
    setText(this.counts, t("{students}, {connected} · {rooms}, {games}", { students, connected, rooms, games }));
    document.body.dataset.paused = String(summary.paused);
    setText(this.pauseButton, summary.paused ? t("Resume all games") : t("Pause all games"));
    this.pauseButton.className = summary.paused ? "primary" : "";
    setText(this.pauseState, summary.paused ? t("All games are paused") : t("Games are running"));
    this.pauseState.classList.toggle("paused", summary.paused);
    const hints = Boolean(summary.hints);
    document.body.dataset.hints = String(hints);
    setText(this.hintsButton, hints ? t("Hints: on") : t("Hints: off"));
    this.hintsButton.setAttribute("aria-checked", String(hints));
    this.hintsButton.classList.toggle("on", hints);
    // Not while the teacher has the list open: the poll would take their choice away.
    const autopilot = summary.autopilot ?? "off";
    if (document.activeElement !== this.autopilotSelect) this.autopilotSelect.value = autopilot;
    document.body.dataset.autopilot = autopilot;
    this.tournament.setClassAutopilot(autopilot);
    const notice = addressNotice(summary);
    if (this.addressNotice.textContent !== notice) setText(this.addressNotice, notice);
    show(this.addressNotice, Boolean(notice));
  }

  // -- acting ---------------------------------------------------------------------------

  async togglePause() {
    const action = this.summary?.paused ? "resume" : "pause";
    show(this.pauseError, false);
    try {
      await this.api.post(`/api/admin/${action}`);
    } catch (error) {
      showError(this.pauseError, error);
    }
    await this.poll();
  }

  /** Turn hints on or off for the class (POST /api/admin/hints); the students' rooms follow at once. */
  async toggleHints() {
    show(this.pauseError, false);
    try {
      await this.api.post("/api/admin/hints", { allowed: !this.summary?.hints });
    } catch (error) {
      showError(this.pauseError, error);
    }
    await this.poll();
  }

  /** Set the class's autopilot (POST /api/admin/autopilot): its new rooms and the
   * tournaments created from now on that take the class's choice follow it. */
  async setAutopilot(level) {
    show(this.pauseError, false);
    try {
      await this.api.post("/api/admin/autopilot", { level });
    } catch (error) {
      showError(this.pauseError, error);
    }
    this.autopilotSelect.blur();
    await this.poll();
  }

  async broadcast(event) {
    event.preventDefault();
    setText(this.broadcastResult, "");
    show(this.broadcastError, false);
    const text = this.broadcastInput.value; // the server trims it, and says why it refuses
    try {
      const answer = await this.api.post("/api/admin/broadcast", { text });
      const count = answer.sent_to;
      setText(this.broadcastResult, tn("Sent to {n} connection", "Sent to {n} connections", count));
      this.broadcastInput.value = "";
    } catch (error) {
      showError(this.broadcastError, error);
    }
  }

  async download(file) {
    show(this.exportError, false);
    try {
      await this.api.download(`/api/admin/export/${file}`, file);
    } catch (error) {
      showError(this.exportError, error);
    }
  }
}

function errorLine() {
  return h("p", { class: "form-error", role: "alert", hidden: true });
}

function showError(element, error) {
  setText(element, errorText(error));
  show(element, true);
}

function messagePanel(title, text) {
  return h(
    "section",
    { class: "panel teacher-message", role: "alert" },
    h("h1", {}, title),
    h("p", {}, text),
  );
}

// The page's language, chosen in the header (remembered in this browser): the
// cards follow the class's language instead when the server has one.
document.querySelector("header.top").append(languageSwitch());

const token = takeToken();
if (token) {
  new TeacherPage(token).start();
} else {
  document.getElementById("teacher").replaceChildren(
    messagePanel(
      t("This page needs the teacher's link"),
      t("Open the teacher's link that {command} printed: it ends with #token=… (the address alone opens nothing).", {
        command: "boardroom serve",
      }),
    ),
  );
}
