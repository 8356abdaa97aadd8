// wall.js: the wall for a classroom projector (/wall#token=TOKEN, class mode):
// every room as a small live board (wall-tile.js), polled every second from
// GET /api/admin/rooms with the token from the address; "Paused by the
// teacher" across the top while the games are paused; and the tournament's
// standings (GET /api/tournaments/current) beside the boards, hidden when
// there is none. The boards share the screen: the grid picks the number of
// columns that gives each board the most room. Games in progress come first; a
// finished game stays FINISHED_SHOWN_S seconds from when the wall first saw it
// finished (`#token=…&finished=SECONDS` sets another time), then gives its
// place to the live ones. A game whose players all left as it ended (bots do)
// is no room any more: the API lists it under `ended` for 30 s, and the wall
// shows it as any finished game. A tournament game waiting for its players
// names who has not sat down and the time left, from the tournament's pairings.

import { h, placeInOrder, setText, show } from "./dom.js";
import { AdminApi, errorText, takeToken } from "./teacher-api.js";
import { playerNames, standingsTable, tournamentLine } from "./tournament-tables.js";
import { WallTile } from "./wall-tile.js";

const POLL_MS = 1000; // a move shows within a second, at a cost of two small requests
const TOURNAMENT_EVERY = 3; // polls between two looks at the tournament
const TILE_RATIO = 1.3; // a tile's height for its width: names above the board, a line below
const FINISHED_SHOWN_S = 30; // long enough to read a result, short enough not to bury live games

class Wall {
  constructor(token) {
    this.api = new AdminApi(token);
    this.rooms = document.getElementById("wall-rooms");
    this.tournament = document.getElementById("wall-tournament");
    this.paused = document.getElementById("wall-paused");
    this.tiles = new Map(); // room code -> WallTile
    this.pairings = new Map(); // room code -> its tournament game: { first, second, startsBy }
    this.finishedAt = new Map(); // room code -> when the wall first saw its game finished (ms)
    this.finishedShownMs = finishedShownSeconds() * 1000;
    this.polls = 0;
    this.shownCount = 0; // tiles on the wall now
    this.polling = false;
    this.tournamentShown = null;
    this.empty = h("p", { class: "wall-message" }, "No games yet.");
    window.addEventListener("resize", () => this.layout());
  }

