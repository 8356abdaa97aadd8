// room-view.js: one room on screen: the board, whose turn it is, the seats with
// their clocks and presence, the codes to pass on, the actions that fit the
// moment (draw offers, resign, rematch, play the AI, leave) and the chat. A
// spectator sees the same room with a read-only board. The view draws the
// session's copy of the room (room-state.js) and sends requests; a refusal is
// shown in words beside what was refused, and nothing typed is lost.
//
// While the teacher has the games paused (class mode: `paused` in the state),
// the board says so and a move the player makes is held, not sent: it is sent
// by itself at the resume (a click elsewhere changes it). A move the server
// refuses as `paused` (the pause came while it was on its way) is held the
// same way. While the server cannot save the game (`saving_paused`), a banner
// says so and the clocks stand still, as the server's do; the state without it
// sets them running again.
//
// A seated player may ask for a hint when it is their move (unless the room
// says hints are off): the engine's move shows under the board and on it until
// they move. An AI match (both seats the AI's, `ai_pace` in the state) is
// watched: the board plays itself, and at the end anyone watching may start
// the next game.

import { createBoard } from "./board.js";
import { clockSetting, formatClock, LOW_TIME_MS } from "./clocks.js";
import { button, confirming, copyText, h, setText, show } from "./dom.js";
import { formatNumber, t, tn } from "./i18n.js";
import { otherSide, SIDES, SYMBOLS } from "./room-state.js";
import { absentLabel, expectedLineText, gameTitle, hintRefusalText, hintText, illegalPickText, LEVELS, levelName, moveRefusalText, otherMoveText, presence, refusalText, rematchText, searchSummaryText, seatKind, seatLabel, shownName, turnText, waitingText } from "./words.js";

const REFUSAL_MS = 10000; // a refusal stays this long, or until the next thing that works

export class RoomView {
  /** `app` gives the session, the lobby and notices (main.js); `code` names the room. */
  constructor(app, code) {
    this.app = app;
    this.code = code;
    this.moving = false; // a move is on its way: further clicks wait for its answer
    this.held = null; // a move made during a pause, sent at the resume
    this.refusalTimer = null;
    this.logShown = null;
    this.build(this.room);
    this.update();
  }

  get room() {
    return this.app.session.rooms.get(this.code);
  }

  // -- building -------------------------------------------------------------------

