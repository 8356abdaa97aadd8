// teacher-accounts.js: class accounts on the teacher's page. "Add students"
// takes a list of names, one a line, and makes a student of each (POST
// /api/admin/students). Each new student's join link carries their token, and
// the answer is the only place it ever shows (the server keeps the token's hash),
// so the links go on a printable sheet at once: one card per student with the
// name, the link as a QR code, the short class code to type instead, the link in
// full and what to do with it. The sheet says that it is shown only now; the page
// asks before it is left while a sheet is up, and printing shows the sheet alone,
// eight cards to an A4 or Letter page (teacher.css, @media print).

import { CARD_NOTE } from "./class-words.js";
import { button, confirming, h, setText, show } from "./dom.js";
import { language, serverLanguage, speakerOf, t, tn } from "./i18n.js";
import { errorText } from "./teacher-api.js";

const NAMES_MAX = 200; // the API's limit for one request
const NAME_LENGTH_MAX = 32; // a player's name, as the server checks it

/**
 * The lines of `text` as the textarea holds them, each trimmed, up to the last
 * that is not blank: blank lines inside are kept (the server skips them), so
 * that the API's line numbers are the box's. Duplicates and bad names are kept:
 * the API refuses them and says which lines.
 */
export function linesOf(text) {
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.trim());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A new name's problem (POST /api/admin/students, `problems`) in the page's
 * words, from its code; the server's English for a code this page does not know. */
function problemText(problem) {
  switch (problem.code) {
    case "on_roster":
      return t("on the roster already: give each one name");
    case "repeated":
      return t("on line {line} already: give each one name", { line: problem.first_line });
    case "too_long":
      return t("name is {length} characters long: choose 1 to {most}", {
        length: [...problem.name].length,
        most: NAME_LENGTH_MAX,
      });
    case "invisible_characters":
      return t("name holds control or invisible characters: use letters, digits, spaces and punctuation");
    default:
      return problem.problem;
  }
}

let classSpeaker = null; // the Speaker of the class's language, fetched once

/** Who words the cards: the class's language (the server's) if it has one and
 * the page speaks another, else the page's own words (t). */
async function cardSpeaker() {
  const wanted = serverLanguage();
  if (!wanted || wanted === language()) return { language: language(), t };
  classSpeaker ??= speakerOf(wanted);
  return await classSpeaker;
}

export class AccountsPanel {
  /** `api` is the AdminApi; `changed()` asks the page to poll again at once;
   * `className()` is the class's name, for the sheet's heading. */
  constructor(api, changed, className) {
    this.api = api;
    this.changed = changed;
    this.className = className;
    this.element = this.buildForm();
    this.sheet = this.buildSheet();
    this.onLeave = (event) => {
      // The links exist nowhere else: ask before they are lost.
      event.preventDefault();
      event.returnValue = "";
    };
  }

  // -- adding students --------------------------------------------------------------------

  buildForm() {
    this.names = h("textarea", {
      id: "new-students",
      name: "names",
      rows: 6,
      autocomplete: "off",
      spellcheck: "false",
      placeholder: t("Ann\nBob Smith\nCarol"),
    });
    this.addButton = h("button", { type: "submit" }, t("Add students"));
    // A block, not formError's paragraph: a refusal may list every line at fault.
    this.error = h("div", { class: "form-error", role: "alert", hidden: true });
    return h(
      "section",
      { class: "panel accounts-panel", "aria-labelledby": "accounts-title" },
      h("h2", { id: "accounts-title" }, t("Add students")),
      h(
        "form",
        { class: "add-students", onsubmit: (event) => this.add(event) },
        h("label", { for: "new-students" }, t("Names, one per line")),
        this.names,
        h("div", { class: "row" }, this.addButton),
        h(
          "p",
          { class: "form-note" },
          t(
            "Each student gets a card to print: a join link with its QR code, which makes the browser that opens it the student, and a short class code to type on the start page instead.",
          ),
        ),
        this.error,
      ),
    );
  }

