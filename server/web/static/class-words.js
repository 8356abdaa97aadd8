// class-words.js: the words of a class's join cards, short class codes and join
// address, as the teacher's page and the start page show them, in the page's
// language (the cards' note is only marked: the cards speak the class's language,
// teacher-accounts.js).

import { N_, t } from "./i18n.js";

/** True for an address that means "this computer" wherever it is typed. */
export function isLoopback(hostname = location.hostname) {
  const name = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return name === "localhost" || name.endsWith(".localhost") || /^127\./.test(name) || name === "::1";
}

/**
 * The teacher page's notice about the address students use, or "" when none is
 * needed: the page is open on loopback (`pageHost`), or the join links lead to
 * an address no student's machine reaches (`summary.join_reachable` false).
 */
export function addressNotice(summary, pageHost = location.hostname) {
  if (summary.join_reachable === false) {
    return t(
      "This server listens on this computer only ({host}): students' machines cannot reach it. Restart it with {command} (the default), or with {option} behind a proxy, then make the cards.",
      { host: pageHost, command: "boardroom serve --host 0.0.0.0", option: "--public-url URL" },
    );
  }
  if (!isLoopback(pageHost)) return "";
  return t(
    "This page is open at {host}, an address only this computer has: students cannot use it. Give them {address} (their join links, QR codes and cards carry it).",
    { host: pageHost, address: summary.join_base },
  );
}

/** What a card says to do with it: a message, worded where the card is printed (in the class's language). */
export const CARD_NOTE = N_(
  "Scan the code or open the link: it is your key, keep it to yourself. Or type your class code on the start page.",
);

export const CODE_LABEL = t("Have a class code?");
export const CODE_HINT = t("The 6 letters and digits on your card");
export const CODE_INVALID = t("This code is not valid: ask your teacher for your card.");
