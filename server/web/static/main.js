// main.js: the page's entry point. It asks the player's name (once), opens the
// session, and shows the lobby or a room as the address says:
//   #/              the lobby
//   #/room/CODE     a room this tab sits in or watches
//   #/join/CODE     join by a code (an invitation link), then show the room
//   #/watch/CODE    watch by a code, then show the room
//   #/watch/CODE?spectator   the same in a tab that only watches (the teacher's
//                   Watch link): no name asked, no player kept, not on the roster
//   #/review/ID     the engine's review of finished game ID (review-view.js): it
//                   needs no session, so it shows before a name is asked
//   #/tournament/ID a tournament's standings (standings-view.js)
//   #/account/TOKEN?name=NAME   a class account's join link (account-link.js): this
//                   browser becomes that student; the address is cleaned at once
// In class mode it also shows the teacher's announcements and the server's
// (labelled as such), takes the player to each tournament game as the server
// calls them to it (`match`; one playing another game is offered to go
// instead), shows the standings when a tournament they played in ends (the
// server's announcement names it), and stops for good when the teacher
// removes the player (close code 4003) or the player's token is revoked (4004).
// A join link whose key the class's server does not know (a mistyped card) gets
// a page saying so, and signs nobody in. A student of a class is called what the
// roster says (welcome.name_locked): only the teacher renames, so the page
// offers no "Change name" then.

import { language, languageSwitch, t } from "./i18n.js"; // first: the catalogue is loaded before any module shows a word
import { parseAccountLink } from "./account-link.js";
import { startTicking } from "./clocks.js";
import { Connection, serverUrl } from "./connection.js";
import { h, setText, show } from "./dom.js";
import { LobbyView } from "./lobby-view.js";
import { NameView } from "./name-view.js";
import { ReviewView } from "./review-view.js";
import { Notices } from "./notices.js";
import { SYMBOLS } from "./room-state.js";
import { RoomView } from "./room-view.js";
import { Session } from "./session.js";
import { StandingsView } from "./standings-view.js";
import {
  saveName,
  savedName,
  savedPlayerToken,
  savePlayerToken,
  saveSpectator,
  savedSpectator,
  savedToken,
  saveToken,
} from "./storage.js";
import {
  announcementText,
  gameTitle,
  INVALID_LINK,
  SPECTATOR_NAME,
  WATCHING_AS,
  refusalText,
  rematchText,
  tournamentEndText,
} from "./words.js";

class App {
  constructor() {
    this.view = document.getElementById("view");
    this.you = document.getElementById("you");
    this.youLabel = document.getElementById("you-label"); // "Playing as", or WATCHING_AS in a tab that only watches
    this.playingAs = this.youLabel.textContent;
    // The language switch, at the end of the header: choosing reloads the page in it.
    this.you.parentElement.append(languageSwitch());
    this.playerName = document.getElementById("player-name");
    const element = (id) => document.getElementById(id);
    this.notices = new Notices(element("banner"), element("notices"), element("pinned"), {
      onRetry: () => this.connection?.reconnectNow(),
      // A new connection with the same token takes the session back from the other tab.
      onTakeBack: () => this.connect(this.session.name),
    });
    this.nameView = new NameView((name) => this.named(name));
    this.changeName = document.getElementById("change-name");
    this.connection = null;
    this.session = null;
    this.lobby = null;
    this.roomView = null;
    this.reviewView = null;
    this.standingsView = null;
    this.stopTicking = null;
    this.following = null; // the invitation link being followed
    this.matching = null; // the tournament game being joined
    this.matchShown = null; // { key, room, startsBy } of the tournament game's pinned notice
    this.tournamentsPlayed = new Set(); // the ids of the tournaments this page was called to play in
    this.askingName = false; // the name form is up: the session's events leave it there
    this.changeName.addEventListener("click", () => this.askName());
    window.addEventListener("hashchange", () => {
      if (this.session) this.askingName = false; // going elsewhere cancels a change of name
      // A join link pasted into the address bar of an open page: become that student.
      if (this.followAccountLink() === "kept") this.start();
      else this.route();
    });
  }