  build(room) {
    this.title = h("h2", { class: "room-title", id: `title-${this.code}`, tabindex: "-1" });
    this.meta = h("p", { class: "room-meta" });
    this.turn = h("p", { class: "turn", "aria-live": "polite" });
    this.refusal = h("p", { class: "refusal", role: "alert", hidden: true });
    this.heldText = h("span", { class: "held-move" });
    this.pausedBanner = h(
      "p",
      { class: "paused-banner lesson-paused", role: "status", hidden: true },
      h("strong", {}, t("Paused by the teacher")),
      this.heldText,
    );
    // While the server cannot save the room's game (`saving_paused`): its clocks
    // stand (the state's `clocks.running` is null), a refused move is sent again.
    this.savingBanner = h(
      "p",
      { class: "paused-banner saving-banner", role: "status", hidden: true },
      h("strong", {}, t("Saving is paused")),
      h("span", {}, t("The server cannot save this game for now: the clocks are stopped, and your move is sent again by itself.")),
    );
    this.board = room.shape ? createBoard(room.state.game, room.shape, (move) => this.pick(move)) : unknownBoard(room);
    const frameStyle = room.shape ? { "--columns": room.shape.columns, "--rows": room.shape.rows } : {};
    const columns = room.shape?.kind === "columns";
    this.moveInput = h("input", {
      id: `move-${this.code}`,
      name: "move",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: columns ? "4" : "b2",
      size: 5,
    });
    this.moveForm = h(
      "form",
      { class: "move-form", onsubmit: (event) => this.typedMove(event) },
      h("label", { for: this.moveInput.id }, columns ? t("Or type a column") : t("Or type a cell")),
      this.moveInput,
      h("button", { type: "submit" }, t("Play")),
    );
    this.hintButton = button(t("Hint"), () => this.askHint(), { class: "hint-button" });
    this.hintLine = h("span", { class: "hint-line", "aria-live": "polite" });
    // The legal moves that are no place on the board (a pass), as buttons: the
    // server's list says when there are any.
    this.otherMoves = h("span", { class: "other-moves" });
    this.otherShown = "";
    this.hintBar = h("div", { class: "hint-bar", hidden: true }, this.otherMoves, this.hintButton, this.hintLine);
    this.hintAsked = false; // a hint is on its way: one at a time
    this.hintRefusal = null; // { text, ply }: why the last hint was refused, for that position
    this.searchLine = h("p", { class: "ai-search-summary" });
    this.searchPv = h("p", { class: "ai-search-line" });
    // Closed until asked: the board stays the thing to look at; the toggle keeps
    // its state across moves, so whoever opened it sees each AI move's search.
    this.searchInfo = h(
      "details",
      { class: "ai-search", hidden: true },
      h("summary", {}, t("How did the AI think?")),
      this.searchLine,
      this.searchPv,
    );
    const lobby = button(t("← Lobby"), () => this.app.showLobby(), { class: "quiet" });
    this.element = h(
      "section",
      {
        // A game's own look (board.look) colours the room's badges as its stones.
        class: ["room-view", columns ? "gravity" : "", this.board.look ?? ""].join(" ").trim(),
        "aria-labelledby": this.title.id,
        dataset: { room: this.code },
      },
      h(
        "div",
        { class: "room-main" },
        h("header", { class: "room-head" }, h("div", {}, this.title, this.meta), lobby),
        this.turn,
        this.pausedBanner,
        this.savingBanner,
        h(
          "div",
          { class: "board-area" },
          h("div", { class: "board-frame", style: frameStyle }, this.board.element),
          this.refusal,
          this.hintBar,
          this.moveForm,
          this.searchInfo,
        ),
      ),
      h(
        "aside",
        { class: "room-side" },
        this.buildSeats(),
        this.buildCodes(),
        this.buildActions(),
        this.buildChat(),
      ),
    );
  }

  buildSeats() {
    this.seats = {};
    const list = h("ul", { class: "seats", "aria-label": t("Players") });
    for (const side of SIDES) {
      const parts = {
        name: h("span", { class: "seat-name" }),
        kind: h("span", { class: "seat-kind" }),
        presence: h("span", { class: "seat-presence" }),
        clock: h("span", { class: "clock" }),
      };
      parts.item = h(
        "li",
        { class: "seat", dataset: { side } },
        h("span", { class: `stone ${side}`, "aria-hidden": "true" }, SYMBOLS[side]),
        h("span", { class: "seat-who" }, parts.name, parts.kind, parts.presence),
        parts.clock,
      );
      this.seats[side] = parts;
      list.append(parts.item);
    }
    return list;
  }

  buildCodes() {
    this.codes = h("div", { class: "codes" });
    return this.codes;
  }

  buildActions() {
    const send = (type) => () => this.send(type);
    const note = (text) => h("span", { class: "action-note" }, text);
    this.aiLevel = h(
      "select",
      { "aria-label": t("AI level") },
      LEVELS.map((level) => h("option", { value: level, selected: level === "easy" }, levelName(level))),
    );
    const addAi = () => this.send("add_ai", { level: this.aiLevel.value });
    this.actions = {
      accept: button(t("Accept the draw"), send("accept_draw"), { class: "primary" }),
      decline: button(t("Decline the draw"), send("decline_draw")),
      offerDraw: button(t("Offer a draw"), send("offer_draw")),
      drawOffered: note(t("You offered a draw")),
      resign: confirming(t("Resign"), t("Click again to resign"), send("resign")),
      rematch: button(t("Rematch"), send("rematch"), { class: "primary" }),
      // An AI match's next game: anyone watching may start it (the AIs' sides swap).
      nextGame: button(t("Next game"), send("rematch"), { class: "primary" }),
      rematchOffer: note(""), // "Rematch asked: waiting for bob", "ann asks for a rematch"
      acceptRematch: button(t("Accept rematch"), send("rematch"), { class: "primary" }),
      addAi: h("span", { class: "add-ai" }, this.aiLevel, button(t("Play the AI instead"), addAi)),
      leaveGame: confirming(t("Leave"), t("Leaving resigns: click again"), send("leave")),
      leave: button(t("Leave the room"), send("leave")),
      // The game just over, judged by the engine (review-view.js); the id comes with game_over.
      review: h("a", { class: "button-link", href: "#/" }, t("Review this game")),
      stopWatching: button(t("Stop watching"), send("leave")),
    };
    const group = { class: "room-actions", role: "group", "aria-label": t("Game actions") };
    return h("div", group, Object.values(this.actions));
  }

