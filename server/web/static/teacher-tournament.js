// teacher-tournament.js: tournaments on the teacher's page. The form starts one
// (POST /api/admin/tournaments: the game, round robin or Swiss, the clock, how
// long a player may be late, and the entrants: students of the roster and AI
// levels); below it, the newest tournament: its round, the standings, the
// crosstable, each round's pairings with their results, and Cancel while it
// runs. One tournament runs at a time, so the form waits while one does.
// The form ticks every student at once ("All students") and says how many
// rounds the players ticked make: the recommended number for a Swiss
// (recommendedSwissRounds), the number a round robin needs.
// Once a tournament is over, "Worth a look" lists the students whose games in
// it matched the perfect engine far above their usual play, with the numbers
// and their games' reviews (GET /api/admin/tournaments/ID/worth-a-look, asked
// again every LOOK_EVERY_MS while the class's analyses catch up): for the
// teacher's eyes only, a prompt to look, never a verdict.

import { confirming, formValues, h, setText, show } from "./dom.js";
import {
  clockFields,
  clockFromValues,
  field,
  formError,
  familySizes,
  gameFields,
  numberField,
  radio,
  toggleFieldset,
} from "./forms.js";
import { formatNumber, t, tn } from "./i18n.js";
import { errorText } from "./teacher-api.js";
import {
  aiName,
  crosstable,
  playerNames,
  roundsList,
  standingsTable,
  tickWaiting,
  tournamentLine,
} from "./tournament-tables.js";
import { autopilotName, autopilotOptions, LEVELS } from "./words.js";

const NAME_MAX = 60;
const LOOK_EVERY_MS = 15000; // the background analyses take a few seconds a game

export class TournamentPanel {
  /** `api` is the AdminApi; `changed()` asks the page to poll again at once. */
  constructor(api, changed) {
    this.api = api;
    this.changed = changed;
    this.shown = null; // the JSON of the tournament on screen: redrawn only when it changes
    this.tournament = null;
    this.students = new Map(); // roster id -> its entrant checkbox's label
    this.note = h("p", { class: "empty" }, t("No tournament yet."));
    this.current = h("div", { class: "tournament", hidden: true });
    this.heading = h("h3", { class: "tournament-name" });
    this.line = h("p", { class: "tournament-line" });
    this.settings = h("p", { class: "tournament-settings" });
    this.classAutopilot = "off"; // the class's choice, for the form's first option
    this.cancelError = formError();
    this.cancel = confirming(t("Cancel the tournament"), t("Click again to cancel it"), () => this.cancelIt(), {
      id: "cancel-tournament",
    });
    this.tables = h("div", { class: "tournament-tables" });
    this.lookList = h("ul", { class: "worth-a-look-list" });
    this.look = h(
      "section",
      { class: "tournament-part worth-a-look", hidden: true },
      h("h4", {}, t("Worth a look")),
      h(
        "p",
        { class: "form-note" },
        t(
          "Their moves in this tournament matched the perfect engine far more often than in their other games. Only you see this: look at the games and talk with them; it proves nothing by itself.",
        ),
      ),
      this.lookList,
    );
    this.lookedAt = { id: null, at: 0 };
    this.current.append(
      h("div", { class: "panel-head" }, this.heading, this.cancel),
      this.line,
      this.settings,
      this.cancelError,
      this.tables,
      this.look,
    );
    this.form = this.buildForm();
    this.formPanel = h(
      "section",
      { class: "new-tournament", "aria-labelledby": "new-tournament-title" },
      h("h3", { id: "new-tournament-title" }, t("New tournament")),
      this.form,
    );
    this.element = h(
      "section",
      { class: "panel tournament-panel", "aria-labelledby": "tournament-title" },
      h("h2", { id: "tournament-title" }, t("Tournament")),
      this.note,
      this.current,
      this.formPanel,
    );
  }

  // -- the form -----------------------------------------------------------------------

