// wall.js: the wall for a classroom projector (/wall#token=TOKEN, class mode):
// every room as a small live board (wall-tile.js), polled every second from
// GET /api/admin/rooms with the token from the address; "Paused by the
// teacher" across the top while the games are paused; the teacher's last
// message under the title for ten minutes (the class summary carries it); and
// the running tournament's standings (GET /api/tournaments/current) beside the
// boards, a finished one's podium as a strip at the bottom. Games in progress
// come first; a finished game stays FINISHED_SHOWN_S seconds from when the wall
// first saw it finished (`#token=…&finished=SECONDS` sets another time), then
// gives its place to the live ones. A game whose players all left as it ended
// (bots do) is no room any more: the API lists it under `ended` for 30 s, and
// the wall shows it as any finished game. A tournament game waiting for its
// players names who has not sat down and the time left, from the tournament's
// pairings.
//
// The boards share the screen, but none shrinks past legibility: a tile is at
// least MIN_TILE_WIDTH_PX wide and its board at least MIN_BOARD_PX tall. When
// the games do not all fit at that size, they are shown a page at a time, the
// pages (of equal size) turning every PAGE_SECONDS (`&page=SECONDS` sets
// another time), with "Page 1/3" in the top right corner.

import { formatNumber, t, tn } from "./i18n.js"; // first: the catalogue is loaded before any module shows a word
import { h, placeInOrder, setText, show } from "./dom.js";
import { AdminApi, errorText, takeToken } from "./teacher-api.js";
import { playerNames, points, shownName, standingsTable, tournamentLine } from "./tournament-tables.js";
import { WallTile } from "./wall-tile.js";

const POLL_MS = 1000; // a move shows within a second, at a cost of two small requests
const TOURNAMENT_EVERY = 3; // polls between two looks at the tournament
const FINISHED_SHOWN_S = 30; // long enough to read a result, short enough not to bury live games
const PAGE_SECONDS = 12; // time to find one's own game on a page and see its position
const MIN_BOARD_PX = 132; // a board's height at the least: stones and discs still read from the back of the room
const MIN_TILE_WIDTH_PX = 230; // a name of ten letters, and the game's title with the room code, on one line
const WIDEST_BOARD = 6 / 7; // height for width of the widest board (Connect Four): the one the width limits first
const PODIUM = 3; // places a finished tournament's strip names

/** The wall's own words, in one place (the boards' words are words.js's). */
const WORDS = {
  noGames: t("No games yet."),
  page: (page, pages) => t("Page {page}/{pages}", { page: formatNumber(page), pages: formatNumber(pages) }),
  games: (count) => tn("{n} game in progress", "{n} games in progress", count),
  podium: (tournament, places) => t("{tournament}, finished: {places}", { tournament: tournament.name, places }),
  place: (row, pts) =>
    row.points > 0 && row.points <= 1
      ? t("{place}. {name} {points} pt", { place: row.place, name: shownName(row.name), points: pts })
      : t("{place}. {name} {points} pts", { place: row.place, name: shownName(row.name), points: pts }),
  wrongLink: t("Wrong link: open the wall from the teacher's page."),
  retrying: (problem) => t("{problem} Trying again…", { problem }),
  noToken: t("This wall needs the teacher's token: open it from the teacher's page."),
  className: (name) => t("Class {name}", { name }),
  pageTitle: (name) => t("{class_name} · Wall · Boardroom", { class_name: name }),
};

