// name-view.js: asks the player's name. Asked once: the name is remembered in
// this browser (storage.js) and can be changed from the page's header.

import { button, h, setText, show } from "./dom.js";

const NAME_MAX = 32; // the server's limit (docs/protocol.md, bad_name)

export class NameView {
  /** `onName(name)` is called with the name entered, trimmed. */
  constructor(onName) {
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
    this.cancel = button("Cancel", () => this.onCancel?.());
    this.element = h(
      "section",
      { class: "name-view panel", "aria-labelledby": "name-title" },
      h("h1", { id: "name-title" }, "Welcome to Boardroom"),
      h("p", {}, "Play tic-tac-toe, Connect Four and gomoku against friends, classmates or the AI."),
      h(
        "form",
        {
          onsubmit: (event) => {
            event.preventDefault();
            const name = this.input.value.trim();
            if (name) onName(name);
          },
        },
        h("label", { for: "name-input" }, "Your name"),
        h(
          "div",
          { class: "row" },
          this.input,
          h("button", { type: "submit", class: "primary" }, "Enter"),
          this.cancel,
        ),
        this.warning,
        this.error,
      ),
    );
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

  focus() {
    this.input.focus();
    this.input.select();
  }
}