  start() {
    this.poll();
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      const lookAtTournament = this.polls % TOURNAMENT_EVERY === 0;
      this.polls += 1;
      const [summary, rooms, tournament] = await Promise.all([
        this.api.get("/api/admin/class"),
        this.api.get("/api/admin/rooms"),
        lookAtTournament ? this.currentTournament() : undefined,
      ]);
      this.showClass(summary);
      if (tournament !== undefined) this.showTournament(tournament);
      const open = new Set(rooms.rooms.map((room) => room.code));
      this.showRooms([...rooms.rooms, ...(rooms.ended ?? []).filter((room) => !open.has(room.code))]);
    } catch (error) {
      if (error.unauthorized || error.code === "class_mode_off") {
        clearInterval(this.timer);
        message(error.unauthorized ? "Wrong link: open the wall from the teacher's page." : errorText(error));
        return;
      }
      setText(document.getElementById("wall-counts"), `${errorText(error)} Trying again…`);
    } finally {
      this.polling = false;
    }
  }

  /** The running tournament, else the latest one; null if there is none. */
  async currentTournament() {
    try {
      return (await this.api.get("/api/tournaments/current")).tournament ?? null;
    } catch (error) {
      if (error.status !== 404) throw error;
      return null;
    }
  }

  showClass(summary) {
    setText(document.getElementById("wall-title"), `Class ${summary.class}`);
    document.title = `${summary.class} · Wall · Boardroom`;
    const games = summary.games_in_progress;
    setText(document.getElementById("wall-counts"), `${games} ${games === 1 ? "game" : "games"} in progress`);
    show(this.paused, summary.paused);
    document.body.classList.toggle("class-paused", summary.paused);
  }

  showRooms(rooms) {
    const codes = new Set(rooms.map((room) => room.code));
    for (const [code, tile] of this.tiles) {
      if (!codes.has(code)) {
        tile.element.remove();
        this.tiles.delete(code);
        this.finishedAt.delete(code);
      }
    }
    const now = Date.now();
    for (const room of rooms) {
      const tile = this.tiles.get(room.code);
      const pairing = this.pairings.get(room.code) ?? null;
      if (tile) tile.update(room, pairing);
      else this.tiles.set(room.code, new WallTile(room, pairing));
      if (room.status !== "finished") this.finishedAt.delete(room.code); // a rematch began
      else if (!this.finishedAt.has(room.code)) this.finishedAt.set(room.code, now);
    }
    const recent = (room) => now - this.finishedAt.get(room.code) < this.finishedShownMs;
    const live = rooms.filter((room) => room.status !== "finished");
    const finished = rooms.filter((room) => room.status === "finished" && recent(room));
    const elements = [...live, ...finished].map((room) => this.tiles.get(room.code).element);
    const before = [...this.rooms.children];
    placeInOrder(this.rooms, elements.length ? elements : [this.empty]);
    this.shownCount = elements.length;
    const after = [...this.rooms.children];
    if (before.length !== after.length || before.some((element, index) => element !== after[index])) this.layout();
  }

  showTournament(tournament) {
    this.pairings = pairingsOf(tournament);
    show(this.tournament, Boolean(tournament));
    document.body.classList.toggle("with-tournament", Boolean(tournament));
    const json = JSON.stringify(tournament);
    if (json !== this.tournamentShown) {
      this.tournamentShown = json;
      if (tournament) {
        this.tournament.dataset.tournament = String(tournament.id);
        this.tournament.replaceChildren(
          h("h2", { id: "wall-tournament-name" }, tournament.name),
          h("p", { class: "wall-tournament-line" }, tournamentLine(tournament)),
          standingsTable(tournament, { compact: true }),
        );
      }
    }
    this.layout();
  }

  /** As many columns as give each board the most room on this screen. */
  layout() {
    const count = this.shownCount;
    if (!count) return;
    const { width, height } = this.rooms.getBoundingClientRect();
    let best = { columns: 1, size: 0 };
    for (let columns = 1; columns <= count; columns += 1) {
      const rows = Math.ceil(count / columns);
      const size = Math.min(width / columns, height / rows / TILE_RATIO);
      if (size > best.size) best = { columns, size };
    }
    this.rooms.style.setProperty("--wall-columns", best.columns);
    this.rooms.style.setProperty("--wall-rows", Math.ceil(count / best.columns));
  }
}

/** Each tournament game with a room, by room code: its players' names and its no-show deadline. */
function pairingsOf(tournament) {
  const pairings = new Map();
  if (!tournament) return pairings;
  const names = playerNames(tournament);
  for (const round of tournament.rounds_played ?? []) {
    for (const game of round.games) {
      if (!game.room) continue;
      pairings.set(game.room, {
        first: names.get(game.first) ?? game.first,
        second: names.get(game.second) ?? game.second,
        startsBy: game.starts_by ?? null,
      });
    }
  }
  return pairings;
}

/** How long a finished game stays on the wall: the fragment's `finished`, else the default. */
function finishedShownSeconds(hash = location.hash) {
  const value = Number(new URLSearchParams(hash.replace(/^#/, "")).get("finished"));
  return Number.isFinite(value) && value > 0 ? value : FINISHED_SHOWN_S;
}

function message(text) {
  document.getElementById("wall-rooms").replaceChildren(h("p", { class: "wall-message", role: "alert" }, text));
  show(document.getElementById("wall-tournament"), false);
}

const token = takeToken(); // out of the address at once, kept in this tab
if (token) new Wall(token).start();
else message("This wall needs the teacher's token: open it from the teacher's page.");