  boot() {
    // The teacher's Watch link: this tab watches from now on, reloads included.
    if (/^#\/?watch\/[A-Za-z0-9]+\?spectator$/.test(location.hash)) saveSpectator(true);
    this.followAccountLink();
    this.start();
  }

  /** Connect under the name this browser keeps, or ask it first; a tab that only
   * watches connects as a spectator, under no name of the browser's. */
  start() {
    if (savedSpectator()) {
      this.connect(SPECTATOR_NAME, { spectator: true });
      return;
    }
    const name = savedName();
    if (name) this.connect(name);
    else if (reviewId() !== null) this.route(); // a review needs no name: asked when the player goes on
    else this.askName();
  }

  /**
   * A join link in the address (account-link.js): take it out of the address
   * (and so of the history) at once, then keep its token and name, which win over
   * whatever this browser kept: the teacher's sheet says who uses this browser.
   * A link that cannot be used keeps nothing and is said so. Returns "kept",
   * "refused", or null when the address holds no join link.
   */
  followAccountLink() {
    const link = parseAccountLink(location.hash);
    if (!link) return null;
    // replaceState fires no hashchange: the caller goes on from here.
    history.replaceState(history.state, "", `${location.pathname}${location.search}#/`);
    if (link.error) {
      this.say(link.error);
      return "refused";
    }
    savePlayerToken(link.token);
    saveToken(null); // this tab's session, if any, was another player's
    if (link.name) saveName(link.name);
    return "kept";
  }

  // -- the name and the session -----------------------------------------------------

  askName(error = "") {
    this.askingName = true;
    this.leaveView();
    const playing = this.session?.seatedFirst.some((room) => room.you !== null && room.playing);
    this.nameView.prepare({
      name: this.session?.name ?? savedName(),
      error,
      warning: playing
        ? t("A new name starts a new session: your games in progress are lost if you do not come back to them.")
        : "",
      cancel: this.session && this.connection.status !== "refused" ? () => this.cancelName() : null,
    });
    this.view.replaceChildren(this.nameView.element);
    document.title = "Boardroom";
    this.nameView.focus();
  }

  cancelName() {
    this.askingName = false;
    this.route();
  }

  named(name) {
    this.askingName = false;
    const same = this.session && name === this.session.name && this.connection.status !== "refused";
    if (same) {
      this.route();
      return;
    }
    saveName(name);
    if (this.session) saveToken(null); // a new name is a new session
    saveSpectator(false); // a name given: this tab plays as the browser's player
    this.connect(name);
  }

  connect(name, { spectator = false } = {}) {
    this.connection?.close();
    this.lobby?.hidden();
    this.connection = new Connection(serverUrl(), {
      name,
      token: savedToken(),
      playerToken: spectator ? null : savedPlayerToken(),
      client: spectator ? "spectator" : "human",
    });
    this.youLabel.textContent = spectator ? WATCHING_AS : this.playingAs;
    this.session = new Session(this.connection);
    this.lobby = new LobbyView(this);
    this.connection.addEventListener("status", (event) => this.statusChanged(event.detail));
    this.connection.addEventListener("welcome", (event) => {
      const { welcome } = event.detail;
      // The class's roster names this student: the teacher renames, not the page.
      show(this.changeName, !welcome.name_locked);
      if (welcome.name_locked && welcome.name !== savedName()) saveName(welcome.name);
      const shown = this.playerName.textContent;
      // A tab that only watches is the teacher's: called so in the page's language.
      setText(this.playerName, spectator ? t("Teacher") : welcome.name);
      // Who this browser is on the server (the same in every tab and visit).
      this.you.dataset.player = welcome.player_id ?? "";
      this.you.title = welcome.player_id ? t("Player {id}", { id: welcome.player_id }) : "";
      if (welcome.name !== name && welcome.name !== shown && !welcome.name_locked) {
        // Said once, not again at each reconnection under the same name.
        this.say(t("Another player is online as {name}: you are shown as {shown} while both are here", { name, shown: welcome.name }));
      }
    });
    this.session.addEventListener("room", (event) => this.roomChanged(event.detail));
    this.session.addEventListener("notice", (event) => this.notices.say(event.detail.text, null, event.detail.key));
    this.session.addEventListener("ready", () => this.route());
    this.session.addEventListener("announcement", (event) => this.announcement(event.detail));
    this.session.addEventListener("match", (event) => this.match(event.detail));
    setText(this.playerName, spectator ? t("Teacher") : name);
    show(this.you, true);
    this.connection.start();
    this.route();
  }

  statusChanged(detail) {
    this.notices.connection(detail);
    document.body.dataset.connection = detail.status;
    if (detail.status === "refused") {
      if (detail.code === "unsupported_version") this.say(t("This page is out of date: reload it"));
      else this.askName(t("The server refused that name: {reason}", { reason: detail.reason }));
    } else if (detail.status === "removed") {
      this.removed();
    } else if (detail.status === "revoked") {
      this.revoked();
    } else if (detail.status === "invalid") {
      this.invalidLink();
    }
  }

  /**
   * The class's server does not know the key this browser presented (a join
   * link with a character changed): nobody was signed in, and the page says so.
   * The key and the link's name are forgotten, so that a reload does not sign
   * in as somebody new under that name either: it asks for a name.
   */
  invalidLink() {
    savePlayerToken(null);
    saveToken(null);
    saveName(null);
    this.leaveView();
    show(this.you, false);
    this.view.replaceChildren(
      h(
        "section",
        { class: "panel removed-view invalid-link", role: "alert" },
        h("h1", {}, INVALID_LINK.heading),
        h("p", {}, INVALID_LINK.text),
        h("p", { class: "hint" }, INVALID_LINK.hint),
        // The start page anew (a full load: it asks the name and offers the class code).
        h("a", { class: "start-over", href: "/" }, INVALID_LINK.startOver),
      ),
    );
    document.title = `${INVALID_LINK.title} · Boardroom`;
  }

  /** The teacher removed this player: the session is over, and the page says so. */
  removed() {
    saveToken(null);
    this.stopped(
      t("Removed by the teacher"),
      t(
        "The teacher removed you from the class, so this page no longer connects. Reload it to join again: you are back on the roster, with your games.",
      ),
      t("Removed"),
    );
  }

  /** This player's token was revoked: it connects no more, and the page says so.
   * The token is forgotten, so a reload starts as a new player. */
  revoked() {
    savePlayerToken(null);
    saveToken(null);
    this.stopped(
      t("This player was revoked"),
      t(
        "The server's admin revoked the token this browser played with, so this page no longer connects. Reload it to start again as a new player.",
      ),
      t("Revoked"),
    );
  }

  /** The page connects no more: say why, with a button to reload. */
  stopped(heading, text, title) {
    this.leaveView();
    this.view.replaceChildren(
      h(
        "section",
        { class: "panel removed-view", role: "alert" },
        h("h1", {}, heading),
        h("p", {}, text),
        h("button", { type: "button", class: "primary", onclick: () => location.reload() }, t("Reload")),
      ),
    );
    document.title = `${title} · Boardroom`;
  }

  /**
   * A message to everyone: the teacher's, or the server's own (a tournament's
   * end, naming it: its standings are offered, and shown at once to a player of
   * that tournament who is not in the middle of another game; or its pause while
   * its results cannot be saved, and its resumption, which only say so).
   */
  announcement(message) {
    if (message.source !== "server") {
      this.notices.pin("announcement", message.text);
      return;
    }
    const id = message.tournament;
    if (id == null) {
      this.notices.pin("server", message.text);
      return;
    }
    if (["tournament_paused", "tournament_resumed"].includes(message.kind)) {
      // Not an end: the resumption's notice takes the pause's place, nobody is moved.
      this.notices.unpin(`tournament-saving/${id}`);
      const notice = this.notices.pin("server", message.text, `tournament-saving/${id}`);
      if (language() !== "en") setText(notice.querySelector(".pinned-text"), announcementText(message) || message.text);
      return;
    }
    const hash = `#/tournament/${id}`;
    const notice = this.notices.pin("server", message.text, `tournament-end/${id}`, {
      action: { label: t("Standings"), run: () => this.go(hash) },
    });
    this.wordTournamentEnd(id, notice, message);
    const seated = this.session.seatedFirst.filter((room) => room.you !== null);
    // Called to it in this page, or (after a reload) seated in a tournament room now.
    const played = this.tournamentsPlayed.has(id) || seated.some((room) => room.state.tournament);
    const playing = seated.some((room) => room.playing);
    if (played && !playing && !this.askingName) this.go(hash);
  }

  /**
   * Say a tournament's end (the server's announcement, in English) in the page's
   * language, from its code and values (or, from a server without them, from the
   * tournament's standings); an English page keeps the server's words, and so
   * does any page when neither says it.
   */
  async wordTournamentEnd(id, notice, message) {
    if (language() === "en") return;
    const said = announcementText(message);
    if (said) {
      setText(notice.querySelector(".pinned-text"), said);
      return;
    }
    try {
      const response = await fetch(`/api/tournaments/${id}`, { cache: "no-store" });
      const body = response.ok ? await response.json() : null;
      const text = body?.tournament ? tournamentEndText(body.tournament) : "";
      if (text) setText(notice.querySelector(".pinned-text"), text);
    } catch {
      // The server is not answering: its own words stay.
    }
  }

  /**
   * A tournament game is ready for this player: say which, and go to it at once;
   * but not out of another game in progress (that would leave it hanging): then
   * the notice offers to go, and says how long is left to sit down.
   */
  async match(match) {
    const session = this.session;
    // After a reconnection the match comes before the rooms given back are all
    // known: wait for them, so that a seat already held is not joined twice.
    if (!session.ready) await new Promise((ready) => session.addEventListener("ready", ready, { once: true }));
    if (session !== this.session) return;
    const key = `${match.tournament}/${match.round}/${match.board}`;
    this.tournamentsPlayed.add(match.tournament);
    const busy = session.seatedFirst.some(
      (room) => room.you !== null && room.playing && room.code !== match.room,
    );
    const round = { round: match.round, tournament: match.tournament_name, opponent: match.opponent, symbol: SYMBOLS[match.side] };
    const text =
      match.side === "first"
        ? t("Round {round} of {tournament}: you play {opponent} as first ({symbol})", round)
        : t("Round {round} of {tournament}: you play {opponent} as second ({symbol})", round);
    // A pause moves the deadline on and the server says it again: count down to the new one.
    if (this.matchShown?.key === key && this.matchShown.startsBy !== match.starts_by) this.notices.unpin(key);
    this.matchShown = { key, room: match.room, startsBy: match.starts_by };
    this.notices.pin("match", text, key, {
      action: busy ? { label: t("Go to the game"), run: () => this.goToMatch(match, key) } : null,
      countdown: match.starts_by
        ? { until: match.starts_by, hidden: () => this.session?.rooms.get(match.room)?.you != null }
        : null,
    });
    if (!busy) await this.goToMatch(match, key);
  }

  /** Take the seat the `match` keeps for this player (unless held already), and show the room. */
  async goToMatch(match, key) {
    if (this.matching === key) return;
    this.matching = key;
    try {
      const session = this.session;
      if (!session.rooms.has(match.room)) await session.request({ type: "join", code: match.code });
      if (session !== this.session) return;
      this.askingName = false;
      this.openRoom(match.room);
    } catch (refusal) {
      this.say(t("Could not join your tournament game: {reason}", { reason: refusalText(refusal) }));
    } finally {
      if (this.matching === key) this.matching = null;
    }
  }

  roomChanged({ code, message, before }) {
    this.lobby?.roomsChanged();
    if (this.matchShown?.room === code) {
      // The tournament game is over, or its room closed (a no-show, a cancel):
      // its notice has said what it had to.
      const room = this.session.rooms.get(code);
      if (message.type === "room_closed" || room?.state.status === "finished") {
        this.notices.unpin(this.matchShown.key);
        this.matchShown = null;
      }
    }
    if (this.roomView?.code === code) {
      if (this.session.rooms.has(code)) this.roomView.update();
      else this.showLobby();
      return;
    }
    const room = this.session.rooms.get(code);
    if (room?.you != null && before?.status === "waiting" && room.playing) {
      this.say(t("Your {game} game in room {code} has started", { game: gameTitle(room.state.title), code }), {
        label: t("Open"),
        run: () => this.openRoom(code),
      });
    }
    if (message.type === "rematch_offered" && room?.you != null && message.side !== room.you) {
      // Asked while this player looks elsewhere: accept from here, in one click.
      this.say(t("{rematch} ({game}, room {code})", { rematch: rematchText(room), game: gameTitle(room.state.title), code }), {
        label: t("Accept rematch"),
        run: () => this.acceptRematch(code),
      });
    }
  }

  /** Accept the rematch asked in room `code`, then show the room. */
  async acceptRematch(code) {
    try {
      await this.session.request({ type: "rematch", room: code });
      this.openRoom(code);
    } catch (refusal) {
      this.say(refusalText(refusal));
    }
  }

  say(text, action = null) {
    this.notices.say(text, action);
  }

  // -- where the page is --------------------------------------------------------------

  openRoom(code) {
    this.go(`#/room/${code}`);
  }

  showLobby() {
    this.go("#/");
  }

  go(hash) {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }

  route() {
    const review = reviewId();
    if (review !== null && !this.askingName) {
      this.showReview(review);
      return;
    }
    if (!this.session && !this.askingName && review === null) {
      this.start(); // left a review opened without a session: now a name is needed
      return;
    }
    const stopped = ["refused", "removed", "revoked", "invalid"].includes(this.connection?.status);
    if (!this.session || this.askingName || stopped) return;
    const [, view = "", code = ""] = /^#\/?([a-z]*)\/?([A-Za-z0-9]*)/.exec(location.hash) ?? [];
    if ((view === "join" || view === "watch") && code) this.follow(view, code.toUpperCase());
    else if (view === "room" && code) this.showRoom(code.toUpperCase());
    else if (view === "tournament" && code) this.showStandings(code);
    else this.showLobbyView();
  }

  showLobbyView() {
    if (this.view.contains(this.lobby.element)) {
      this.lobby.refresh();
      return;
    }
    this.leaveView();
    this.view.replaceChildren(this.lobby.element);
    document.title = "Boardroom";
    this.lobby.shown();
  }

  showRoom(code) {
    if (!this.session.rooms.has(code)) {
      // Not (yet) ours: a reload before the rooms are back, or a room's address
      // shared by someone: watch it.
      this.follow("watch", code);
      return;
    }
    if (this.roomView?.code === code && this.view.contains(this.roomView.element)) {
      this.roomView.update();
      return;
    }
    this.leaveView();
    this.roomView = new RoomView(this, code);
    this.view.replaceChildren(this.roomView.element);
    this.stopTicking = startTicking(() => this.roomView?.tick());
    this.roomView.focus();
  }

  showStandings(id) {
    if (this.standingsView?.id === id && this.view.contains(this.standingsView.element)) return;
    this.leaveView();
    this.standingsView = new StandingsView(id, this.playerName.textContent);
    this.view.replaceChildren(this.standingsView.element);
    this.standingsView.focus();
  }

  showReview(id) {
    if (this.reviewView?.gameId === id && this.view.contains(this.reviewView.element)) return;
    this.leaveView();
    this.reviewView = new ReviewView(this, id);
    this.view.replaceChildren(this.reviewView.element);
    this.reviewView.focus();
  }

  /** Join or watch by a code from the address, then show the room. */
  async follow(kind, code) {
    if (this.session.rooms.has(code)) {
      location.replace(`#/room/${code}`);
      return;
    }
    if (!this.session.ready) {
      this.leaveView();
      this.view.replaceChildren(h("p", { class: "loading" }, t("Connecting…")));
      return; // "ready" routes again
    }
    if (this.following === `${kind}/${code}`) return;
    this.following = `${kind}/${code}`;
    try {
      const reply = await this.session.request({ type: kind, code });
      location.replace(`#/room/${reply.room.code}`);
    } catch (refusal) {
      this.say(refusalText(refusal));
      location.replace("#/");
    } finally {
      this.following = null;
    }
  }

  leaveView() {
    this.lobby?.hidden();
    this.stopTicking?.();
    this.stopTicking = null;
    this.roomView?.destroy();
    this.roomView = null;
    this.reviewView?.destroy();
    this.reviewView = null;
    this.standingsView?.destroy();
    this.standingsView = null;
  }
}

/** The game id of a review's address (#/review/ID), as text; null for another address. */
function reviewId() {
  const match = /^#\/?review\/?([^/?#]*)/.exec(location.hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1]; // a stray "%": shown as it is, as an id that is not one
  }
}

new App().boot();