  buildForm() {
    this.formError = formError();
    const game = gameFields("tournament-game");
    const clock = clockFields("tournament-clock");
    // "class": the class's choice when the tournament starts (the server reads it then).
    this.classChoice = h("option", { value: "class", selected: true }, "");
    this.autopilotSelect = h(
      "select",
      { name: "autopilot", id: "field-autopilot" },
      this.classChoice,
      autopilotOptions().map(([value, text]) => h("option", { value }, text)),
    );
    setText(this.classChoice, t("The class's choice ({choice})", { choice: autopilotName(this.classAutopilot) }));
    const name = h("input", {
      id: "tournament-name",
      name: "name",
      required: true,
      maxlength: NAME_MAX,
      autocomplete: "off",
      placeholder: t("e.g. Friday tournament"),
    });
    this.swissHint = h("p", { class: "form-note rounds-hint", id: "swiss-rounds-hint", "aria-live": "polite" });
    this.robinHint = h("p", { class: "form-note rounds-hint", id: "robin-rounds-hint", "aria-live": "polite" });
    const rounds = h(
      "fieldset",
      { class: "swiss-fields" },
      numberField("rounds", t("Rounds (blank: as many as recommended)"), "", 1, 63, 1, { required: false }),
      this.swissHint,
    );
    rounds.querySelector("input").setAttribute("aria-describedby", "swiss-rounds-hint");
    const double = h(
      "fieldset",
      { class: "round-robin-fields" },
      h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", name: "double" }),
        " " + t("Double: every pair plays twice, sides swapped"),
      ),
      this.robinHint,
    );
    // Not an entrant itself (no name="entrant"): ticks or clears every student's box.
    this.allStudents = h("input", { type: "checkbox", id: "all-students", onchange: () => this.tickAll() });
    this.allStudentsLabel = h("label", { class: "check all-students" }, this.allStudents, " " + t("All students"));
    this.studentBoxes = h("div", { class: "entrant-list", "aria-label": t("Students") });
    this.noStudents = h("p", { class: "empty" }, t("No students on the roster yet."));
    // A roster longer than the page the form lists (thousands, not a class): say who is missing.
    this.moreStudents = h("p", { class: "form-note", id: "more-students", hidden: true });
    const aiBoxes = h(
      "div",
      { class: "entrant-list", "aria-label": t("The AI") },
      LEVELS.map((level) => entrantBox(`ai:${level}`, aiName(level))),
    );
    const form = h(
      "form",
      { id: "new-tournament", onsubmit: (event) => this.create(event, form) },
      field(t("Name"), name),
      game.elements,
      h(
        "fieldset",
        {},
        h("legend", {}, t("Format")),
        radio("format", "round_robin", t("Round robin: everyone plays everyone"), true),
        radio("format", "swiss", t("Swiss: a few rounds, equal scores meet"), false),
      ),
      rounds,
      double,
      clock.elements,
      h(
        "fieldset",
        {},
        numberField("no_show_seconds", t("Seconds to sit down before losing the game"), 60, 10, 600),
        // 2 plies, the server's default: one move of each side (docs/classroom.md says why).
        numberField("spectator_delay", t("Moves behind that spectators see the games (0: live)"), 2, 0, 20),
        // Or by time (the server's "a configurable number of plies or seconds"); 0: by moves.
        numberField("spectator_delay_seconds", t("Or seconds behind instead (0: by moves)"), 0, 0, 300),
        // The class's choice by default; off keeps a dropped player's game lost by abandonment.
        h(
          "span",
          { class: "number-field" },
          h("label", { for: "field-autopilot" }, t("AI for a player who leaves a game")),
          this.autopilotSelect,
        ),
        // Off by default: a tournament counts, and the class's Hints switch does not reach it.
        h(
          "label",
          { class: "check" },
          h("input", { type: "checkbox", name: "hints" }),
          " " + t("Hints: players may ask the engine for a move in these games"),
        ),
      ),
      h(
        "fieldset",
        { class: "entrants" },
        h("legend", {}, t("Players")),
        h("p", { class: "form-note" }, t("Students")),
        this.allStudentsLabel,
        this.studentBoxes,
        this.noStudents,
        this.moreStudents,
        h("p", { class: "form-note" }, t("The AI, at each level chosen")),
        aiBoxes,
      ),
      h("button", { type: "submit", class: "primary" }, t("Start the tournament")),
      this.formError,
    );
    this.sync = () => {
      const values = formValues(form);
      game.sync(values);
      toggleFieldset(rounds, values.format === "swiss");
      toggleFieldset(double, values.format === "round_robin");
      clock.sync(values);
      this.syncEntrants(form, values);
    };
    form.addEventListener("change", this.sync);
    this.sync();
    return form;
  }

  /** Tick every student's box, or clear them all (the "All students" box). */
  tickAll() {
    for (const box of this.studentBoxes.querySelectorAll("input[name=entrant]")) box.checked = this.allStudents.checked;
    this.sync();
  }

  /** The "All students" box and the rounds hints, for the players ticked now. */
  syncEntrants(form, values) {
    const students = [...this.studentBoxes.querySelectorAll("input[name=entrant]")];
    const ticked = students.filter((box) => box.checked).length;
    this.allStudents.checked = students.length > 0 && ticked === students.length;
    this.allStudents.indeterminate = ticked > 0 && ticked < students.length;
    show(this.allStudentsLabel, students.length > 0);
    const players = form.querySelectorAll("input[name=entrant]:checked").length;
    setText(this.swissHint, swissHint(players));
    setText(this.robinHint, roundRobinHint(players, Boolean(values.double)));
  }

  /** Offer the roster's students as entrants (a box ticked stays ticked): `students`
   * are the roster's first page, `total` the roster's length. */
  updateRoster(students, total = students.length) {
    const ids = new Set(students.map((student) => student.id));
    for (const [id, label] of this.students) {
      if (!ids.has(id)) {
        label.remove();
        this.students.delete(id);
      }
    }
    for (const student of students) {
      let label = this.students.get(student.id);
      if (!label) {
        label = entrantBox(`student:${student.id}`, student.name);
        this.students.set(student.id, label);
      }
      const name = student.kind === "bot" ? t("{name} (bot)", { name: student.name }) : student.name;
      setText(label.lastChild, " " + name);
      this.studentBoxes.append(label);
    }
    show(this.noStudents, students.length === 0);
    const more = total > students.length;
    if (more) {
      setText(
        this.moreStudents,
        t("Only the roster's first {count} of its {total} students are listed here.", {
          count: formatNumber(students.length),
          total: formatNumber(total),
        }),
      );
    }
    show(this.moreStudents, more);
    this.sync();
  }

  async create(event, form) {
    event.preventDefault();
    const values = formValues(form);
    const entrants = [...form.querySelectorAll("input[name=entrant]:checked")].map((box) => box.value);
    const body = {
      name: values.name.trim(),
      game: values.game,
      ...familySizes(values),
      format: values.format,
      rounds: values.format === "swiss" && values.rounds ? Number(values.rounds) : null,
      double: values.format === "round_robin" && Boolean(values.double),
      clock: clockFromValues(values),
      no_show_seconds: Number(values.no_show_seconds),
      hints: Boolean(values.hints),
      ...spectatorDelay(values),
      autopilot: values.autopilot,
      entrants,
    };
    show(this.formError, false);
    if (entrants.length < 2) {
      this.showFormError(t("Choose at least two players"));
      return;
    }
    try {
      const answer = await this.api.post("/api/admin/tournaments", body);
      this.update([answer.tournament]);
      this.changed();
    } catch (error) {
      this.showFormError(errorText(error));
    }
  }

  /** The class's autopilot ("off" or a level), named in the form's first choice. */
  setClassAutopilot(choice) {
    if (choice === this.classAutopilot) return;
    this.classAutopilot = choice;
    setText(this.classChoice, t("The class's choice ({choice})", { choice: autopilotName(choice) }));
  }

  showFormError(text) {
    setText(this.formError, text);
    show(this.formError, Boolean(text));
  }

  // -- the tournament ---------------------------------------------------------------------

  /** Show the newest of `tournaments` (GET /api/admin/tournaments, newest first). */
  update(tournaments) {
    const tournament = tournaments[0] ?? null;
    const running = tournament?.status === "running";
    show(this.note, !tournament);
    show(this.current, Boolean(tournament));
    show(this.formPanel, !running);
    show(this.cancel, running);
    this.tournament = tournament;
    tickWaiting(this.tables); // a game's "12 s left" moves on between the changes
    this.lookAgain(tournament);
    const json = JSON.stringify(tournament);
    if (!tournament || json === this.shown) return;
    this.shown = json;
    this.current.dataset.status = tournament.status;
    this.current.dataset.tournament = String(tournament.id);
    setText(this.heading, tournament.name);
    setText(this.line, tournamentLine(tournament));
    setText(
      this.settings,
      t("AI for a player who leaves a game: {choice}", { choice: autopilotName(tournament.autopilot ?? "off") }),
    );
    const part = (title, content) => h("section", { class: "tournament-part" }, h("h4", {}, title), content);
    this.tables.replaceChildren(
      part(t("Standings"), standingsTable(tournament)),
      part(t("Crosstable"), crosstable(tournament)),
      part(t("Rounds"), roundsList(tournament, { reviews: true })),
    );
  }

  /** Ask for the finished `tournament`'s "worth a look" list, at most every LOOK_EVERY_MS. */
  async lookAgain(tournament) {
    if (tournament?.status !== "finished") {
      show(this.look, false);
      return;
    }
    const now = Date.now();
    if (this.lookedAt.id === tournament.id && now - this.lookedAt.at < LOOK_EVERY_MS) return;
    this.lookedAt = { id: tournament.id, at: now };
    let answer;
    try {
      answer = await this.api.get(`/api/admin/tournaments/${tournament.id}/worth-a-look`);
    } catch {
      return; // an older server, or a blip: asked again at the next look
    }
    if (this.tournament?.id !== tournament.id) return;
    const listed = answer.worth_a_look ?? [];
    this.lookList.replaceChildren(...listed.map((found) => this.lookItem(found)));
    show(this.look, listed.length > 0);
  }

  lookItem(found) {
    const percent = (share) => formatNumber(Math.round(share * 100));
    const review = (id) => h("a", { class: "review-link", href: `/#/review/${id}`, target: "_blank" }, `#${id}`);
    const between = (links) => links.flatMap((link, index) => (index ? [" ", link] : [link]));
    return h(
      "li",
      { "data-student": found.student },
      h("strong", {}, found.name),
      " ",
      t(
        "accuracy {accuracy} in {games} tournament games, {usual} in {usual_games} other games; {perfect}% of their moves as good as the engine's",
        {
          accuracy: formatNumber(found.accuracy),
          games: formatNumber(found.games.length),
          usual: formatNumber(found.usual_accuracy),
          usual_games: formatNumber(found.usual_games.length),
          perfect: percent(found.perfect_share),
        },
      ),
      h("br"),
      t("Tournament games:") + " ",
      ...between(found.games.map(review)),
      " · " + t("Other games:") + " ",
      ...between(found.usual_games.map(review)),
    );
  }

  /**
   * The rooms of the running tournament's games not played yet, by room code:
   * who is to sit on each side (`first`, `second`: names) and which game it is
   * (`label`: "Friday cup, round 2"), so that the Rooms list names the players
   * it waits for rather than "empty seat".
   */
  expectedSeats() {
    const seats = new Map();
    const tournament = this.tournament;
    if (tournament?.status !== "running") return seats;
    const names = playerNames(tournament);
    for (const round of tournament.rounds_played ?? []) {
      for (const game of round.games) {
        if (!game.room || game.result) continue;
        seats.set(game.room, {
          first: names.get(game.first) ?? game.first,
          second: names.get(game.second) ?? game.second,
          label: t("{tournament}, round {round}", { tournament: tournament.name, round: round.round }),
        });
      }
    }
    return seats;
  }

  /** The server has no tournaments to offer (an older server): say so, offer nothing. */
  unavailable(error) {
    setText(this.note, t("Tournaments are not available here: {problem}", { problem: errorText(error) }));
    show(this.note, true);
    show(this.current, false);
    show(this.formPanel, false);
  }

  async cancelIt() {
    if (!this.tournament) return;
    show(this.cancelError, false);
    try {
      const answer = await this.api.post(`/api/admin/tournaments/${this.tournament.id}/cancel`);
      this.update([answer.tournament]);
      this.changed();
    } catch (error) {
      setText(this.cancelError, errorText(error));
      show(this.cancelError, true);
    }
  }
}