  buildChat() {
    this.log = h("ol", { class: "log", "aria-live": "polite", "aria-label": t("Chat and room events") });
    this.chatInput = h("input", {
      id: `chat-${this.code}`,
      name: "text",
      maxlength: 500,
      autocomplete: "off",
      placeholder: t("Say something to the room"),
    });
    this.chatError = h("p", { class: "form-error", role: "alert", hidden: true });
    return h(
      "section",
      { class: "chat", "aria-label": t("Chat") },
      this.log,
      h(
        "form",
        { class: "row", onsubmit: (event) => this.chat(event) },
        h("label", { for: this.chatInput.id, class: "offscreen" }, t("Chat message")),
        this.chatInput,
        h("button", { type: "submit" }, t("Send")),
      ),
      this.chatError,
    );
  }

  // -- drawing --------------------------------------------------------------------

  /** Redraw from the session's copy of the room. */
  update() {
    const room = this.room;
    if (!room) return;
    const { state } = room;
    const seated = room.you !== null;
    Object.assign(this.element.dataset, {
      status: state.status,
      moves: state.moves,
      ply: String(state.ply),
      you: room.you ?? "",
      toMove: state.to_move ?? "",
      paused: state.paused ? "true" : "",
      savingPaused: state.saving_paused ? "true" : "",
      held: this.held ?? "",
    });
    const title = gameTitle(state.title);
    setText(this.title, title);
    const meta = [t("Room {code}", { code: room.code })];
    if ((state.game_number ?? 1) > 1) meta.push(t("game {number}", { number: state.game_number }));
    if (clockSetting(state.clock)) meta.push(clockSetting(state.clock));
    if (!state.public) meta.push(t("private"));
    if (room.aiMatch) meta.push(t("AI match, {seconds} s a move", { seconds: formatNumber(state.ai_pace, { useGrouping: false }) }));
    if (!seated) meta.push(t("you are watching"));
    // A tournament game's spectator sees it late while it is played (state.delayed: plies,
    // or state.delayed_seconds: seconds).
    if (!seated && state.delayed && room.playing) {
      meta.push(tn("{n} move behind", "{n} moves behind", state.delayed));
    } else if (!seated && state.delayed_seconds && room.playing) {
      meta.push(tn("{n} second behind", "{n} seconds behind", state.delayed_seconds));
    }
    setText(this.meta, meta.join(" · "));
    // While paused nobody may move: the line says so rather than "Your move".
    const paused = Boolean(state.paused) && room.playing;
    setText(this.turn, paused ? t("Paused") : turnText(room));
    this.turn.classList.toggle("my-turn", room.myTurn && !paused);
    this.turn.classList.toggle("paused", paused);
    this.element.classList.toggle("your-turn", room.myTurn);
    this.board.update(room);
    this.drawPause(room);
    this.board.element.classList.toggle("readonly", !seated);
    this.board.element.classList.toggle("my-turn", room.myTurn);
    show(this.moveForm, seated && state.status === "playing");
    this.drawHint(room);
    this.drawSearch(room);
    this.tick();
    this.drawCodes(room);
    this.drawActions(room);
    this.drawLog(room);
    const where = `${title} ${room.code} · Boardroom`;
    document.title = room.myTurn ? t("Your move · {room}", { room: where }) : where;
  }

