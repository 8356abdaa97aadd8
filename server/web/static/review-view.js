// review-view.js: a finished game's review, at #/review/GAME_ID: the engine's
// judgement of every move (GET /api/games/{id}/analysis, docs/protocol.md), as
// Lichess shows a chess game's analysis. The board steps through the moves
// (the buttons under it, the arrow keys, Home and End, or a click on a move,
// a turning point or a point of the graph); the move list marks each move
// (?! inaccuracy, ? mistake, ?? blunder, in their colours) and names the
// engine's better move after a mistake or a blunder, and badges a move played
// after a hint ("hint"); the graph plots the first player's winning chances
// after each move (-1 a loss, +1 a win), exact values as filled points and
// estimates hollow on a dashed line, a blunder (a move proven to lower the
// game's value) marked "??" over its point; then each player's accuracy (with
// the hints each used, if any) and the turning points. A review whose
// judgements rest on estimates (gomoku, large boards) says so above the graph. The server analyses a game
// on the first request and answers 202 with the moves done so far until it
// has them all: the page asks again every second and fills them in as they come.
//
// It needs no session: a teacher opens it on the projector from the teacher's
// page, a player from the end of a game.

import { createBoard } from "./board.js";
import { shapeOf, stonesOf } from "./board-rows.js";
import { button, h, setText, show } from "./dom.js";
import { SYMBOLS } from "./room-state.js";
import { sideMark } from "./side-mark.js";
import { formatNumber, t, tn } from "./i18n.js";
import { gameTitle, judgementText, reasonWords, REVIEW, shownName, turningPointText, valueText } from "./words.js";

const POLL_MS = 1000; // while the analysis runs (the endpoint's contract)
const RETRY_MS = 3000; // after a failed request (the connection dropped)

/** Lichess's marks; best, good and forced moves are left plain. */
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

// The SVG namespace, as the HTML parser gives an <svg> (so that no file of the
// client names an outside address, not even a namespace's).
const SVG = svgNamespace();
const GRAPH = { width: 300, height: 120, pad: 6 };

/** The first player's winning chances after a reviewed move (the graph's value). */
export function firstChances(review) {
  return review.side === "first" ? review.chances_after : -review.chances_after;
}

/** A translated sentence with its {placeholders} replaced by `parts` (each a list of
 * nodes and text): the words between them stay where the language puts them. */
function withParts(sentence, parts) {
  return sentence.split(/(\{\w+\})/).flatMap((piece) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    return name && parts[name] ? parts[name] : piece ? [piece] : [];
  });
}

/** "X won (line)", "draw (full board)", "no result". */
function resultText(body) {
  const result = body.result;
  if (!result) return t("no result");
  const winner = result.winner;
  const how = result.reason ? reasonWords(result.reason) : "";
  if (winner === "first" || winner === "second") {
    const who = `${SYMBOLS[winner]} ${shownName(body.players?.[winner]) ?? ""}`;
    return how ? t("{winner} won ({how})", { winner: who, how }) : t("{winner} won", { winner: who });
  }
  return how ? t("draw ({how})", { how }) : t("draw");
}

export class ReviewView {
  /** `app` gives the way back to the lobby (main.js); `gameId` is the address's id (text). */
  constructor(app, gameId) {
    this.app = app;
    this.gameId = gameId;
    this.body = null; // the last answer
    this.moves = []; // the game's moves, in its notation
    this.at = 0; // plies shown on the board: 0 the start, moves.length the end
    this.timer = null;
    this.gone = false;
    this.build();
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    if (/^[0-9]+$/.test(gameId)) this.load();
    else this.say(t('"{id}" is not a game id: a game id is a number, like 12.', { id: gameId }), "error");
  }

  // -- building -------------------------------------------------------------------

