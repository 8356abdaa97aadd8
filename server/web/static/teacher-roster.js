// teacher-roster.js: the teacher's roster: every student with their presence,
// rooms and results, and the controls on each (rename in place, plays as a
// person or a bot, a new join link after a second click (the old one opens
// nothing; the link goes on the sheet, teacher-accounts.js), merge into another entry that is the same person after the
// browser's confirm(), remove after a second click). The page polls the roster
// and hands it over (update); each student keeps their row, so that a rename
// being typed or a merge being chosen survives the refreshes. A refusal shows in
// the student's row. The API gives the roster a page at a time (200 students):
// a class fits in one; a roster filled by thousands shows a page, with
// Previous and Next, and the page polls only the one shown (path()).

import { button, confirming, h, placeInOrder, setText, show } from "./dom.js";
import { formatNumber, N_, t, tn } from "./i18n.js";
import { errorText } from "./teacher-api.js";

const KIND_WORDS = { human: N_("person"), bot: N_("bot") };
const PAGE_SIZE = 200; // the API's own default page (ROSTER_PAGE_DEFAULT)

export class RosterPanel {
  /** `api` is the AdminApi; `changed()` asks the page to poll again at once;
   * `newLink(entry)` puts a student's new join link on the sheet. */
  constructor(api, changed, newLink) {
    this.api = api;
    this.changed = changed;
    this.newLink = newLink;
    this.rows = new Map(); // student id -> StudentRow
    this.offset = 0; // the first student of the page shown
    this.body = h("tbody");
    this.count = h("span", { class: "updated" });
    this.previous = button(t("Previous"), () => this.turn(-PAGE_SIZE), { class: "small" });
    this.next = button(t("Next"), () => this.turn(PAGE_SIZE), { class: "small" });
    this.pageText = h("span", { class: "page-of" });
    this.pager = h(
      "nav",
      { class: "row roster-pages", "aria-label": t("Pages of the roster"), hidden: true },
      this.previous,
      this.pageText,
      this.next,
    );
    this.empty = h(
      "p",
      { class: "empty" },
      t("No students yet: they appear here as they connect, or add them below."),
    );
    const column = (text) => h("th", { scope: "col" }, text);
    this.element = h(
      "section",
      { class: "panel roster-panel", "aria-labelledby": "roster-title" },
      h("div", { class: "panel-head" }, h("h2", { id: "roster-title" }, t("Students")), this.count),
      h(
        "table",
        { class: "roster" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            column(t("Name")),
            column(t("Plays as")),
            column(t("Here")),
            column(t("Rooms")),
            column(t("Played")),
            column(t("W-D-L")),
            column(h("span", { class: "offscreen" }, t("Actions"))),
          ),
        ),
        this.body,
      ),
      this.empty,
      this.pager,
    );
    this.table = this.element.querySelector("table.roster");
    window.addEventListener("resize", () => this.fit());
  }

  /**
   * Each row's controls on one line when the roster has the room; on two when
   * it has not (a narrow screen, a language of longer words: Spanish at 1024
   * px), rather than a roster wider than the page. Measured with one line.
   */
  fit() {
    this.table.classList.remove("tight");
    // The panel may grow with its table: then it is the page that overflows.
    const past = this.element.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
    if (past || this.element.scrollWidth > this.element.clientWidth + 1) this.table.classList.add("tight");
  }

  /** The roster's address for the page shown (GET /api/admin/roster), or the page from `offset`. */
  path(offset = this.offset) {
    return `/api/admin/roster?offset=${offset}&limit=${PAGE_SIZE}`;
  }

  /** Show the page `by` students on (negative: back), and poll it at once. */
  turn(by) {
    this.offset = Math.max(0, this.offset + by);
    this.changed();
  }

  /**
   * Show `students` (one page of GET /api/admin/roster), first seen first;
   * `page` is the rest of the answer: `total` on the roster, this page's `offset`.
   */
  update(students, page = {}) {
    const total = page.total ?? students.length;
    if (students.length === 0 && total > 0 && this.offset > 0) {
      // The roster shrank under the page shown (students removed or merged): go back.
      this.offset = Math.max(0, Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE);
      this.changed();
      return;
    }
    const ids = new Set(students.map((student) => student.id));
    for (const [id, row] of this.rows) {
      if (!ids.has(id)) {
        row.element.remove();
        this.rows.delete(id);
      }
    }
    for (const student of students) {
      let row = this.rows.get(student.id);
      if (!row) {
        row = new StudentRow(this, student);
        this.rows.set(student.id, row);
      }
      row.update(student);
      row.mergeChoices(students);
    }
    placeInOrder(this.body, students.map((student) => this.rows.get(student.id).element));
    const connected = students.filter((student) => student.connected).length;
    const paged = total > students.length || this.offset > 0;
    setText(
      this.count,
      paged
        ? t("{total} on the roster", { total: formatNumber(total) })
        : t("{count} on the roster, {connected}", {
            count: formatNumber(students.length),
            connected: tn("{n} connected", "{n} connected", connected),
          }),
    );
    show(this.pager, paged);
    if (paged) {
      const first = (page.offset ?? this.offset) + 1;
      const last = first + students.length - 1;
      setText(
        this.pageText,
        t("Students {first}–{last} of {total}", {
          first: formatNumber(first),
          last: formatNumber(last),
          total: formatNumber(total),
        }),
      );
      this.previous.disabled = this.offset === 0;
      this.next.disabled = first - 1 + students.length >= total;
    }
    show(this.empty, total === 0);
    this.fit();
  }

  /** Forget a removed student's row at once (the next poll agrees). */
  removed(id) {
    this.rows.get(id)?.element.remove();
    this.rows.delete(id);
    this.changed();
  }
}