  /** The hint button and the hint (or why none came), while it is this player's move. */
  drawHint(room) {
    const asking = room.myTurn && room.hintsAllowed && !room.state.paused;
    const others = room.myTurn ? (room.state.legal ?? []).filter((move) => !this.board.hasPlace?.(move)) : [];
    if (others.join(" ") !== this.otherShown) {
      this.otherShown = others.join(" ");
      this.otherMoves.replaceChildren(
        ...others.map((move) => button(otherMoveText(move), () => this.pick(move), { dataset: { move } })),
      );
    }
    show(this.otherMoves, others.length > 0);
    show(this.hintBar, asking || others.length > 0);
    show(this.hintButton, asking);
    show(this.hintLine, asking);
    this.hintButton.disabled = this.hintAsked;
    const hint = room.currentHint;
    const refused = this.hintRefusal?.ply === room.state.ply ? this.hintRefusal.text : "";
    let text = "";
    if (this.hintAsked) text = t("Asking the engine…");
    else if (hint) text = hintText(hint);
    else if (refused) text = refused;
    setText(this.hintLine, text);
    this.hintLine.classList.toggle("refused", !hint && !this.hintAsked && Boolean(refused));
    this.element.dataset.hint = hint?.move ?? "";
  }

  /** The last AI move's search, under the board (hidden until the AI has moved). */
  drawSearch(room) {
    const last = room.lastSearch;
    show(this.searchInfo, last !== null);
    if (last === null) return;
    const { search } = last;
    const name = shownName(room.playerName(last.side)) ?? SYMBOLS[last.side];
    const played = { who: `${SYMBOLS[last.side]} ${name}`, move: last.move, summary: searchSummaryText(search) };
    setText(this.searchLine, t("{who} played {move}: {summary}", played));
    const pv = expectedLineText(search);
    setText(this.searchPv, pv);
    show(this.searchPv, pv !== "");
  }

  /**
   * The `match` of a tournament room whose player sits waiting for the
   * opponent (the server's deadline and the opponent's name); else null.
   */
  awaitedMatch(room) {
    const { state } = room;
    if (!state.tournament || state.status !== "waiting" || room.you === null) return null;
    if (room.seat(otherSide(room.you)).name) return null;
    return this.app.session.matches?.get(this.code) ?? null;
  }

  /** Redraw what changes with time: clocks, held seats, the time left to sit down. */
  tick() {
    const room = this.room;
    if (!room) return;
    const { state } = room;
    const awaited = this.awaitedMatch(room);
    if (awaited) {
      const left = Math.max(0, Math.round(awaited.starts_by - Date.now() / 1000));
      setText(this.turn, waitingText(awaited.opponent, left, Boolean(state.paused)));
    }
    for (const side of SIDES) {
      const seat = room.seat(side);
      const parts = this.seats[side];
      setText(parts.name, awaited && side !== room.you ? absentLabel(awaited.opponent) : seatLabel(room, side));
      setText(parts.kind, seatKind(seat));
      setText(parts.presence, presence(seat));
      const left = room.timeLeft(side);
      show(parts.clock, left !== null);
      if (left !== null) setText(parts.clock, formatClock(left));
      const running = state.clocks?.running === side && room.playing;
      parts.clock.classList.toggle("running", running);
      parts.clock.classList.toggle("low", running && left < LOW_TIME_MS);
      parts.item.classList.toggle("to-move", room.playing && state.to_move === side);
      parts.item.classList.toggle("winner", state.result?.winner === side);
      parts.item.classList.toggle("gone", Boolean(seat.name) && !seat.connected && seat.kind !== "ai" && !seat.autopilot);
    }
  }

  /** The pause banner, and the move held during it, sent once the games resume. */
  drawPause(room) {
    const paused = Boolean(room.state.paused);
    if (!room.myTurn) this.held = null; // the game ended meanwhile
    show(this.pausedBanner, paused);
    show(this.savingBanner, Boolean(room.state.saving_paused) && room.state.status !== "finished");
    setText(this.heldText, this.held ? t("Your move {move} is held: it is played when the game resumes", { move: this.held }) : "");
    this.element.classList.toggle("paused", paused);
    if (!paused && this.held && !this.moving) {
      const move = this.held;
      this.held = null;
      this.element.dataset.held = "";
      this.play(move);
    }
  }