  build() {
    this.title = h("h2", { class: "room-title", id: "review-title", tabindex: "-1" }, t("Review of game {id}", { id: this.gameId }));
    this.meta = h("p", { class: "room-meta" });
    this.status = h("p", { class: "review-status", role: "status", "aria-live": "polite" });
    this.frame = h("div", { class: "board-frame" });
    this.now = h("p", { class: "review-now", "aria-live": "polite" });
    this.steps = {
      first: button("|◀", () => this.go(0), { "aria-label": t("Start of the game"), title: t("Start (Home)") }),
      previous: button("◀", () => this.go(this.at - 1), { "aria-label": t("Previous move"), title: t("Previous (←)") }),
      next: button("▶", () => this.go(this.at + 1), { "aria-label": t("Next move"), title: t("Next (→)") }),
      last: button("▶|", () => this.go(this.moves.length), { "aria-label": t("Last move"), title: t("End (End)") }),
    };
    const controls = h(
      "div",
      { class: "review-controls", role: "group", "aria-label": t("Step through the game") },
      Object.values(this.steps),
    );
    this.graph = document.createElementNS(SVG, "svg");
    this.graph.setAttribute("class", "review-graph");
    this.graph.setAttribute("viewBox", `0 0 ${GRAPH.width} ${GRAPH.height}`);
    this.graph.setAttribute("role", "img");
    this.graph.setAttribute("aria-label", t("Winning chances of X after each move"));
    const legend = h(
      "p",
      { class: "graph-legend" },
      h("span", { class: "legend-exact" }, t("exact")),
      h("span", { class: "legend-estimate" }, t("estimate")),
      h("span", { class: "legend-blunder" }, REVIEW.blunderLegend),
      h("span", { class: "legend-note" }, t("X's chances: up X wins, down O wins")),
    );
    this.estimated = h("p", { class: "review-estimated", role: "note" }, REVIEW.estimated);
    show(this.estimated, false);
    this.accuracy = h("p", { class: "review-accuracy" });
    this.turningPoints = h("ol", { class: "turning-points" });
    this.moveList = h("ol", { class: "review-moves", "aria-label": t("Moves") });
    this.element = h(
      "section",
      { class: "review-view", "aria-labelledby": this.title.id, dataset: { gameId: this.gameId, ply: "0" } },
      h(
        "div",
        { class: "review-main" },
        h(
          "header",
          { class: "room-head" },
          h("div", {}, this.title, this.meta),
          h("a", { class: "quiet-link", href: "#/" }, t("← Lobby")),
        ),
        this.status,
        this.frame,
        controls,
        this.now,
      ),
      h(
        "aside",
        { class: "review-side" },
        this.estimated,
        h("figure", { class: "review-figure" }, this.graph, legend),
        this.accuracy,
        h("section", { "aria-labelledby": "turning-title" }, h("h3", { id: "turning-title" }, t("Turning points")), this.turningPoints),
        h("section", { class: "review-moves-box", "aria-labelledby": "moves-title" }, h("h3", { id: "moves-title" }, t("Moves")), this.moveList),
      ),
    );
    document.title = this.title.textContent + " · Boardroom";
    this.drawSteps();
  }

  // -- loading --------------------------------------------------------------------

  async load() {
    if (this.gone) return;
    let response;
    let body = null;
    try {
      response = await fetch(`/api/games/${this.gameId}/analysis`, { cache: "no-store" });
      body = await response.json().catch(() => null);
    } catch {
      if (this.gone) return;
      this.say(t("Could not reach the server: trying again…"), "error");
      this.later(RETRY_MS);
      return;
    }
    if (this.gone) return;
    if (response.status === 200 || response.status === 202) {
      this.take(body);
      if (response.status === 202 || !body.complete) this.later(POLL_MS);
      return;
    }
    const code = body?.error;
    if (response.status === 404 || code === "unknown_game_record") {
      this.say(t("There is no game {id} on this server.", { id: this.gameId }), "error");
    } else if (code === "game_in_progress" || (response.status === 409 && !code)) {
      this.say(t("This game is still being played: its review opens once it is over."), "error");
    } else if (response.status === 503 || code === "engine_busy") {
      const seconds = Number(body?.retry_after ?? response.headers.get("Retry-After")) || 5;
      this.say(t("The engine is busy with other reviews: trying again in {seconds} s…", { seconds }), "busy");
      this.later(seconds * 1000);
    } else {
      const reason = body?.message ?? `HTTP ${response.status}`;
      this.say(t("The server could not review this game: {reason}", { reason }), "error");
    }
  }

