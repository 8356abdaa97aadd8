// dom.js: small helpers to build and update elements, so that the views read
// as the structure of the page rather than as a run of createElement calls.

/**
 * A new element: h("button", { class: "primary", onclick: play }, "Play").
 * Props: `class`, `dataset` and `style` (objects; style through the CSSOM, which
 * the page's Content-Security-Policy allows where a style attribute is refused),
 * `on<event>` (a listener), anything else as an attribute (true gives an empty
 * attribute; false, null and undefined none).
 * Children are nodes or strings; null, false and undefined are skipped.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key === "style") {
      for (const [property, setting] of Object.entries(value)) element.style.setProperty(property, setting);
    }
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  element.append(...children.flat().filter((child) => child != null && child !== false));
  return element;
}

/** A button that is not a form's submit button: `label`, calling `onclick`. */
export function button(label, onclick, props = {}) {
  return h("button", { type: "button", onclick, ...props }, label);
}

const CONFIRM_MS = 4000; // a "click again to resign" waits this long for the second click

/**
 * A button that acts on a second click within a few seconds, saying `question`
 * after the first (for what cannot be undone: resign, remove a student). The
 * button is as wide as the longer of the two texts from the start (style.css,
 * `data-question`), so arming it does not move it away from the pointer. It
 * stays armed while it stays in the page: a view that redraws must keep the
 * button (moving it out of the page and back blurs it, which disarms it).
 */
export function confirming(label, question, action, props = {}) {
  let armed = null;
  const element = button(
    label,
    () => {
      if (armed) {
        disarm();
        action();
        return;
      }
      element.classList.add("armed");
      setText(element, question);
      armed = setTimeout(disarm, CONFIRM_MS);
    },
    { class: "danger", onblur: () => disarm(), ...props },
  );
  element.dataset.question = question;
  const disarm = () => {
    clearTimeout(armed);
    armed = null;
    element.classList.remove("armed");
    setText(element, label);
  };
  return element;
}

/**
 * Make `elements` the children of `parent`, in that order, moving only those out
 * of place: a moved element loses the focus (and an armed `confirming` button
 * its second click), so rows kept across refreshes must not be moved needlessly.
 */
export function placeInOrder(parent, elements) {
  let expected = parent.firstElementChild;
  for (const element of elements) {
    if (element === expected) expected = expected.nextElementSibling;
    else parent.insertBefore(element, expected);
  }
  while (expected) {
    const next = expected.nextElementSibling;
    expected.remove();
    expected = next;
  }
}

/** Set an element's text only when it changed (screen readers re-read live regions). */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** Show or hide an element. */
export function show(element, visible) {
  element.hidden = !visible;
}

/** The form's fields as an object of strings (checkboxes as booleans). */
export function formValues(form) {
  const values = {};
  for (const field of form.elements) {
    if (!field.name) continue;
    if (field.type === "checkbox") values[field.name] = field.checked;
    else if (field.type === "radio") {
      if (field.checked) values[field.name] = field.value;
    } else values[field.name] = field.value;
  }
  return values;
}

/**
 * Copy text to the clipboard. The Clipboard API needs a secure context (https or
 * localhost); on a plain-http classroom address the older selection copy is used.
 * Resolves to true when the text was copied.
 */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission): try the old way.
    }
  }
  const scratch = h("textarea", { readonly: true, class: "offscreen" }, text);
  document.body.append(scratch);
  scratch.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  scratch.remove();
  return copied;
}
