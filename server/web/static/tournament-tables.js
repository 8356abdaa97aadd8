// tournament-tables.js: a tournament (the TOURNAMENT of the tournament API,
// docs/operations.md) drawn as tables: the standings with their tie-breaks,
// the crosstable, and each round's pairings with their results. The teacher's
// page shows all three; the wall shows the standings, larger.

import { h, setText } from "./dom.js";
import { N_, t, tn } from "./i18n.js";
import { sideMark } from "./side-mark.js";

const TIE_BREAKS = {
  buchholz_cut1: [N_("Bch-1"), N_("Buchholz Cut-1: the opponents' points, less the lowest")],
  buchholz: [N_("Bch"), N_("Buchholz: the opponents' points")],
  sonneborn_berger: [N_("SB"), N_("Sonneborn-Berger: the points of the opponents beaten, and half of those drawn")],
};

const RESULTS = {
  "1-0": "1–0",
  "0-1": "0–1",
  "1/2-1/2": "½–½",
  "+:-": N_("+ – (no-show)"),
  "-:+": N_("– + (no-show)"),
  "-:-": N_("no result (double forfeit)"),
};

/** The results of games played over the board (not forfeits): those have a review. */
const OVER_THE_BOARD = new Set(["1-0", "0-1", "1/2-1/2"]);

/** The AI's levels as people read them (the codes stay English on the wire). */
export const LEVEL_WORDS = {
  random: N_("random"),
  easy: N_("easy"),
  medium: N_("medium"),
  hard: N_("hard"),
  perfect: N_("perfect"),
};

/** The AI at `level` as people read it: "AI (hard)", "IA (difícil)". */
export function aiName(level) {
  return t("AI ({level})", { level: LEVEL_WORDS[level] ? t(LEVEL_WORDS[level]) : level });
}

/** A player's name as the page shows it: the server names its AI players
 * "AI (hard)", which reads in the page's language; people's names stay. */
export function shownName(name) {
  const level = /^AI \((\w+)\)$/.exec(name ?? "")?.[1];
  return level && LEVEL_WORDS[level] ? aiName(level) : name;
}

const STATUS_WORDS = { running: N_("running"), finished: N_("finished"), cancelled: N_("cancelled") };

/** Points as people write them: 2, 2½, ½. */
export function points(value) {
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
}

/** "Round 2 of 3 · Swiss · Connect Four · running". */
export function tournamentLine(tournament) {
  const format = tournament.format === "swiss" ? t("Swiss") : t("round robin");
  const round = tournament.rounds
    ? t("Round {round} of {rounds}", { round: tournament.round, rounds: tournament.rounds })
    : t("Round {round}", { round: tournament.round });
  const status = STATUS_WORDS[tournament.status] ? t(STATUS_WORDS[tournament.status]) : tournament.status;
  return [round, format, t(tournament.title), status].join(" · ");
}

/**
 * The standings, best first, then a legend line. `compact` (the wall): place,
 * name, points, games won-drawn-lost. Won, drawn, lost and played count games
 * played over the board; the "+/−" column shows the rounds that were not (won
 * and lost by forfeit, byes), which score points too.
 */
export function standingsTable(tournament, { compact = false } = {}) {
  const breaks = compact ? [] : (tournament.tie_breaks ?? []).filter((name) => TIE_BREAKS[name]);
  const head = [
    column("#", t("Place")),
    column(t("Player")),
    column(t("Pts"), t("Points")),
    ...(compact
      ? [column(t("W-D-L"), t("Won, drawn, lost"))]
      : [column(t("Played")), column(t("W"), t("Won")), column(t("D"), t("Drawn")), column(t("L"), t("Lost"))]),
    column("+/−", t("Not played over the board: won by forfeit (+), lost by forfeit (−), byes")),
    ...breaks.map((name) => column(...TIE_BREAKS[name].map((words) => t(words)))),
  ];
  const rows = tournament.standings.map((row) =>
    h(
      "tr",
      { dataset: { player: row.player } },
      h("td", { class: "place" }, row.place),
      h("th", { scope: "row", class: "name" }, shownName(row.name)),
      h("td", { class: "points" }, points(row.points)),
      ...(compact
        ? [h("td", {}, `${row.wins}-${row.draws}-${row.losses}`)]
        : [row.played, row.wins, row.draws, row.losses].map((value) => h("td", {}, String(value)))),
      h("td", { class: "unplayed" }, unplayedText(row)),
      ...breaks.map((name) => h("td", {}, points(row[name] ?? 0))),
    ),
  );
  return h(
    "div",
    { class: "standings-block" },
    h(
      "table",
      { class: "standings" },
      h("caption", { class: "offscreen" }, t("Standings")),
      h("thead", {}, h("tr", {}, head)),
      h("tbody", {}, rows),
    ),
    h("p", { class: "legend" }, t(LEGEND)),
  );
}

const LEGEND = N_(
  "W-D-L: games played. +/−: won (+) or lost (−) by forfeit, a player who did not sit down in time; bye: no opponent that round. Each scores like a game.",
);