  later(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.load(), ms);
  }

  say(text, kind) {
    setText(this.status, text);
    this.status.dataset.kind = kind;
  }

  /** Take an answer of the endpoint: draw what is new. */
  take(body) {
    const first = this.body === null;
    this.body = body;
    // The server's boards, one before the first move and one after each: the
    // page steps through them, with no rules of its own.
    const shape = shapeOf(body.boards?.[0], body.board_kind);
    if (first) {
      this.shape = shape;
      this.moves = shape ? (body.move_list ?? []) : [];
      this.board = shape
        ? createBoard(body.game, shape, () => {})
        : { element: h("p", {}, t("This page cannot draw {game}: reload it for the newest version.", { game: body.game })), update() {} };
      // Read-only: the cells stay readable (their names and stones) but take no clicks or focus.
      for (const cell of this.board.element.querySelectorAll("button")) cell.disabled = true;
      this.board.element.classList.add("readonly");
      if (shape) this.frame.style.setProperty("--columns", shape.columns);
      if (shape) this.frame.style.setProperty("--rows", shape.rows);
      this.element.classList.toggle("gravity", shape?.kind === "columns");
      this.frame.replaceChildren(this.board.element);
      const game = body.title ? gameTitle(body.title) : body.game;
      setText(this.title, t("Review: {game}, game {id}", { game, id: body.game_id }));
      document.title = t("Review: {game} {id}", { game, id: body.game_id }) + " · Boardroom";
    }
    const players = body.players ?? {};
    const side = (which) => [sideMark(which), ` ${shownName(players[which]) ?? "?"}`];
    this.meta.replaceChildren(
      ...withParts(t("{first} v {second}"), { first: side("first"), second: side("second") }),
      ` · ${resultText(body)}`,
    );
    const done = body.reviews.length;
    this.element.dataset.reviewed = String(done);
    this.element.dataset.complete = body.complete ? "true" : "";
    if (body.complete) this.say(tn("Analysis complete: {n} move reviewed.", "Analysis complete: {n} moves reviewed.", done), "done");
    else this.say(t("Analysing… {done} of {total}", { done, total: body.total }), "running");
    show(this.estimated, Boolean(body.estimated));
    this.drawMoves();
    this.drawAccuracy();
    this.drawTurningPoints();
    this.draw();
  }

  // -- drawing --------------------------------------------------------------------

  /** The board, the line about the move shown, the buttons, the marks of where we are. */
  draw() {
    this.element.dataset.ply = String(this.at);
    if (this.shape) {
      const end = this.at === this.moves.length;
      this.board.update({
        stones: stonesOf(this.body.boards[this.at]),
        lastMove: this.moves[this.at - 1] ?? null,
        winningCells: end ? (this.body?.result?.line ?? []) : [],
        allows: () => false,
      });
    }
    setText(this.now, this.nowText());
    this.drawSteps();
    for (const item of this.moveList.children) {
      const current = Number(item.dataset.ply) === this.at - 1;
      const entry = item.firstElementChild;
      if (current) entry.setAttribute("aria-current", "step");
      else entry.removeAttribute("aria-current");
    }
    this.drawGraph();
  }

  nowText() {
    if (this.at === 0) return tn("Start: {n} move to go", "Start: {n} moves to go", this.moves.length);
    const ply = this.at - 1;
    const review = this.body?.reviews[ply];
    const side = ply % 2 === 0 ? "first" : "second";
    const move = { number: this.at, total: this.moves.length, side: SYMBOLS[side], move: this.moves[ply] };
    if (!review) return t("Move {number} of {total}: {side} {move} (not analysed yet)", move);
    const judged = { ...move, mark: MARKS[review.judgement] ?? "", judgement: judgementText(review.judgement), value: valueText(review.value_after) };
    let text = review.exact_after
      ? t("Move {number} of {total}: {side} {move}{mark}, {judgement}; after it {value}", judged)
      : t("Move {number} of {total}: {side} {move}{mark}, {judgement}; after it {value} (estimate)", judged);
    if (betterMove(review)) text = t("{text}; better was {best}", { text, best: review.best });
    return text;
  }

  drawSteps() {
    const n = this.moves.length;
    this.steps.first.disabled = this.at === 0;
    this.steps.previous.disabled = this.at === 0;
    this.steps.next.disabled = this.at >= n;
    this.steps.last.disabled = this.at >= n;
  }

  /** One entry per move; a move not analysed yet shows plain until its review comes. */
  drawMoves() {
    const reviews = this.body.reviews;
    if (this.moveList.children.length !== this.moves.length) {
      this.moveList.replaceChildren(
        ...this.moves.map((move, ply) =>
          h("li", { dataset: { ply: String(ply) } }, button(move, () => this.go(ply + 1), { class: "review-move" })),
        ),
      );
    }
    [...this.moveList.children].forEach((item, ply) => {
      const review = reviews[ply];
      const key = review ? review.judgement : "pending";
      const hint = review?.hint ?? null; // the engine's hint the mover asked for before it
      const byEngine = (this.body.autopilot ?? []).includes(ply); // the autopilot's move
      if (item.dataset.judgement === key && (item.dataset.hint ?? null) === (hint ?? null) && item.dataset.autopilot === String(byEngine)) return;
      item.dataset.autopilot = String(byEngine);
      item.dataset.judgement = key;
      if (hint) item.dataset.hint = hint;
      else delete item.dataset.hint;
      const side = ply % 2 === 0 ? "first" : "second";
      const entry = item.firstElementChild;
      const parts = [h("span", { class: "move-number" }, `${ply + 1}.`), sideMark(side), ` ${this.moves[ply]}`];
      const label = [t("Move {number}, {side} {move}", { number: ply + 1, side: SYMBOLS[side], move: this.moves[ply] })];
      if (byEngine) {
        // The player was away: the server's engine made this move for them.
        const title = t("played by the engine while the player was away");
        parts.push(h("span", { class: "autopilot-badge", title }, t("AI")));
        label.push(title);
      }
      if (!review) {
        parts.push(h("span", { class: "move-pending" }, " …"));
        label.push(t("not analysed yet"));
      } else {
        const mark = MARKS[review.judgement];
        if (mark) parts.push(h("span", { class: "move-mark" }, mark));
        label.push(judgementText(review.judgement));
        if (review.judgement === "forced") parts.push(h("span", { class: "move-note" }, " " + judgementText("forced")));
        if (betterMove(review)) {
          parts.push(h("span", { class: "move-better" }, " " + t("better: {best}", { best: review.best })));
          label.push(t("better was {best}", { best: review.best }));
        }
        if (hint) {
          // A hinted move is the engine's as much as the player's: the badge says so.
          const played = hint === this.moves[ply];
          const title = played ? t("played the hint") : t("asked for a hint ({hint}), played another move", { hint });
          parts.push(h("span", { class: "hint-badge", title }, played ? t("hint") : t("hint: {hint}", { hint })));
          label.push(title);
        }
      }
      entry.replaceChildren(...parts);
      entry.setAttribute("aria-label", label.join(", "));
      entry.className = `review-move ${key}`;
    });
  }

  drawAccuracy() {
    const accuracy = this.body.accuracy ?? {};
    const players = this.body.players ?? {};
    const parts = [t("Accuracy:") + " "];
    for (const side of ["first", "second"]) {
      if (side === "second") parts.push(" · ");
      const figure = accuracy[side];
      const percent = typeof figure === "number" ? formatNumber(figure / 100, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }) : "–";
      parts.push(sideMark(side), ` ${shownName(players[side]) ?? "?"} `, h("strong", { dataset: { side } }, percent));
    }
    if (!this.body.complete) parts.push(" " + t("(so far)"));
    const hints = this.body.hints;
    if (hints && (hints.first || hints.second)) {
      // The hints each player asked for, beside their accuracy: a hinted move is the
      // engine's. A game played without any says nothing of them.
      const counts = ["first", "second"].map((side) => `${SYMBOLS[side]} ${hints[side] ?? 0}`).join(", ");
      parts.push(h("span", { class: "review-hints" }, " · " + t("Hints used: {counts}", { counts })));
    }
    this.accuracy.replaceChildren(...parts);
  }

  drawTurningPoints() {
    const points = this.body.turning_points ?? [];
    const key = points.map((point) => point.ply).join();
    if (this.turningPoints.dataset.shown === key && points.length) return;
    this.turningPoints.dataset.shown = key;
    if (!points.length) {
      const none = this.body.complete ? t("None: no move changed the game's course.") : t("None so far.");
      this.turningPoints.replaceChildren(h("li", { class: "none" }, none));
      return;
    }
    this.turningPoints.replaceChildren(
      ...points.map((point) =>
        h("li", {}, button(turningPointText(point, this.body.reviews[point.ply]), () => this.go(point.ply + 1), { class: "quiet turning-point", dataset: { ply: String(point.ply) } })),
      ),
    );
  }

  /** The first player's chances after each move: a line through the points, dashed
   * where a value is an estimate, filled points exact, hollow ones estimates. */
  drawGraph() {
    const { width, height, pad } = GRAPH;
    const reviews = this.body?.reviews ?? [];
    const n = Math.max(1, this.moves.length);
    const x = (plies) => (plies / n) * width;
    const y = (chances) => height / 2 - chances * (height / 2 - pad);
    const nodes = [
      svg("line", { class: "graph-axis", x1: 0, y1: height / 2, x2: width, y2: height / 2 }),
    ];
    if (this.at > 0) nodes.push(svg("line", { class: "graph-now", x1: x(this.at), y1: 0, x2: x(this.at), y2: height }));
    let previous = null;
    if (reviews.length) {
      const start = reviews[0];
      const chances = start.side === "first" ? start.chances_before : -start.chances_before;
      previous = { x: 0, y: y(chances), exact: start.exact_before };
    }
    const points = [];
    reviews.forEach((review, ply) => {
      const point = { x: x(ply + 1), y: y(firstChances(review)), exact: review.exact_after };
      if (previous) {
        const exact = previous.exact && point.exact;
        nodes.push(svg("line", { class: exact ? "graph-line" : "graph-line estimate", x1: previous.x, y1: previous.y, x2: point.x, y2: point.y }));
      }
      previous = point;
      const circle = svg("circle", {
        class: `graph-point ${point.exact ? "exact" : "estimate"} ${review.judgement}${ply + 1 === this.at ? " current" : ""}`,
        cx: point.x,
        cy: point.y,
        r: ply + 1 === this.at ? 4.5 : 3,
        "data-ply": ply,
      });
      const title = svg("title", {});
      const step = { number: ply + 1, move: this.moves[ply], mark: MARKS[review.judgement] ?? "", value: valueText(review.value_after) };
      title.textContent = review.exact_after
        ? t("Move {number}: {move}{mark}, {value}", step)
        : t("Move {number}: {move}{mark}, {value} (estimate)", step);
      circle.append(title);
      circle.addEventListener("click", () => this.go(ply + 1));
      points.push(circle);
      if (review.judgement === "blunder") {
        // "??" over (or, near the top, under) the point: the move that changed the game.
        const above = point.y > 14;
        const mark = svg("text", { class: "graph-mark blunder", x: point.x, y: above ? point.y - 6 : point.y + 14, "text-anchor": "middle", "data-ply": ply });
        mark.textContent = MARKS.blunder;
        mark.addEventListener("click", () => this.go(ply + 1));
        points.push(mark);
      }
    });
    this.graph.replaceChildren(...nodes, ...points);
  }

  // -- acting ---------------------------------------------------------------------

  /** Show the position after `plies` moves (clamped to the game). */
  go(plies) {
    const at = Math.max(0, Math.min(this.moves.length, plies));
    if (at === this.at) return;
    this.at = at;
    this.draw();
    const item = this.moveList.children[at - 1];
    item?.scrollIntoView({ block: "nearest" });
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    const step = {
      ArrowLeft: () => this.go(this.at - 1),
      ArrowRight: () => this.go(this.at + 1),
      Home: () => this.go(0),
      End: () => this.go(this.moves.length),
    }[event.key];
    if (!step) return;
    event.preventDefault();
    step();
  }

  focus() {
    this.title.focus();
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.timer);
    document.removeEventListener("keydown", this.onKey);
  }
}

/** A mistake or blunder whose better move the engine named. */
function betterMove(review) {
  return (review.judgement === "mistake" || review.judgement === "blunder") && review.best && review.best !== review.move;
}

function svgNamespace() {
  const holder = document.createElement("div");
  holder.innerHTML = "<svg></svg>";
  return holder.firstElementChild.namespaceURI;
}

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}
