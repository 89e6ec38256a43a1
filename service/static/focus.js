// Redrawing a screen without losing the person's place in it. The tables are drawn again
// whole (`innerHTML`) on every event, and a control that is replaced takes the keyboard's
// focus with it, back to <body>: someone playing by keyboard or with a screen reader would
// start again from the top after every move of a bot. `redraw` finds the control that has
// the focus in the new drawing by what it stands for (its data-action, data-card, data-bid,
// data-seat, ... or its id) and keeps that very element, and the elements around it, in
// place, taking the new drawing's attributes and content: the focus never moves, so a
// screen reader does not read the control out again at each redraw, and a text field keeps
// what the person typed and the caret. When the drawing around it has another shape, the
// screen is replaced and the same control focused again. A control that is gone (the card
// was played) hands the focus to the first of the screen's `fallback` selectors that can
// take it, never to <body>.

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
  "data-plate",
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
  // A value the person changed is theirs; one the page set, the page may set again. (A
  // file chosen is the browser's to keep: no script may set a file field's value.)
  if (field && element.type !== "file" && element.value !== element.defaultValue) noted.value = element.value;
  if (element.localName === "textarea" || WITH_CARET.has(element.type)) {
    noted.caret = [element.selectionStart, element.selectionEnd, element.selectionDirection];
  }
  return noted;
}

/** `element` takes `twin`'s attributes (an input's `value` attribute moves its value only
 * while the person has not changed it, as the browser has it). */
function takeAttributes(element, twin) {
  for (const { name } of [...element.attributes]) {
    if (!twin.hasAttribute(name)) element.removeAttribute(name);
  }
  for (const { name, value } of twin.attributes) {
    if (element.getAttribute(name) !== value) element.setAttribute(name, value);
  }
}

/**
 * Draw `html` into `container` keeping `focused` and its ancestors in it, each taking the
 * new drawing's attributes and the rest of its content; false, with nothing changed, when
 * the new drawing has no such control at the same place, or has it disabled.
 */
function drawAround(container, focused, html) {
  const selector = identityOf(focused);
  if (!selector) return false;
  const drawing = document.createElement("template");
  drawing.innerHTML = html;
  const twin = drawing.content.querySelector(selector);
  if (!twin || twin.hasAttribute("disabled")) return false;
  const kept = [];
  const twins = [];
  for (let e = focused; e !== container; e = e.parentElement) kept.push(e);
  for (let e = twin; e; e = e.parentElement) twins.push(e);
  if (kept.length !== twins.length || kept.some((e, i) => e.localName !== twins[i].localName)) {
    return false;
  }
  // From the top down: each kept element in place of its twin among the new children.
  let parent = container;
  let fresh = drawing.content;
  for (let i = kept.length - 1; i >= 0; i--) {
    const element = kept[i];
    const nodes = [...fresh.childNodes];
    const at = nodes.indexOf(twins[i]);
    for (const child of [...parent.childNodes]) if (child !== element) child.remove();
    element.before(...nodes.slice(0, at));
    element.after(...nodes.slice(at + 1));
    takeAttributes(element, twins[i]);
    parent = element;
    fresh = twins[i];
  }
  if (focused.innerHTML !== twin.innerHTML) {
    // A menu's options are parsed in place: taken out of the drawing's own <select> one by
    // one, each would be selected in turn as the first left there, and the last would win.
    if (focused.localName === "select") focused.innerHTML = twin.innerHTML;
    else focused.replaceChildren(...twin.childNodes);
  }
  return true;
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
  if (noted && drawAround(container, document.activeElement, html)) return;
  container.innerHTML = html;
  if (noted) restoreFocus(container, noted, fallback);
}