  drawCodes(room) {
    const { state } = room;
    const rows = [];
    // A tournament room's players are seated by the server: no codes to pass on.
    const sharing = !state.tournament;
    // An AI match's watchers get its watch code (private) to pass on.
    if (sharing && state.join_code) rows.push(codeRow(CODE_WORDS.join, state.join_code, "join", this.app));
    if (sharing && state.watch_code) rows.push(codeRow(CODE_WORDS.watch, state.watch_code, "watch", this.app));
    if (sharing && state.public && room.you !== null && state.status === "waiting") {
      rows.push(codeRow(CODE_WORDS.room, room.code, "join", this.app));
    }
    const key = rows.map((row) => row.dataset.code).join();
    if (this.codes.dataset.shown === key) return;
    this.codes.dataset.shown = key;
    let intro = state.public ? t("Share the room code to play a friend:") : t("Private room: pass these codes on.");
    if (room.aiMatch) intro = t("Private AI match: pass the watch code on to let others watch.");
    this.codes.replaceChildren(...(rows.length ? [h("p", {}, intro), ...rows] : []));
    show(this.codes, rows.length > 0);
  }

  drawActions(room) {
    const { state } = room;
    const seated = room.you !== null;
    const playing = seated && state.status === "playing";
    const offer = state.draw_offer;
    const opponentSeat = state.seats.find((seat) => seat.side !== room.you);
    const tournament = Boolean(state.tournament); // no rematch, no AI: the next round comes by itself
    // From the room's state, so that a reload or a reconnection shows it the same.
    const rematch = state.status === "finished" ? (state.rematch_offer ?? null) : null;
    setText(this.actions.rematchOffer, rematchText(room));
    const visible = {
      accept: playing && offer && offer !== room.you,
      decline: playing && offer && offer !== room.you,
      offerDraw: playing && !offer,
      drawOffered: playing && offer === room.you,
      resign: playing,
      rematch: seated && state.status === "finished" && !rematch && !tournament,
      acceptRematch: seated && rematch && rematch !== room.you && !tournament,
      rematchOffer: Boolean(rematch),
      addAi: seated && state.status !== "playing" && !opponentSeat?.name && !tournament,
      leaveGame: playing,
      leave: seated && !playing,
      nextGame: !seated && room.aiMatch && state.status === "finished",
      stopWatching: !seated,
      review: state.status === "finished" && state.game_id != null,
    };
    if (visible.review) this.actions.review.setAttribute("href", `#/review/${state.game_id}`);
    for (const [name, element] of Object.entries(this.actions)) show(element, Boolean(visible[name]));
  }

  drawLog(room) {
    const last = room.log.at(-1) ?? null;
    if (last === this.logShown) return;
    this.logShown = last;
    const atBottom = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    this.log.replaceChildren(
      ...room.log.map((entry) =>
        entry.kind === "chat"
          ? h("li", { class: "chat-line" }, h("strong", {}, entry.name), ": ", entry.text)
          : h("li", { class: "event-line" }, entry.text),
      ),
    );
    if (atBottom) this.log.scrollTop = this.log.scrollHeight;
  }

  focus() {
    if (this.room?.you != null) this.board.focus();
    else this.title.focus();
  }

  // -- acting ---------------------------------------------------------------------

  /**
   * A place on the board was clicked (or chosen with the keyboard): a move the
   * server listed as legal is played; any other sends nothing, and the page
   * says why (a spectator and a finished game are answered by play).
   */
  pick(move) {
    const room = this.room;
    if (room && room.you !== null && room.playing && !room.allows(move)) {
      this.showRefusal(illegalPickText(room, move));
      return;
    }
    this.play(move);
  }

  /** Send a move; true if the server took it. */
  async play(move) {
    const room = this.room;
    if (!room) return false;
    if (room.you === null) {
      this.showRefusal(t("You are watching: only the players can move"));
      return false;
    }
    if (room.state.paused && room.myTurn) {
      this.hold(move);
      return true;
    }
    if (this.moving) return false;
    this.moving = true;
    const ply = room.state.ply;
    try {
      await this.app.session.request({ type: "move", room: this.code, move, ply });
      this.showRefusal("");
      return true;
    } catch (refusal) {
      if (refusal.code === "paused" && room.myTurn) {
        this.moving = false;
        this.hold(move);
        return true;
      }
      if (refusal.code === "stale_move" && this.room?.moveAt(ply) === move) {
        // This very move was made: its reply was lost on the way and the move sent
        // again (a cluster's resync after Redis came back), refused as stale. The
        // state that came first shows it made: nothing to say.
        this.showRefusal("");
        return true;
      }
      this.showRefusal(moveRefusalText(room, refusal));
      return false;
    } finally {
      this.moving = false;
    }
  }

