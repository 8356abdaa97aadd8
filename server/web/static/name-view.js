// name-view.js: asks the player's name. Asked once: the name is remembered in
// this browser (storage.js) and can be changed from the page's header. When the
// server runs a class (GET /api/class), it also offers, above the name, "Have a class code?": the
// six characters on a student's card (POST /api/class/code) sign this browser in
// as that student, exactly as the card's join link does (account-link.js): the
// student's player token and name are kept, and the page connects as them.

import { CODE_HINT, CODE_INVALID, CODE_LABEL } from "./class-words.js";
import { button, h, setText, show } from "./dom.js";
import { GAMES, isFamily } from "./game-list.js";
import { t } from "./i18n.js";
import { saveName, savePlayerToken, saveToken } from "./storage.js";
import { welcomeLine } from "./words.js";

const NAME_MAX = 32; // the server's limit (docs/protocol.md, bad_name)
const CODE_MAX = 9; // six characters, with room for a space or a dash typed between

export class NameView {
  /** `onName(name)` is called with the name entered, trimmed, or with the
   * student's name once their class code was taken (their token kept first). */
  constructor(onName) {
    this.onName = onName;
    this.input = h("input", {
      id: "name-input",
      name: "name",
      required: true,
      maxlength: NAME_MAX,
      autocomplete: "nickname",
      spellcheck: "false",
    });
    this.error = h("p", { class: "form-error", role: "alert" });
    this.warning = h("p", { class: "form-note" });
    this.onCancel = null;
    this.cancel = button(t("Cancel"), () => this.onCancel?.());
    this.codeForm = this.buildCodeForm();
    this.nameForm = h(
      "form",
      {
        class: "name-form",
        onsubmit: (event) => {
          event.preventDefault();
          const name = this.input.value.trim();
          if (name) onName(name);
        },
      },
      h("label", { for: "name-input" }, t("Your name")),
      h(
        "div",
        { class: "row" },
        this.input,
        h("button", { type: "submit", class: "primary" }, t("Enter")),
        this.cancel,
      ),
      this.warning,
      this.error,
    );
    this.element = h(
      "section",
      { class: "name-view panel", "aria-labelledby": "name-title" },
      h("h1", { id: "name-title" }, t("Welcome to Boardroom")),
      h("p", {}, welcomeLine(GAMES.filter((game) => !isFamily(game)).map((game) => game.title))),
      this.codeForm,
      this.nameForm,
    );
    this.offerCodes();
  }

  buildCodeForm() {
    this.codeInput = h("input", {
      id: "class-code-input",
      name: "code",
      maxlength: CODE_MAX,
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      placeholder: "K7P2QX",
      "aria-describedby": "class-code-hint",
    });
    this.codeButton = h("button", { type: "submit" }, t("Join with code"));
    this.codeError = h("p", { class: "form-error", role: "alert", hidden: true });
    return h(
      "form",
      { class: "class-code", hidden: true, onsubmit: (event) => this.sendCode(event) },
      h("label", { for: "class-code-input" }, CODE_LABEL),
      h("div", { class: "row" }, this.codeInput, this.codeButton),
      h("p", { class: "form-note", id: "class-code-hint" }, CODE_HINT),
      this.codeError,
    );
  }

  /** Show the class code field when the server runs a class. It comes first, above
   * the name: a student of the class has a card, and a name typed instead would
   * make them a second student; the cursor goes to it from an empty name. */
  async offerCodes() {
    try {
      const response = await fetch("/api/class");
      const answer = response.ok ? await response.json() : {};
      const inClass = Boolean(answer.class);
      show(this.codeForm, inClass);
      if (!inClass) return;
      if (document.activeElement === this.input && !this.input.value) this.codeInput.focus();
    } catch {
      // No server, no class: the name alone is asked.
    }
  }

  async sendCode(event) {
    event.preventDefault();
    const code = this.codeInput.value.trim();
    if (!code) {
      this.codeInput.focus();
      return;
    }
    this.showCodeError("");
    this.codeButton.disabled = true;
    try {
      const response = await fetch("/api/class/code", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code }),
      });
      const answer = await response.json().catch(() => ({}));
      if (response.ok) {
        // As a join link does (main.js followAccountLink): this browser is that student.
        savePlayerToken(answer.player_token);
        saveToken(null);
        saveName(answer.name);
        this.codeInput.value = "";
        this.onName(answer.name);
      } else if (answer.error === "rate_limited") {
        const wait = Math.max(1, Math.ceil(answer.retry_after ?? 1));
        this.showCodeError(t("Too many wrong codes from this network: try again in {seconds} s.", { seconds: wait }));
      } else {
        this.showCodeError(CODE_INVALID);
      }
    } catch {
      this.showCodeError(t("The server could not be reached: try again."));
    } finally {
      this.codeButton.disabled = false;
    }
  }

  showCodeError(text) {
    setText(this.codeError, text);
    show(this.codeError, Boolean(text));
    if (text) this.codeInput.select();
  }

  /** Prepare the form: the current name, an error to show, a warning about games
   * in progress, and what Cancel does (no Cancel button without it). */
  prepare({ name = "", error = "", warning = "", cancel = null } = {}) {
    this.onCancel = cancel;
    show(this.cancel, Boolean(cancel));
    this.input.value = name;
    setText(this.error, error);
    show(this.error, Boolean(error));
    setText(this.warning, warning);
    show(this.warning, Boolean(warning));
  }

  /** The cursor in the class code when it is offered and no name is there yet, else in the name. */
  focus() {
    const field = this.codeForm.hidden || this.input.value ? this.input : this.codeInput;
    field.focus();
    field.select();
  }
}
