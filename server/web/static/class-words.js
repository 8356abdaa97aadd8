// class-words.js: the words of a class's join cards, short class codes and join
// address, as the teacher's page and the start page show them (one place, so
// that they can move to a catalogue with the rest of the page's words).

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
    return (
      `This server listens on this computer only (${pageHost}): students' machines cannot reach it. ` +
      "Restart it with boardroom serve --host 0.0.0.0 (the default), or with " +
      "--public-url URL behind a proxy, then make the cards."
    );
  }
  if (!isLoopback(pageHost)) return "";
  return (
    `This page is open at ${pageHost}, an address only this computer has: students cannot use it. ` +
    `Give them ${summary.join_base} (their join links, QR codes and cards carry it).`
  );
}

export const CARD_NOTE =
  "Scan the code or open the link: it is your key, keep it to yourself. " +
  "Or type your class code on the start page.";

export const CODE_LABEL = "Have a class code?";
export const CODE_HINT = "The 6 letters and digits on your card";
export const CODE_INVALID = "This code is not valid: ask your teacher for your card.";