class Wall {
  /** `options`: `{ finishedSeconds, pageSeconds }` from the address (`fragmentOptions`). */
  constructor(token, options) {
    this.api = new AdminApi(token);
    this.rooms = document.getElementById("wall-rooms");
    this.tournament = document.getElementById("wall-tournament");
    this.strip = document.getElementById("wall-tournament-strip");
    this.paused = document.getElementById("wall-paused");
    this.announcement = document.getElementById("wall-announcement");
    this.pageMark = document.getElementById("wall-page");
    this.tiles = new Map(); // room code -> WallTile
    this.pairings = new Map(); // room code -> its tournament game: { first, second, startsBy }
    this.finishedAt = new Map(); // room code -> when the wall first saw its game finished (ms)
    this.finishedShownMs = options.finishedSeconds * 1000;
    this.pageMs = options.pageSeconds * 1000;
    this.polls = 0;
    this.polling = false;
    this.tournamentShown = null;
    this.shown = null; // the tiles' elements to show, in order, over every page (null: not polled yet)
    this.page = 0; // the page on screen, from 0
    this.empty = h("p", { class: "wall-message" }, WORDS.noGames);
    // The room the boards have changes with the window, the message line and
    // the standings' column: lay the boards out again whenever it does.
    new ResizeObserver(() => this.render()).observe(this.rooms);
  }

  start() {
    this.poll();
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.pageTimer = setInterval(() => this.turnPage(), this.pageMs);
  }

  /** The next page, after the last the first; nothing with one page. */
  turnPage() {
    const pages = Number(this.rooms.dataset.pages ?? 1);
    if (pages <= 1) return;
    this.page = (this.page + 1) % pages;
    this.render();
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
        clearInterval(this.pageTimer);
        message(error.unauthorized ? WORDS.wrongLink : errorText(error));
        return;
      }
      setText(document.getElementById("wall-counts"), WORDS.retrying(errorText(error)));
    } finally {
      this.polling = false;
    }
  }

  /** The running tournament, else the latest finished one; null if there is none. */
  async currentTournament() {
    return (await this.api.get("/api/tournaments/current")).tournament ?? null;
  }

  showClass(summary) {
    setText(document.getElementById("wall-title"), WORDS.className(summary.class));
    document.title = WORDS.pageTitle(summary.class);
    setText(document.getElementById("wall-counts"), WORDS.games(summary.games_in_progress));
    show(this.paused, summary.paused);
    document.body.classList.toggle("class-paused", summary.paused);
    const said = summary.announcement ?? null;
    if (said) setText(this.announcement.querySelector(".wall-announcement-text"), said.text);
    show(this.announcement, Boolean(said));
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
    this.shown = [...live, ...finished].map((room) => this.tiles.get(room.code).element);
    this.render();
  }

  /**
   * Put the current page's tiles on the wall, in a grid that gives each board
   * the most room (see `plan`), and say which page it is.
   */
  render() {
    if (!this.shown) return; // "Loading…" until the first answer
    const count = this.shown.length;
    if (!count) {
      placeInOrder(this.rooms, [this.empty]);
      this.rooms.dataset.pages = "1";
      show(this.pageMark, false);
      return;
    }
    // A tile on the wall to measure what its names and lines take.
    if (!this.rooms.contains(this.shown[0])) placeInOrder(this.rooms, [this.shown[0]]);
    const { columns, rows, perPage, pages } = plan(this.shown, this.rooms);
    this.page = Math.min(this.page, pages - 1);
    placeInOrder(this.rooms, this.shown.slice(this.page * perPage, (this.page + 1) * perPage));
    this.rooms.style.setProperty("--wall-columns", columns);
    this.rooms.style.setProperty("--wall-rows", rows);
    Object.assign(this.rooms.dataset, { page: String(this.page + 1), pages: String(pages) });
    setText(this.pageMark, WORDS.page(this.page + 1, pages));
    show(this.pageMark, pages > 1);
  }

  /**
   * A running tournament's standings take a column beside the boards; once
   * it is over, its podium shrinks to a strip at the bottom, and the boards
   * have the screen back.
   */
  showTournament(tournament) {
    this.pairings = pairingsOf(tournament);
    const running = tournament?.status === "running";
    const over = Boolean(tournament) && !running;
    show(this.tournament, running);
    show(this.strip, over);
    document.body.classList.toggle("with-tournament", running);
    const json = JSON.stringify(tournament);
    if (json === this.tournamentShown) return;
    this.tournamentShown = json;
    if (running) {
      this.tournament.dataset.tournament = String(tournament.id);
      this.tournament.replaceChildren(
        h("h2", { id: "wall-tournament-name" }, tournament.name),
        h("p", { class: "wall-tournament-line" }, tournamentLine(tournament)),
        standingsTable(tournament, { compact: true }),
      );
    } else if (over) {
      this.strip.dataset.tournament = String(tournament.id);
      const podium = tournament.standings.slice(0, PODIUM).map((row) => WORDS.place(row, points(row.points)));
      setText(this.strip, WORDS.podium(tournament, podium.join(" · ")));
    }
  }
}