  async add(event) {
    event.preventDefault();
    this.showError("");
    const names = linesOf(this.names.value);
    if (names.length === 0) {
      this.showError(t("Write the students' names first, one per line."));
      this.names.focus();
      return;
    }
    if (names.length > NAMES_MAX) {
      this.showError(t("That is {lines} lines: add at most {most} at a time.", { lines: names.length, most: NAMES_MAX }));
      return;
    }
    // One request at a time: a second click must not make every student twice.
    this.addButton.disabled = true;
    try {
      const answer = await this.api.post("/api/admin/students", { names });
      this.names.value = "";
      await this.addCards(answer.students, answer.class);
      this.changed();
    } catch (error) {
      if (error.code === "bad_names" && Array.isArray(error.body?.problems)) this.showProblems(error.body.problems);
      else this.showError(errorText(error));
    } finally {
      this.addButton.disabled = false;
    }
  }

  showError(text) {
    setText(this.error, text);
    show(this.error, Boolean(text));
  }

  /** Every line the server refused, each with its number, name and problem. */
  showProblems(problems) {
    this.error.replaceChildren(
      tn(
        "Nobody was added: fix {n} line and click Add students again.",
        "Nobody was added: fix {n} lines and click Add students again.",
        problems.length,
      ),
      h(
        "ul",
        { class: "name-problems" },
        problems.map((problem) =>
          h(
            "li",
            { dataset: { line: String(problem.line) } },
            h("strong", {}, t("Line {line}", { line: problem.line })),
            " ",
            t("“{name}”: {problem}", { name: problem.name, problem: problemText(problem) }),
          ),
        ),
      ),
    );
    show(this.error, true);
  }

  // -- the sheet --------------------------------------------------------------------------

  buildSheet() {
    this.heading = h("h2", { id: "sheet-title" });
    this.cards = h("ul", { class: "account-cards" });
    const print = button(t("Print"), () => window.print(), { class: "primary" });
    const close = confirming(t("Close the sheet"), t("Click again: the links go"), () => this.closeSheet(), {
      class: "danger",
    });
    const sheet = h(
      "section",
      { class: "panel account-sheet", "aria-labelledby": "sheet-title", hidden: true },
      h("div", { class: "panel-head" }, this.heading, h("span", { class: "sheet-buttons" }, print, close)),
      h(
        "p",
        { class: "sheet-warning", role: "note" },
        h("strong", {}, t("These links and codes are shown only now.")),
        " ",
        t(
          "The server keeps no copy of them: print this sheet (eight cards a page, or save it as a PDF from the print dialog) before you leave or reload this page. Cut out the cards and hand each student their own.",
        ),
      ),
      this.cards,
    );
    return sheet;
  }

  /** Put a card on the sheet for each of `students` (the API's answer), and show it.
   * The cards speak the class's language (`serve --lang`) when the server has
   * one, else the page's: they are for the students, not for the teacher. */
  async addCards(students, className = this.className()) {
    const cards = await cardSpeaker();
    for (const student of students) {
      this.cards.append(
        h(
          "li",
          { class: "account-card", lang: cards.language, dataset: { student: student.id, name: student.name } },
          h("p", { class: "card-class" }, cards.t("Boardroom · class {name}", { name: className })),
          h("h3", { class: "card-name" }, student.name),
          h(
            "div",
            { class: "card-body" },
            h("img", {
              class: "card-qr",
              src: student.qr,
              alt: cards.t("QR code of {name}'s join link", { name: student.name }),
            }),
            h(
              "div",
              { class: "card-keys" },
              h("p", { class: "card-code-label" }, cards.t("Class code")),
              h("p", { class: "card-code" }, student.code),
              h("p", { class: "card-note" }, cards.t(CARD_NOTE)),
            ),
          ),
          h("p", { class: "card-link" }, h("code", {}, student.join_link)),
        ),
      );
    }
    const count = this.cards.children.length;
    setText(
      this.heading,
      tn("Join links for class {name}: {n} student", "Join links for class {name}: {n} students", count, {
        name: className,
      }),
    );
    show(this.sheet, true);
    document.body.dataset.sheet = "open";
    window.addEventListener("beforeunload", this.onLeave);
    this.sheet.scrollIntoView({ block: "start" });
  }

  closeSheet() {
    this.cards.replaceChildren();
    show(this.sheet, false);
    delete document.body.dataset.sheet;
    window.removeEventListener("beforeunload", this.onLeave);
  }
}
