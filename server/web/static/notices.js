// notices.js: what the page says outside the views: the connection banner
// ("Reconnecting…", with a button to try at once), short notices that come
// and go (a seat not kept, a code copied, a game that started elsewhere), and
// in class mode the teacher's messages, the server's (a tournament's end) and
// tournament games, which stay at the top of the page until dismissed. What
// stands above the view (the banner and the pinned notices) is measured into
// the CSS variable --above-view, so that a phone's board takes the height left.

import { button, h, setText, show } from "./dom.js";
import { N_, t } from "./i18n.js";
import { timeLeft } from "./words.js";

const NOTICE_MS = 8000;
const SLOW_START_MS = 1000;
const ANNOUNCEMENTS_KEPT = 2; // older teacher's messages give way: the board keeps its room

/** Each pinned notice's label, by kind (see `pin`). */
const PIN_LABELS = {
  announcement: N_("From the teacher"),
  server: N_("From the server"),
  match: N_("Tournament"),
};

export class Notices {
  /** `banner`, `list` and `pinned` are elements of the page; `onRetry` and `onTakeBack`
   * are the banner buttons' actions ("Try now", and "Play here" after another tab
   * took over). */
  constructor(banner, list, pinned, { onRetry, onTakeBack }) {
    this.banner = banner;
    this.list = list;
    this.pinned = pinned;
    this.bannerText = h("span", { class: "banner-text" });
    this.slowStart = null;
    this.retry = button(t("Try now"), onRetry);
    this.takeBack = button(t("Play here"), onTakeBack);
    banner.append(this.bannerText, this.retry, this.takeBack);
    show(banner, false);
    const measure = () => {
      const above = banner.offsetHeight + pinned.offsetHeight;
      document.documentElement.style.setProperty("--above-view", `${above}px`);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(banner);
    observer.observe(pinned);
  }

  /** Show what the connection is doing (a Connection "status" event's detail). */
  connection({ status, reason }) {
    const texts = {
      connecting: t("Connecting to the server…"),
      reconnecting: t("Reconnecting… ({reason})", { reason: reason || t("the connection was lost") }),
      replaced: t("This game is open in another tab or window."),
      removed: t("The teacher removed you from the class."),
      revoked: t("This player's token was revoked."),
    };
    const text = texts[status];
    clearTimeout(this.slowStart);
    if (status === "connecting") {
      // A first connection takes milliseconds: say so only if it does not.
      show(this.banner, false);
      this.slowStart = setTimeout(() => show(this.banner, true), SLOW_START_MS);
    } else {
      show(this.banner, Boolean(text));
    }
    this.banner.dataset.status = status;
    if (text) setText(this.bannerText, text);
    show(this.retry, status === "reconnecting");
    show(this.takeBack, status === "replaced");
  }

  /** A notice for a few seconds; `action` ({ label, run }) adds a button to it;
   * one with the `key` of a notice still shown takes its place (the next retry's
   * "Saving is paused…" replaces the last, rather than pile up). */
  say(text, action = null, key = null) {
    if (key) for (const same of this.list.querySelectorAll(`[data-key="${key}"]`)) same.remove();
    const item = h("li", { class: "notice", dataset: { key: key ?? "" } }, h("span", {}, text));
    const dismiss = () => item.remove();
    if (action) {
      item.append(
        button(action.label, () => {
          dismiss();
          action.run();
        }),
      );
    }
    item.append(button("×", dismiss, { class: "quiet", "aria-label": t("Dismiss") }));
    this.list.append(item);
    setTimeout(dismiss, action ? NOTICE_MS * 2 : NOTICE_MS);
  }

  /**
   * A notice that stays at the top of the page until dismissed: `kind` is
   * "announcement" (the teacher's message), "server" (the server's: a
   * tournament's end) or "match" (a tournament game). A
   * `key` already shown is not shown twice (a `match` comes again after each
   * reconnection). One match notice at a time (a new one replaces the last),
   * and the newest ANNOUNCEMENTS_KEPT of each other kind. `action` ({ label, run })
   * adds a button; `countdown` ({ until, hidden }) adds the time left until
   * `until` (Unix seconds), shown while `hidden()` is false. Returns the notice.
   */
  pin(kind, text, key = null, { action = null, countdown = null } = {}) {
    const shown = [...this.pinned.children];
    const same = key && shown.find((item) => item.dataset.key === key);
    if (same) return same;
    const label = t(PIN_LABELS[kind]);
    const item = h(
      "li",
      { class: `pinned ${kind}`, dataset: { key: key ?? "" } },
      h("strong", { class: "pinned-label" }, label),
      h("span", { class: "pinned-text" }, text),
    );
    let timer = null;
    const dismiss = () => {
      clearInterval(timer);
      item.remove();
    };
    item.dismiss = dismiss;
    if (countdown) {
      const left = h("span", { class: "pinned-time" });
      const tick = () => {
        const seconds = Math.max(0, Math.round(countdown.until - Date.now() / 1000));
        setText(left, seconds > 0 ? t("{time} left to sit down", { time: timeLeft(seconds) }) : "");
        show(left, seconds > 0 && !countdown.hidden());
        if (seconds === 0 || !item.isConnected) clearInterval(timer);
      };
      item.append(left);
      tick();
      timer = setInterval(tick, 1000);
    }
    if (action) item.append(button(action.label, () => action.run(), { class: "primary" }));
    item.append(button(t("Dismiss"), dismiss, { class: "quiet pinned-dismiss" }));
    const sameKind = shown.filter((other) => other.classList.contains(kind));
    const keep = kind === "match" ? 0 : ANNOUNCEMENTS_KEPT - 1;
    for (const other of sameKind.slice(0, Math.max(0, sameKind.length - keep))) other.dismiss();
    this.pinned.append(item);
    // The list scrolls when long notices fill it (style.css): the newest in sight.
    this.pinned.scrollTop = this.pinned.scrollHeight;
    return item;
  }

  /** Take down the pinned notice with `key`, if it is up. */
  unpin(key) {
    const item = [...this.pinned.children].find((other) => other.dataset.key === key);
    item?.dismiss();
  }
}