/**
 * The grid for the elements `tiles` in the element `rooms`, the first of
 * them on screen: `{ columns, rows, perPage, pages }`. The fewest pages whose tiles
 * keep MIN_TILE_WIDTH_PX and boards of MIN_BOARD_PX (one tile a page at the
 * least), the tiles shared evenly among them (24 games in 3 pages of 8, not
 * 10, 10 and 4), then the grid that gives those boards the most room.
 */
function plan(tiles, rooms) {
  const count = tiles.length;
  const tile = tiles[0];
  const area = rooms.getBoundingClientRect();
  const style = getComputedStyle(rooms);
  const gaps = { x: parseFloat(style.columnGap) || 0, y: parseFloat(style.rowGap) || 0 };
  // What the tile's names and lines take around its board, measured on screen:
  // its content's height (more than the tile's own in a grid too tight), less the board's.
  const outer = tile.getBoundingClientRect();
  const board = tile.querySelector(".tile-board")?.getBoundingClientRect() ?? { width: 0, height: 0 };
  const borders = tile.offsetHeight - tile.clientHeight;
  const around = { x: outer.width - board.width, y: tile.scrollHeight + borders - board.height };
  // A result takes a line more than whose move (wall.css): room for it on every page.
  const longer = (element) => element.classList.contains("long-line");
  if (!longer(tile) && tiles.some(longer)) {
    around.y += parseFloat(getComputedStyle(tile.querySelector(".tile-turn")).lineHeight) || 0;
  }
  const grids = [];
  for (let columns = 1; columns <= count; columns += 1) {
    const width = (area.width - gaps.x * (columns - 1)) / columns;
    if (columns > 1 && width < MIN_TILE_WIDTH_PX) break;
    for (let rows = 1; rows <= Math.ceil(count / columns); rows += 1) {
      const height = (area.height - gaps.y * (rows - 1)) / rows;
      const boardHeight = Math.min(height - around.y, (width - around.x) * WIDEST_BOARD);
      if (rows > 1 && boardHeight < MIN_BOARD_PX) break;
      grids.push({ columns, rows, boardHeight });
    }
  }
  const legible = grids.filter((grid) => grid.boardHeight >= MIN_BOARD_PX);
  const fits = legible.length ? legible : [{ columns: 1, rows: 1, boardHeight: 0 }];
  const capacity = Math.max(...fits.map((grid) => grid.columns * grid.rows));
  const pages = Math.ceil(count / capacity);
  const perPage = Math.ceil(count / pages);
  const roomy = fits.filter((grid) => grid.columns * grid.rows >= perPage);
  const best = roomy.reduce((a, b) => (b.boardHeight > a.boardHeight ? b : a));
  return { columns: best.columns, rows: best.rows, perPage, pages };
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

/**
 * The wall's times from the address: `finished` (how long a finished game
 * stays) and `page` (how long a page stays), in seconds; the defaults else.
 */
function fragmentOptions(hash = location.hash) {
  const fragment = new URLSearchParams(hash.replace(/^#/, ""));
  const seconds = (key, fallback) => {
    const value = Number(fragment.get(key));
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return { finishedSeconds: seconds("finished", FINISHED_SHOWN_S), pageSeconds: seconds("page", PAGE_SECONDS) };
}

function message(text) {
  document.getElementById("wall-rooms").replaceChildren(h("p", { class: "wall-message", role: "alert" }, text));
  show(document.getElementById("wall-tournament"), false);
}

const options = fragmentOptions(); // read before the token: taking it rewrites the address
const token = takeToken(); // out of the address at once, kept in this tab
if (token) new Wall(token, options).start();
else message(WORDS.noToken);
