// The rules part of the setup form, built at run time from GET /api/v1/rules: one field per
// option the API lists, made for the kind the engine declares it (`bool`, `int`,
// `schedule`) with the option's bounds, its default and its sentence; and the rules read
// back from the form for POST /api/v1/games. No option is named here, so an option declared
// in engine/rules.py appears on the page with no change to this file. Text from the API
// goes into the page as text nodes and attributes, never as markup. The page's own words
// (and a label per option where i18n.js has one) come in the page's language.

import { ruleLabel, t } from "./i18n.js";

// Offered beside the named schedules: a game against bots that is over in a few minutes.
const SHORT = { label: () => t("rules.short"), counts: "1,2,3" };
const CUSTOM = "custom";
// An int option with at most this many values is picked from a list; a wider one is typed.
const MAX_LISTED = 12;

/** A value in the form that the API would refuse; its message is for the person. */
export class RuleFormError extends Error {}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}

/** "dealer_restriction" -> "Dealer restriction" (or the page's word for it). */
function label(name) {
  const words = name.replaceAll("_", " ");
  return ruleLabel(name, words.charAt(0).toUpperCase() + words.slice(1));
}

function boolField(option) {
  return [
    element(
      "label",
      { class: "toggle", title: option.doc },
      element("input", { type: "checkbox", name: option.name, checked: option.default === true }),
      element("span", {}, label(option.name)),
      element("small", {}, option.doc),
    ),
  ];
}

function intField(option) {
  const { name, minimum, maximum } = option;
  let input;
  if (maximum - minimum < MAX_LISTED) {
    const values = Array.from({ length: maximum - minimum + 1 }, (_, i) => minimum + i);
    input = element(
      "select",
      { name },
      ...values.map((n) => element("option", { value: n, selected: n === option.default }, String(n))),
    );
  } else {
    input = element("input", {
      type: "number",
      name,
      min: minimum,
      max: maximum,
      step: 1,
      value: option.default,
      // No default value (Poch's deals: two per player): an empty box takes the game's.
      placeholder: option.default === null ? t("rules.byDefault") : undefined,
    });
  }
  return [element("label", { title: option.doc }, label(name), input)];
}

function scheduleField(option) {
  const entries = [
    ...option.choices.map((choice) => [choice, label(choice)]),
    [SHORT.counts, SHORT.label()],
    [CUSTOM, t("rules.custom")],
  ];
  const select = element(
    "select",
    { name: option.name },
    ...entries.map(([value, text]) =>
      element("option", { value, selected: value === option.default }, text),
    ),
  );
  const custom = element(
    "label",
    { class: "custom", hidden: true },
    t("rules.cardsPerHand"),
    element("input", { name: `${option.name}-custom`, placeholder: "1,2,3", inputmode: "numeric" }),
  );
  select.addEventListener("change", () => {
    custom.hidden = select.value !== CUSTOM;
  });
  // Its choices are phrases, not numbers: it takes a whole row, so none is cut short.
  return [element("label", { class: "wide", title: option.doc }, label(option.name), select), custom];
}

// Each builder gives the field's nodes: the input in its label, and any helper beside it.
const FIELDS = { bool: boolField, int: intField, schedule: scheduleField };

/**
 * The form's "Rules" fieldset for the options of GET /api/v1/rules, in the API's order:
 * numbers and schedules in a grid, then the switches with their sentences. An option of a
 * kind this page does not know is left out (the game takes its default).
 */
export function rulesFieldset(options) {
  const grid = element("div", { class: "grid" });
  const toggles = element("div", { class: "toggles" });
  for (const option of options) {
    const build = FIELDS[option.kind];
    if (build) (option.kind === "bool" ? toggles : grid).append(...build(option));
  }
  return element("fieldset", { class: "rules" }, element("legend", {}, t("rules.title")), grid, toggles);
}

/**
 * The card counts typed, as whole numbers; how many cards a hand may deal is the server's to
 * say (it names the range for these players), so a 0 or a 99 is sent to be refused there.
 */
function cardCounts(text) {
  const counts = text.split(/[\s,]+/).filter(Boolean).map(Number);
  if (!counts.length || counts.some((n) => !Number.isInteger(n))) {
    throw new RuleFormError(t("rules.countsError"));
  }
  return counts;
}

const READERS = {
  bool: (field) => field.checked,
  // An emptied box leaves the option out: the game takes its default.
  int: (field) => (field.value === "" ? undefined : Number(field.value)),
  schedule: (field, form, option) => {
    if (option.choices.includes(field.value)) return field.value;
    if (field.value !== CUSTOM) return cardCounts(field.value);
    return cardCounts(form.elements.namedItem(`${option.name}-custom`).value);
  },
};

/** The `rules` of POST /api/v1/games as the form shows them; throws RuleFormError. */
export function readRules(form, options) {
  const rules = {};
  for (const option of options) {
    const field = form.elements.namedItem(option.name);
    const read = READERS[option.kind];
    if (!field || !read) continue;
    const value = read(field, form, option);
    if (value !== undefined) rules[option.name] = value;
  }
  return rules;
}