  /** Ask the engine for a move in this position (`hint`); the answer shows until the move. */
  async askHint() {
    const room = this.room;
    if (!room?.myTurn || this.hintAsked) return;
    const ply = room.state.ply;
    this.hintAsked = true;
    this.hintRefusal = null;
    this.update();
    try {
      const reply = await this.app.session.request({ type: "hint", room: this.code });
      this.room?.takeHint(reply);
    } catch (refusal) {
      this.hintRefusal = { text: hintRefusalText(refusal), ply };
    } finally {
      this.hintAsked = false;
      this.update();
    }
  }

  /** Keep `move` until the games resume (drawPause sends it). */
  hold(move) {
    this.held = move;
    this.showRefusal("");
    this.update();
  }

  async typedMove(event) {
    event.preventDefault();
    const move = this.moveInput.value.trim().toLowerCase();
    if (move && (await this.play(move))) this.moveInput.value = "";
  }

  async chat(event) {
    event.preventDefault();
    const text = this.chatInput.value.trim();
    if (!text) return;
    show(this.chatError, false);
    try {
      await this.app.session.request({ type: "chat", room: this.code, text });
      this.chatInput.value = "";
    } catch (refusal) {
      setText(this.chatError, refusalText(refusal));
      show(this.chatError, true);
    }
  }

  /** Send a request about this room; null (and the refusal shown) if it was refused. */
  async send(type, fields = {}) {
    try {
      const reply = await this.app.session.request({ type, room: this.code, ...fields });
      this.showRefusal("");
      return reply;
    } catch (refusal) {
      this.showRefusal(refusalText(refusal));
      return null;
    }
  }

  showRefusal(text) {
    clearTimeout(this.refusalTimer);
    setText(this.refusal, text);
    show(this.refusal, Boolean(text));
    if (text) this.refusalTimer = setTimeout(() => show(this.refusal, false), REFUSAL_MS);
  }

  destroy() {
    clearTimeout(this.refusalTimer);
  }
}

/** The codes a room passes on, by kind: its label, and the words that name it in
 * the copy buttons' labels and notices. */
const CODE_WORDS = {
  join: { label: t("Join code"), copy: t("Copy the join code"), link: t("Copy a link with the join code"), copied: t("Copied the join code") },
  watch: { label: t("Watch code"), copy: t("Copy the watch code"), link: t("Copy a link with the watch code"), copied: t("Copied the watch code") },
  room: { label: t("Room code"), copy: t("Copy the room code"), link: t("Copy a link with the room code"), copied: t("Copied the room code") },
};

/** A code to pass on (`words`, one of CODE_WORDS), with buttons to copy it or a link that uses it. */
function codeRow(words, code, kind, app) {
  const link = `${location.origin}${location.pathname}#/${kind}/${code}`;
  const copy = async (text, copied) => {
    const done = await copyText(text);
    app.say(done ? copied : t("Could not copy: select it and copy it yourself: {text}", { text }));
  };
  return h(
    "div",
    { class: "code-row", dataset: { code } },
    h("span", { class: "code-label" }, words.label),
    h("code", {}, code),
    button(t("Copy"), () => copy(code, words.copied), { class: "quiet", "aria-label": words.copy }),
    button(t("Copy link"), () => copy(link, t("Copied the link")), {
      class: "quiet",
      "aria-label": words.link,
    }),
  );
}

/** What stands in for the board of a game this page does not know (a newer server's). */
function unknownBoard(room) {
  const text = t("This page cannot draw {game}: reload it for the newest version.", { game: room.state.game });
  return { element: h("p", {}, text), update() {}, focus() {} };
}
