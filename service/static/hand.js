// Your hand and your bids, drawn from the seat's view. The server alone judges a move:
// `you.legal` lists what may be played or bid now, and `you.refused` says why each other
// card in hand, or the bid the dealer may not make, is refused, in the engine's own words.
// The page shows those words as they are: in a card's title, in the list under the hand,
// and when a barred card or bid is clicked; under the card, the rule in a few words.

import { cardSvg } from "./cards.js";
import { escapeHtml } from "./html.js";
import { N_, t } from "./i18n.js";
import { cardName } from "./rules.js";

/**
 * The server's reasons, on the seat's turn: {cards: {code: sentence}, bids: {n: sentence},
 * rules: {code: the rule that bars the card}}.
 */
export function refusals(view) {
  const cards = {};
  const bids = {};
  const rules = {};
  for (const refusal of view.you?.refused ?? []) {
    if (refusal.card !== undefined) {
      cards[refusal.card] = refusal.message;
      rules[refusal.card] = refusal.rule;
    } else {
      bids[refusal.bid] = refusal.message;
    }
  }
  return { cards, bids, rules };
}

// A card's rule in a few words ("must follow suit", "debes asistir"), short enough for two
// lines under a card on a phone; the whole sentence is the card's title.
const SHORT_REASONS = {
  asistir: N_("why.asistir"),
  montar: N_("why.montar"),
  fallar: N_("why.fallar"),
  pisar: N_("why.pisar"),
};

/**
 * What is written under a refused card: its rule's few words, or for a rule the page has
 * none for, the sentence up to its colon ("you must follow oros: you hold O4" -> "you must
 * follow oros").
 */
function shortReason(rule, why) {
  return SHORT_REASONS[rule] ? t(SHORT_REASONS[rule]) : why.split(":")[0];
}

/**
 * The bid buttons, 0 to the cards in hand, for the seat whose bid it is. `mine`: the seat
 * may act now (else the buttons are disabled); `hint`: the action a hint suggested.
 */
export function bidsHtml(view, { mine, hint }) {
  const { bids } = refusals(view);
  const buttons = [];
  for (let bid = 0; bid <= view.cards_per_player; bid++) {
    const legal = view.you.legal.includes(bid);
    const why = bids[bid];
    const cls = ["bid-btn", legal ? "legal" : "illegal", hint?.action === bid ? "hinted" : ""];
    buttons.push(`<button class="${cls.join(" ")}" data-bid="${bid}" ${mine ? "" : "disabled"}
      ${legal ? "" : 'aria-disabled="true"'} ${why ? `title="${escapeHtml(why)}"` : ""}>${bid}</button>`);
  }
  return `<div class="bids" role="group" aria-label="${t("bids.label")}"><span>${t("bids.yours")}</span>${buttons.join("")}</div>`;
}

/** The seat's cards as buttons: playable ones raised, refused ones greyed with the reason. */
export function handHtml(view, { mine, hint }) {
  const you = view.you;
  const { cards, rules } = mine ? refusals(view) : { cards: {}, rules: {} };
  const playing = view.phase === "playing";
  return you.hand
    .map((card, i) => {
      const playable = mine && playing && you.legal.includes(card);
      const why = cards[card];
      const cls = ["card-btn", playable ? "playable" : "", why ? "unplayable" : "", hint?.action === card ? "hinted" : ""];
      return `<button class="${cls.join(" ")}" data-card="${card}" style="--i:${i}"
        aria-label="${cardName(card)}${why ? `: ${t("card.notPlayable")}, ${escapeHtml(why)}` : ""}"
        ${playable ? "" : 'aria-disabled="true"'} ${why ? `title="${escapeHtml(why)}"` : ""}>
        <div class="card">${cardSvg(card)}</div>${why ? `<span class="why">${escapeHtml(shortReason(rules[card], why))}</span>` : ""}</button>`;
    })
    .join("");
}

/** Every reason the server gives against the seat's cards or bids now, each once, as list items. */
export function reasonsHtml(view) {
  const { cards, bids } = refusals(view);
  // A bid's sentence names the bid itself ("as dealer you may not bid 1: ..."): as it is.
  const items = [...Object.values(bids), ...new Set(Object.values(cards))];
  return items.map((why) => `<li>${escapeHtml(why)}.</li>`).join("");
}

/** The server's reason as a sentence of its own: "As dealer you may not bid 1: ....". */
export function asSentence(why) {
  return `${why.charAt(0).toUpperCase()}${why.slice(1)}.`;
}