class StudentRow {
  constructor(panel, student) {
    this.panel = panel;
    this.id = student.id;
    this.student = student;
    this.editing = false;
    this.nameText = h("span", { class: "student-name" });
    this.renameButton = button(t("Rename"), () => this.edit(), { class: "quiet" });
    this.nameCell = h("th", { scope: "row" }, this.nameText, this.renameButton);
    this.kind = h(
      "select",
      { name: "kind", onchange: () => this.setKind(this.kind.value) },
      Object.entries(KIND_WORDS).map(([value, text]) => h("option", { value }, t(text))),
    );
    // Each cell names its column (data-label): on a phone the row is a card
    // whose cells say what they are, the column heads being hidden (teacher.css).
    const label = (text) => ({ dataset: { label: text } });
    this.here = h("td", label(t("Here")));
    this.rooms = h("td", label(t("Rooms")));
    this.played = h("td", label(t("Played")));
    this.record = h("td", { class: "record", ...label(t("W-D-L")) });
    this.error = h("p", { class: "form-error", role: "alert", hidden: true });
    this.remove = confirming(t("Remove"), t("Click again"), () => this.removeStudent(), {
      class: "danger small",
    });
    this.newLinkButton = confirming(t("New link"), t("Click again"), () => this.giveNewLink(), {
      class: "small",
    });
    this.mergeInto = h("select", { name: "merge-into", class: "merge-into" });
    this.mergeButton = button(t("Merge"), () => this.merge(), { class: "small" });
    this.choices = ""; // the other students the merge select offers, as last drawn
    this.element = h(
      "tr",
      { dataset: { student: student.id } },
      this.nameCell,
      h("td", { class: "kind", ...label(t("Plays as")) }, this.kind),
      this.here,
      this.rooms,
      this.played,
      this.record,
      h(
        "td",
        { class: "actions" },
        h("span", { class: "merge" }, this.mergeInto, this.mergeButton),
        this.newLinkButton,
        this.remove,
        this.error,
      ),
    );
  }

  update(student) {
    this.student = student;
    this.element.dataset.name = student.name;
    this.element.dataset.kind = student.kind;
    if (!this.editing) setText(this.nameText, student.name);
    if (document.activeElement !== this.kind) this.kind.value = student.kind;
    const name = student.name;
    this.kind.setAttribute("aria-label", t("{name} plays as", { name }));
    this.renameButton.setAttribute("aria-label", t("Rename {name}", { name }));
    this.remove.setAttribute("aria-label", t("Remove {name}", { name }));
    this.newLinkButton.setAttribute("aria-label", t("New link for {name}", { name }));
    this.mergeInto.setAttribute("aria-label", t("Merge {name} into", { name }));
    this.mergeButton.setAttribute("aria-label", t("Merge {name}", { name }));
    setText(this.here, student.connected ? t("yes") : t("away"));
    this.here.className = student.connected ? "here" : "away";
    setText(this.rooms, student.rooms.join(", ") || "—");
    setText(this.played, String(student.played));
    setText(this.record, `${student.won}-${student.drawn}-${student.lost}`);
  }

