// teacher-bots.js: bot tokens on the teacher's page. A student's bot that runs
// with a token (BOARDROOM_BOT_TOKEN, docs/bots.md) is one player across runs:
// its games, rating and tournament entries stay its own. The form makes one
// (POST /api/admin/bots, a name): the answer is the only place the token ever
// shows (the server keeps its hash), so it is shown here once, with a Copy
// button, until the page is left. Each token made here can be revoked
// (POST /api/admin/players/{id}/revoke, a second click confirms): its bot's
// connections close and the token opens nothing more.

import { button, confirming, h, setText, show } from "./dom.js";
import { formError } from "./forms.js";
import { t } from "./i18n.js";
import { errorText } from "./teacher-api.js";

const NAME_MAX = 32; // a player's name, as the server checks it

export class BotsPanel {
  /** `api` is the AdminApi; `changed()` asks the page to poll again at once. */
  constructor(api, changed) {
    this.api = api;
    this.changed = changed;
    this.name = h("input", {
      id: "bot-name",
      name: "name",
      required: true,
      maxlength: NAME_MAX,
      autocomplete: "off",
      spellcheck: "false",
      placeholder: t("e.g. annbot"),
    });
    this.error = formError();
    this.list = h("ul", { class: "bot-tokens", "aria-label": t("Bot tokens made on this page") });
    this.element = h(
      "section",
      { class: "panel bots-panel", "aria-labelledby": "bots-title" },
      h("h2", { id: "bots-title" }, t("Bot tokens")),
      h(
        "form",
        { class: "new-bot", onsubmit: (event) => this.make(event) },
        h("label", { for: "bot-name" }, t("The bot's name")),
        h("div", { class: "row" }, this.name, h("button", { type: "submit" }, t("Make a token"))),
        h(
          "p",
          { class: "form-note" },
          t(
            "Give the token to the bot's owner privately: it is shown here only until you leave the page. The bot runs with {variable} set to it and keeps its games and rating across runs.",
            { variable: "BOARDROOM_BOT_TOKEN" },
          ),
        ),
        this.error,
      ),
      this.list,
    );
  }

  async make(event) {
    event.preventDefault();
    show(this.error, false);
    try {
      const bot = await this.api.post("/api/admin/bots", { name: this.name.value });
      this.list.prepend(this.tokenItem(bot));
      this.name.value = "";
      this.changed();
    } catch (error) {
      setText(this.error, errorText(error));
      show(this.error, true);
    }
  }

  /** One token made: the bot's name and player id, the token to copy, and Revoke. */
  tokenItem(bot) {
    const id = `bot-token-${bot.player_id}`;
    const token = h("input", {
      id,
      class: "bot-token",
      readonly: true,
      value: bot.token,
      spellcheck: "false",
      onfocus: (event) => event.target.select(),
    });
    const copied = h("span", { class: "form-note", role: "status" });
    const error = formError();
    const state = h("span", { class: "bot-state" });
    const copy = button(t("Copy"), () => copyText(token, copied), {
      class: "small",
      "aria-label": t("Copy the token of {name}", { name: bot.name }),
    });
    const revoke = confirming(t("Revoke"), t("Click again"), () => this.revoke(bot, item, error), {
      class: "danger small",
      "aria-label": t("Revoke the token of {name}", { name: bot.name }),
    });
    const item = h(
      "li",
      { class: "bot-token-item", dataset: { player: bot.player_id } },
      h("div", { class: "bot-head" }, h("strong", {}, bot.name), " ", h("code", {}, bot.player_id), " ", state),
      h("label", { for: id, class: "offscreen" }, t("Token of {name}", { name: bot.name })),
      h("div", { class: "row" }, token, copy, revoke),
      copied,
      error,
    );
    item.parts = { token, copy, revoke, state };
    return item;
  }

  async revoke(bot, item, error) {
    show(error, false);
    try {
      await this.api.post(`/api/admin/players/${encodeURIComponent(bot.player_id)}/revoke`);
      const { token, copy, revoke, state } = item.parts;
      item.dataset.revoked = "true";
      setText(state, t("revoked: its token opens nothing"));
      token.value = "";
      token.placeholder = t("revoked");
      copy.remove();
      revoke.remove();
      this.changed();
    } catch (failure) {
      setText(error, errorText(failure));
      show(error, true);
    }
  }
}

/**
 * Put the text of `input` on the clipboard and say so in `note`. The Clipboard API
 * needs a secure page (https or localhost): a class server on the LAN is plain
 * http, so the selected text is copied the older way there.
 */
async function copyText(input, note) {
  input.focus();
  input.select();
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(input.value);
      done = true;
    }
  } catch {
    // Refused (no permission): try the older way below.
  }
  if (!done) done = document.execCommand("copy");
  setText(note, done ? t("Copied") : t("Select the token and copy it (Ctrl+C)"));
}
