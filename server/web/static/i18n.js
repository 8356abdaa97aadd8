// i18n.js: the page's words in the reader's language (English or Spanish, as
// shared/i18n/languages.py lists them). Import it before anything that shows
// words: its top-level await loads the catalogue first, so every module that
// imports it (and every constant those modules make with t() at load) already
// speaks the reader's language.
//
// Which language: the reader's own choice made with the switch (remembered in
// localStorage), else the language the server was started with (`serve --lang`,
// a class's language), else the browser's (navigator.languages), else English.
// A page marked <html data-language-follows="server"> (the wall, the printed
// cards) takes the server's language before the reader's choice: it speaks to a
// class, not to the person at the keyboard.
//
// Messages are English with {placeholders} (the catalogue's keys, the same in
// the Python code); t() fills them in, tn() picks the plural form with
// Intl.PluralRules. The catalogues are gettext .po files read by the server
// (GET /api/i18n, docs/protocol.md); untranslated messages read as English.

import { h } from "./dom.js";

const STORAGE_KEY = "boardroom.language";

/** Words in one language: a catalogue as GET /api/i18n gives it. The page has
 * one (t, tn below); a part of a page that speaks another language (the
 * teacher's cards, printed in the class's) gets its own from speakerOf(). */
export class Speaker {
  constructor(catalogue) {
    this.catalogue = catalogue;
    this.language = catalogue.language;
    this.pluralRules = new Intl.PluralRules(catalogue.language);
  }

  /** `message` in this language, its {placeholders} filled from `params`. */
  t(message, params = {}) {
    return fill(this.catalogue.messages[message] ?? message, params);
  }

  /** The form of singular/plural for `n`; {n} is `n` written in this language. */
  tn(singular, plural, n, params = {}) {
    const forms = this.catalogue.plurals[singular];
    const text = forms ? forms[this.pluralRules.select(n)] ?? forms.other : n === 1 ? singular : plural;
    return fill(text, { ...params, n: new Intl.NumberFormat(this.language).format(n) });
  }
}

const ENGLISH = { language: "en", server_language: null, languages: [{ code: "en", name: "English" }], messages: {}, plurals: {} };
let page = new Speaker(ENGLISH);

/** Mark a message for the catalogue without translating it (translate it where shown, with t()). */
export const N_ = (message) => message;

/** `message` in the page's language, its {placeholders} filled from `params`. */
export const t = (message, params) => page.t(message, params);

/** The form of singular/plural for `n` in the page's language; {n} is `n` in its locale. */
export const tn = (singular, plural, n, params) => page.tn(singular, plural, n, params);

/** The language the server was started with (serve --lang: a class's), or null. */
export const serverLanguage = () => page.catalogue.server_language ?? null;

/** A Speaker of `code` (for words printed in another language than the page's). */
export async function speakerOf(code) {
  return new Speaker(await fetchCatalogue({ chosen: code, follows: "reader" }));
}

/** The page's language code ("en", "es"). */
export const language = () => page.language;

/** A number as the page's language writes it (1,5 in Spanish). */
export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(page.language, options).format(value);
}

/** A date and time as the page's language writes it. */
export function formatDateTime(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(page.language, options).format(value);
}

/** Put the translations into the elements marked data-i18n (their text) and
 * data-i18n-attrs (the named attributes) under `root`. The English stays in a
 * data attribute, so translating twice is harmless. */
export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.dataset.i18n ||= normalise(element.textContent);
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const name of element.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
      const key = `i18nSource${name.replace(/(^|-)(\w)/g, (_all, _dash, letter) => letter.toUpperCase())}`;
      element.dataset[key] ||= normalise(element.getAttribute(name) ?? "");
      element.setAttribute(name, t(element.dataset[key]));
    }
  }
}

/** A labelled select of the languages; choosing one remembers it and reloads
 * the page in it (every view is drawn again in the new language). */
export function languageSwitch() {
  const select = h(
    "select",
    {
      class: "language-switch",
      "aria-label": t("Language"),
      onchange: () => {
        remember(select.value);
        location.reload();
      },
    },
    ...page.catalogue.languages.map((choice) =>
      h("option", { value: choice.code, lang: choice.code, selected: choice.code === page.language }, choice.name),
    ),
  );
  return select;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function normalise(text) {
  return text.split(/\s+/).filter(Boolean).join(" ");
}

function remembered() {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? "";
  } catch {
    return "";
  }
}

function remember(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Storage refused (a private window): the choice lasts this page only.
  }
}

async function fetchCatalogue(wishes) {
  const query = new URLSearchParams({
    chosen: "",
    accept: (navigator.languages ?? [navigator.language]).join(","),
    follows: "reader",
    ...wishes,
  });
  try {
    const response = await fetch(`/api/i18n?${query}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.json();
  } catch (error) {
    // No catalogue (the server is unreachable): English.
    console.warn("i18n: no catalogue, English it is:", error);
    return ENGLISH;
  }
}

async function load() {
  page = new Speaker(
    await fetchCatalogue({
      chosen: remembered(),
      follows: document.documentElement.dataset.languageFollows ?? "reader",
    }),
  );
  document.documentElement.lang = page.language;
  translatePage(document);
}

await load();