/** A player's rounds not played over the board: "+1 −1", "bye", "—" for none. */
function unplayedText(row) {
  const parts = [];
  if (row.forfeit_wins) parts.push(`+${row.forfeit_wins}`);
  if (row.forfeit_losses) parts.push(`−${row.forfeit_losses}`);
  if (row.byes) parts.push(tn("bye", "{n} byes", row.byes));
  return parts.join(" ") || "—";
}

/** Who met whom: a row per player in standings order, their results against each column. */
export function crosstable(tournament) {
  const order = tournament.crosstable.map((row) => row.player);
  const names = playerNames(tournament);
  const head = h(
    "tr",
    {},
    column("#"),
    column(t("Player")),
    order.map((player, index) => column(String(index + 1), names.get(player))),
    column(t("Pts"), t("Points")),
  );
  const rows = tournament.crosstable.map((row, index) =>
    h(
      "tr",
      { dataset: { player: row.player } },
      h("td", {}, String(index + 1)),
      h("th", { scope: "row" }, names.get(row.player) ?? row.player),
      order.map((other) =>
        other === row.player
          ? h("td", { class: "self", "aria-label": "—" }, "")
          : h("td", {}, row.cells[other] ?? ""),
      ),
      h("td", { class: "points" }, points(row.points)),
    ),
  );
  return h(
    "table",
    { class: "crosstable" },
    h("caption", { class: "offscreen" }, t("Crosstable")),
    h("thead", {}, head),
    h("tbody", {}, rows),
  );
}

/**
 * Each round's games, latest round first: who plays whom, and how it ended. A
 * game whose room waits for a player says whom and how long is left: call
 * `tickWaiting` on the list to keep that count current. With `reviews` (the
 * teacher's page) a game played to its end links its review (#/review/ID, in a
 * new tab, for the projector).
 */
export function roundsList(tournament, { reviews = false } = {}) {
  const names = playerNames(tournament);
  const name = (id) => names.get(id) ?? id;
  const rounds = [...(tournament.rounds_played ?? [])].reverse();
  return h(
    "div",
    { class: "rounds" },
    rounds.map((round) =>
      h(
        "section",
        { class: "round", dataset: { round: String(round.round) } },
        h("h4", {}, t("Round {round}", { round: round.round })),
        h(
          "ol",
          { class: "pairings" },
          round.games.map((game) =>
            h(
              "li",
              { dataset: { board: String(game.board) } },
              h(
                "span",
                { class: "pairing" },
                `${name(game.first)} (`,
                sideMark("first"),
                `) – ${name(game.second)} (`,
                sideMark("second"),
                ")",
              ),
              gameState(game, tournament, name),
              reviews ? reviewLink(game, name) : null,
            ),
          ),
        ),
        round.bye ? h("p", { class: "bye" }, t("Bye: {name}", { name: name(round.bye) })) : null,
      ),
    ),
  );
}

/** A link to a finished game's review; null for a game not played over the board. */
function reviewLink(game, name) {
  if (!game.result || game.game_id == null || !OVER_THE_BOARD.has(game.result)) return null;
  return h(
    "a",
    {
      class: "review-link",
      href: `/#/review/${game.game_id}`,
      target: "_blank",
      "aria-label": t("Review {first} – {second}", { first: name(game.first), second: name(game.second) }),
    },
    t("Review"),
  );
}

/** How a game stands, as a span: its result, "cancelled", "waiting for ann (12 s left)"… */
function gameState(game, tournament, name) {
  const span = (text, props = {}) => h("span", { class: "game-result", ...props }, text);
  if (game.result === "-:-" && game.seated && !game.seated.first && !game.seated.second) {
    return span(t("– – (both absent)"));
  }
  if (game.result) return span(RESULTS[game.result] ? t(RESULTS[game.result]) : game.result);
  if (tournament.status === "cancelled") return span(t("cancelled"));
  if (!game.room) return span(t("not started"));
  if (game.starts_by && game.seated) {
    const missing = ["first", "second"].filter((side) => !game.seated[side]).map((side) => name(game[side]));
    if (missing.length) {
      const waitingFor = missing.length === 1 ? missing[0] : t("{first} and {second}", { first: missing[0], second: missing[1] });
      const element = span("", { dataset: { startsBy: String(game.starts_by), waitingFor } });
      tickOne(element);
      return element;
    }
  }
  return span(t("playing in room {room}", { room: game.room }));
}

/** Bring the "waiting for … (12 s left)" counts within `element` up to now. */
export function tickWaiting(element) {
  for (const span of element.querySelectorAll(".game-result[data-starts-by]")) tickOne(span);
}

function tickOne(span) {
  const seconds = secondsLeft(Number(span.dataset.startsBy));
  setText(span, t("waiting for {who} ({seconds} s left)", { who: span.dataset.waitingFor, seconds }));
}

/** Whole seconds from now to `startsBy` (Unix seconds), 0 once it has passed. */
export function secondsLeft(startsBy, nowMs = Date.now()) {
  return Math.max(0, Math.round(startsBy - nowMs / 1000));
}

/** The tournament's players' names, by player id. */
export function playerNames(tournament) {
  const names = new Map((tournament.players ?? []).map((player) => [player.id, shownName(player.name)]));
  for (const row of tournament.standings ?? []) names.set(row.player, shownName(row.name));
  return names;
}

function column(text, title = null) {
  return h("th", { scope: "col", title }, text);
}