/**
 * The usual number of rounds for a Swiss of `players`: ceil(log2 N), after which
 * normally no more than one player has won every game (the server's
 * recommended_swiss_rounds, used when the field is left blank).
 */
export function recommendedSwissRounds(players) {
  return players >= 2 ? Math.ceil(Math.log2(players)) : 0;
}

/** The rounds of a round robin of `players`: N-1, N when N is odd (one sits out each round); twice if double. */
export function roundRobinRounds(players, double) {
  if (players < 2) return 0;
  return (players % 2 ? players : players - 1) * (double ? 2 : 1);
}

const playerCount = (count) => tn("{n} player", "{n} players", count);
const roundCount = (count) => tn("{n} round", "{n} rounds", count);

function swissHint(players) {
  if (players < 2) return t("Tick the players to see the recommended number of rounds.");
  const rounds = recommendedSwissRounds(players);
  return t("Recommended for {players}: {rounds} (enough to find a winner).", {
    players: playerCount(players),
    rounds: roundCount(rounds),
  });
}

function roundRobinHint(players, double) {
  if (players < 2) return t("Tick the players to see how many rounds they make.");
  const counts = { players: playerCount(players), rounds: roundCount(roundRobinRounds(players, double)) };
  return players % 2 ? t("{players}: {rounds}, one player sits out each round.", counts) : t("{players}: {rounds}.", counts);
}

/** A checkbox for one entrant: `value` is its entrant id ("student:19ac7041", "ai:easy"). */
function entrantBox(value, label) {
  return h(
    "label",
    { class: "check entrant", dataset: { entrant: value } },
    h("input", { type: "checkbox", name: "entrant", value }),
    ` ${label}`,
  );
}

/** The form's spectator delay as the body gives it: seconds if above 0, else moves (plies). */
function spectatorDelay(values) {
  const seconds = Number(values.spectator_delay_seconds);
  return seconds > 0 ? { spectator_delay_seconds: seconds } : { spectator_delay: Number(values.spectator_delay) };
}