  // -- renaming in place --------------------------------------------------------------

  edit() {
    this.editing = true;
    this.showError("");
    const input = h("input", {
      name: "name",
      value: this.student.name,
      maxlength: 32,
      autocomplete: "off",
      spellcheck: "false",
      "aria-label": t("New name for {name}", { name: this.student.name }),
      onkeydown: (event) => {
        if (event.key === "Escape") this.stopEditing();
      },
    });
    const form = h(
      "form",
      { class: "rename", onsubmit: (event) => this.rename(event, input) },
      input,
      h("button", { type: "submit" }, t("Save")),
      button(t("Cancel"), () => this.stopEditing(), { class: "quiet" }),
    );
    this.nameCell.replaceChildren(form);
    input.focus();
    input.select();
  }

  stopEditing() {
    this.editing = false;
    setText(this.nameText, this.student.name);
    this.nameCell.replaceChildren(this.nameText, this.renameButton);
  }

  async rename(event, input) {
    event.preventDefault();
    const name = input.value.trim();
    if (name === this.student.name) {
      this.stopEditing();
      return;
    }
    try {
      const answer = await this.panel.api.post(`/api/admin/students/${this.id}/rename`, { name });
      this.update(answer.student);
      this.stopEditing();
      this.showError("");
    } catch (error) {
      this.showError(errorText(error));
      input.focus();
    }
  }

  // -- the other controls -------------------------------------------------------------

  async setKind(kind) {
    try {
      const answer = await this.panel.api.post(`/api/admin/students/${this.id}/kind`, { kind });
      this.update(answer.student);
      this.showError("");
    } catch (error) {
      this.kind.value = this.student.kind;
      this.showError(errorText(error));
    }
  }

  /** Offer every other student of `students` to merge into, by name and id. */
  mergeChoices(students) {
    const others = students.filter((student) => student.id !== this.id);
    const choices = JSON.stringify(others.map((student) => [student.id, student.name]));
    // Redrawing an open select would close it under the pointer: wait for the next poll.
    if (choices === this.choices || document.activeElement === this.mergeInto) return;
    this.choices = choices;
    const chosen = this.mergeInto.value;
    this.mergeInto.replaceChildren(
      h("option", { value: "" }, t("Merge into…")),
      ...others.map((student) => h("option", { value: student.id }, `${student.name} (${student.id})`)),
    );
    this.mergeInto.value = others.some((student) => student.id === chosen) ? chosen : "";
    this.mergeInto.disabled = others.length === 0;
    this.mergeButton.disabled = others.length === 0;
  }

  /** Merge this entry into the chosen one, once the teacher confirms: the two are
   * one person, whose games all count for the chosen entry; this one leaves. */
  async merge() {
    const into = this.mergeInto.value;
    this.showError("");
    if (!into) {
      this.showError(t("Choose the entry that {name} is the same person as", { name: this.student.name }));
      return;
    }
    const other = this.panel.rows.get(into)?.student ?? { id: into, name: into };
    const names = { name: this.student.name, id: this.id, other: other.name, other_id: other.id };
    const question = [
      t("Merge {name} ({id}) into {other} ({other_id})?", names),
      t(
        "Do this only if they are the same person: the games of {name} then count for {other}, and {name} leaves the roster. It cannot be undone.",
        names,
      ),
    ].join("\n\n");
    if (!window.confirm(question)) return;
    try {
      await this.panel.api.post(`/api/admin/students/${this.id}/merge`, { into });
      this.panel.removed(this.id);
    } catch (error) {
      this.showError(errorText(error));
    }
  }

  /** A new join link for this student (a lost card): the old one opens nothing. */
  async giveNewLink() {
    this.showError("");
    try {
      const answer = await this.panel.api.post(`/api/admin/students/${this.id}/new-link`);
      this.panel.newLink(answer);
    } catch (error) {
      this.showError(errorText(error));
    }
  }

  async removeStudent() {
    try {
      await this.panel.api.post(`/api/admin/students/${this.id}/remove`);
      this.panel.removed(this.id);
    } catch (error) {
      this.showError(errorText(error));
    }
  }

  showError(text) {
    setText(this.error, text);
    show(this.error, Boolean(text));
  }
}
