// Drawing a screen again without replacing what stays on it. The page's screens are drawn
// as markup from the state (a table at every event of its game, the lobby's list every few
// seconds), and `redraw` brings the elements shown into line with the new drawing, in
// place: an element that stands for the same thing (its data-action, data-card, data-bid,
// data-seat, ... or its id; else the next one of its tag and first class) is kept and takes
// the new drawing's attributes and content, and only what differs is touched. So a
// control under the pointer is the very one the button is released on (a click pressed as
// a bot's move arrived is not lost), a live region or an alert that says the same is not
// read out again, a text field keeps what the person typed and the caret, a scrolled box
// keeps its place, and the control with the keyboard's focus keeps it without a focus
// event (a screen reader does not read it out again at each move). Where the control that
// had the focus is drawn elsewhere (the drawing around it changed shape) the same control
// is focused again there, with the person's text and caret; a control that is gone (the
// card was played) or disabled hands the focus to the first of the screen's `fallback`
// selectors that can take it, never to <body>.

// The attributes that say what an element stands for, whichever screen draws it. (Not
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

/** What an element stands for among its siblings (`identityOf`), or null for any other node. */
function keyOf(node) {
  return node.nodeType === Node.ELEMENT_NODE ? identityOf(node) : null;
}

/**
 * What kind of node an unkeyed one is, to be matched with the next of its kind: a text
 * node, or an element's tag and first class (the seat's "seat", the played card's
 * "played": its other classes come and go as the game moves).
 */
function kindOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return `#${node.nodeType}`;
  return `${node.namespaceURI} ${node.localName}.${node.classList[0] ?? ""}`;
}

/** What the focused control in `container` holds that a replacement would lose, or null. */
function noteFocus(container) {
  const element = document.activeElement;
  if (!element || element === container || !container.contains(element)) return null;
  const noted = { element, selector: identityOf(element), value: null, caret: null };
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
 * while the person has not changed it, as the browser has it; so does `checked`). */
function takeAttributes(element, twin) {
  for (const { namespaceURI, localName } of [...element.attributes]) {
    if (!twin.hasAttributeNS(namespaceURI, localName)) element.removeAttributeNS(namespaceURI, localName);
  }
  for (const { namespaceURI, localName, name, value } of twin.attributes) {
    if (element.getAttributeNS(namespaceURI, localName) !== value) element.setAttributeNS(namespaceURI, name, value);
  }
}

/** `node` made like `twin` (a node of the same kind), in place. */
function update(node, twin) {
  if (node.nodeType !== Node.ELEMENT_NODE) {
    if (node.nodeValue !== twin.nodeValue) node.nodeValue = twin.nodeValue;
    return;
  }
  if (node.isEqualNode(twin)) return;
  takeAttributes(node, twin);
  // A menu's options are parsed in place: taken out of the drawing's own <select> one by
  // one, each would be selected in turn as the first left there, and the last would win;
  // so a menu shows the option its drawing marks chosen.
  if (node.localName === "select") {
    if (node.innerHTML !== twin.innerHTML) node.innerHTML = twin.innerHTML;
    return;
  }
  updateChildren(node, twin);
}

/**
 * `parent`'s children made like `drawn`'s: each drawn child takes the place of the old
 * child that stands for the same thing (keyed), else of the next old one of its kind,
 * else comes in new; the old children left unmatched go. The children kept stay in their
 * order, unmoved, unless the drawing reorders keyed ones (a moved element loses the
 * focus, which `redraw` gives back).
 */
function updateChildren(parent, drawn) {
  const olds = [...parent.childNodes];
  const keyed = new Map();
  for (const old of olds) {
    const key = keyOf(old);
    if (key && !keyed.has(key)) keyed.set(key, old);
  }
  const taken = new Set();
  let next = 0; // the first old unkeyed child not yet passed
  const pairs = [...drawn.childNodes].map((twin) => {
    const key = keyOf(twin);
    let match = null;
    if (key) {
      const old = keyed.get(key);
      if (old && !taken.has(old)) match = old;
    } else {
      // An element takes the next old one of its kind, past others; a text (the spaces
      // between elements, mostly) only the next old unkeyed node, so that it does not take
      // one from after an element that is still to be matched.
      const kind = kindOf(twin);
      const text = twin.nodeType !== Node.ELEMENT_NODE;
      for (let i = next; i < olds.length; i++) {
        if (taken.has(olds[i]) || keyOf(olds[i])) continue;
        if (kindOf(olds[i]) === kind) {
          match = olds[i];
          next = i + 1;
        }
        if (match || text) break;
      }
    }
    if (match) taken.add(match);
    return [match, twin];
  });
  for (const old of olds) if (!taken.has(old)) old.remove();
  // From the end backwards, each child put before the one placed after it.
  let after = null;
  for (let i = pairs.length - 1; i >= 0; i--) {
    const [match, twin] = pairs[i];
    const node = match ?? twin;
    if (match) update(match, twin);
    const there = after ? after.previousSibling : parent.lastChild;
    if (there !== node) parent.insertBefore(node, after);
    after = node;
  }
}

/** Focus `element` without scrolling to it; whether it took the focus. */
function focusOn(element) {
  if (!element || element.disabled) return false;
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
 * Bring what `container` shows into line with `html`, keeping every element that stays
 * (see the top of this module), and the focus on the control that had it; `fallback`: the
 * selectors, in order, of where in the page the focus goes when that control is no longer
 * drawn or is disabled (the last one should always be there, focusable).
 */
export function redraw(container, html, fallback = []) {
  const noted = noteFocus(container);
  const drawing = document.createElement("template");
  drawing.innerHTML = html;
  updateChildren(container, drawing.content);
  if (!noted) return;
  const now = document.activeElement;
  if (now === noted.element && !now.disabled) return;
  restoreFocus(container, noted, fallback);
}
