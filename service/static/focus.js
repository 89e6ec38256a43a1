// Redrawing a screen without losing the person's place in it. The tables are drawn again
// whole (`innerHTML`) on every event, and a control that is replaced takes the keyboard's
// focus with it, back to <body>: someone playing by keyboard or with a screen reader would
// start again from the top after every move of a bot. `redraw` notes the control that has
// the focus by what it stands for (its data-action, data-card, data-bid, data-seat, ... or
// its id), draws, and focuses the same control again; a text field keeps what the person
// typed in it and the caret. A control that is gone (the card was played) hands the focus
// to the first of the screen's `fallback` selectors that can take it, never to <body>.

// The attributes that say what a control stands for, whichever screen draws it. (Not
// Poch's data-start: a card carries it only while it may start the run; data-code is
// the card.)
const IDENTITY = [
  "data-action",
  "data-card",
  "data-bid",
  "data-seat",
  "data-bet",
  "data-suit",
  "data-code",
  "data-focus",
  "id",
  "name",
];

// Inputs whose caret can be read and set (a number field, for one, has none).
const WITH_CARET = new Set(["text", "search", "url", "tel", "password", "email"]);

/** A selector that finds `element` again in a redrawn screen, or null if it names nothing. */
function identityOf(element) {
  const parts = IDENTITY.filter((name) => element.hasAttribute(name)).map(
    (name) => `[${name}="${CSS.escape(element.getAttribute(name))}"]`,
  );
  return parts.length ? element.localName + parts.join("") : null;
}

/** What the focused control in `container` holds that the redraw would lose, or null. */
function noteFocus(container) {
  const element = document.activeElement;
  if (!element || element === container || !container.contains(element)) return null;
  const noted = { selector: identityOf(element), value: null, caret: null };
  const field = element.localName === "textarea" || element.localName === "input";
  // A value the person changed is theirs; one the page set, the page may set again.
  if (field && element.value !== element.defaultValue) noted.value = element.value;
  if (element.localName === "textarea" || WITH_CARET.has(element.type)) {
    noted.caret = [element.selectionStart, element.selectionEnd, element.selectionDirection];
  }
  return noted;
}

/** Focus `element` without scrolling to it; whether it took the focus. */
function focusOn(element) {
  if (!element) return false;
  element.focus({ preventScroll: true });
  return document.activeElement === element;
}

/** Give the focus back to the control `noted` stands for, else to the first fallback. */
function restoreFocus(container, noted, fallback) {
  const again = noted.selector ? container.querySelector(noted.selector) : null;
  if (focusOn(again)) {
    if (noted.value !== null && again.value !== noted.value) again.value = noted.value;
    if (noted.caret) again.setSelectionRange(...noted.caret);
    return;
  }
  for (const selector of fallback) {
    if (focusOn(document.querySelector(selector))) return;
  }
}

/**
 * Draw `html` into `container` in place of what it shows, keeping the focus on the control
 * that had it; `fallback`: the selectors, in order, of where in the page the focus goes
 * when that control is no longer drawn (the last one should always be there, focusable).
 */
export function redraw(container, html, fallback = []) {
  const noted = noteFocus(container);
  container.innerHTML = html;
  if (noted) restoreFocus(container, noted, fallback);
}
