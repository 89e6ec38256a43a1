// Poch's French-suited cards drawn as inline SVG, as cards.js draws Pocha's Spanish ones:
// no image files, no downloads. A card's code is the engine's (engine/poch/cards.py): a
// suit, C (clubs, Kreuz), S (spades, Pik), H (hearts, Herz) or D (diamonds, Karo), and a
// rank, 7 8 9 10 J Q K A: "HA", "S10", "C7". Pips stand as on a printed card (the lower
// half turned over); the jack, queen and king get a small figure, so the three read apart
// at a glance even where cards overlap. Names are in the page's language (i18n.js).

import { named, t } from "./i18n.js";

export const SUITS = ["C", "S", "H", "D"];
export const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUIT_COLOURS = { C: "#1d1b16", S: "#1d1b16", H: "#c62828", D: "#c62828" };

const W = 60;
const H = 90;

// Each suit symbol in a 24 x 24 box centred on (0, 0).
const SYMBOLS = {
  H: `<path d="M0 9.5 C-13 0 -10.5 -9.5 -5 -9.5 C-2.2 -9.5 -0.6 -7.4 0 -5.2 C0.6 -7.4 2.2 -9.5 5 -9.5
      C10.5 -9.5 13 0 0 9.5 Z" fill="#c62828"/>`,
  D: `<path d="M0 -11 L8.2 0 L0 11 L-8.2 0 Z" fill="#c62828"/>`,
  S: `<path d="M0 -10.5 C12.5 -1.5 10.5 7 5.2 7 C2.8 7 1.3 5.6 0.7 4.2 L2.8 10.5 H-2.8 L-0.7 4.2
      C-1.3 5.6 -2.8 7 -5.2 7 C-10.5 7 -12.5 -1.5 0 -10.5 Z" fill="#1d1b16"/>`,
  C: `<g fill="#1d1b16"><circle cy="-5.2" r="4.6"/><circle cx="-5.3" cy="2" r="4.6"/>
      <circle cx="5.3" cy="2" r="4.6"/><circle r="2.4"/>
      <path d="M-0.9 0.5 L-3 10.5 H3 L0.9 0.5 Z"/></g>`,
};

// Pip centres on the 60 x 90 card for 7 to 10 (those below the middle are turned over).
const PIPS = {
  7: [[19, 19], [41, 19], [30, 32], [19, 45], [41, 45], [19, 71], [41, 71]],
  8: [[19, 19], [41, 19], [30, 32], [19, 45], [41, 45], [30, 58], [19, 71], [41, 71]],
  9: [[19, 19], [41, 19], [19, 36], [41, 36], [30, 45], [19, 54], [41, 54], [19, 71], [41, 71]],
  10: [[19, 19], [41, 19], [30, 28], [19, 36], [41, 36], [19, 54], [41, 54], [30, 62], [19, 71], [41, 71]],
};

export function suitOf(code) {
  return code[0];
}

export function rankOf(code) {
  return code.slice(1);
}

/** A suit symbol at (x, y), turned over when `down` (the lower half of a card). */
export function suitSymbol(suit, x, y, scale = 1, down = false) {
  return `<g transform="translate(${x} ${y}) scale(${scale})${down ? " rotate(180)" : ""}">${SYMBOLS[suit]}</g>`;
}

/** A suit's name in the page's language: "hearts", "corazones". */
export function suitName(suit) {
  return named("poch.suit", suit);
}

/** A card's name in the page's language: "ace of hearts", "10 de picas". */
export function cardName(code) {
  const rank = rankOf(code);
  const word = /^\d+$/.test(rank) ? rank : named("poch.rank", rank);
  return t("poch.cardName", { rank: word, suit: suitName(suitOf(code)) });
}

/** A suit drawn alone (the trump, a suit to choose), named for screen readers. */
export function suitSvg(suit, className = "suit-icon") {
  return `<svg viewBox="-12 -12 24 24" class="${className}" role="img" aria-label="${suitName(suit)}">
    <title>${suitName(suit)}</title>${SYMBOLS[suit]}</svg>`;
}

/** A court card's figure: a head and shoulders, a crown (K), a tiara (Q) or a cap (J). */
function figure(suit, rank) {
  const colour = SUIT_COLOURS[suit];
  const cloak = { C: "#7fa6d9", S: "#9bc48a", H: "#f0b35a", D: "#e58c8c" }[suit];
  const headwear = {
    K: `<path d="M23 25 L24 17 L27.5 21 L30 15 L32.5 21 L36 17 L37 25 Z" fill="#f4c430"
        stroke="#a86f00" stroke-width="0.8" stroke-linejoin="round"/>`,
    Q: `<path d="M24 25 Q30 17 36 25 Z" fill="#f4c430" stroke="#a86f00" stroke-width="0.8"/>
        <circle cx="30" cy="20.5" r="1.4" fill="#c62828"/>`,
    J: `<path d="M23.5 26 Q30 16 36.5 26 Z" fill="${colour}"/><circle cx="37" cy="24" r="2" fill="#c62828"/>`,
  }[rank];
  return `<rect x="12" y="14" width="36" height="62" rx="3" fill="#fbf6ea" stroke="${colour}" stroke-width="0.8"/>
    <path d="M17 76 V58 Q17 45 30 44 Q43 45 43 58 V76 Z" fill="${cloak}" stroke="${colour}" stroke-width="1"/>
    <path d="M30 44 V76" stroke="${colour}" stroke-width="0.8"/>
    <circle cx="30" cy="33" r="8" fill="#f6d7b8" stroke="#5b3a1e" stroke-width="0.8"/>
    ${headwear}${suitSymbol(suit, 38, 62, 0.6)}`;
}

/** The SVG markup of a card (a code such as "HA"), self-contained, for innerHTML. */
export function cardSvg(code) {
  const suit = suitOf(code);
  const rank = rankOf(code);
  const colour = SUIT_COLOURS[suit];
  let middle;
  if (rank === "A") middle = suitSymbol(suit, 30, 45, 2.1);
  else if (PIPS[rank]) middle = PIPS[rank].map(([x, y]) => suitSymbol(suit, x, y, 0.72, y > 45)).join("");
  else middle = figure(suit, rank);
  // The index in two corners: the rank and a small suit under it, the second turned over.
  const corner = (transform) =>
    `<g transform="${transform}"><text x="7" y="12" text-anchor="middle" font-size="${rank === "10" ? 9.5 : 11}"
      font-weight="700" font-family="Georgia, 'Times New Roman', serif" fill="${colour}"
      letter-spacing="${rank === "10" ? -0.8 : 0}">${rank}</text>${suitSymbol(suit, 7, 20, 0.32)}</g>`;
  const name = cardName(code);
  return `<svg class="card-svg" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg"
    role="img" aria-label="${name}"><title>${name}</title>
    <rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="5" fill="#fffdf6"
      stroke="#8a8170"/>${middle}${corner("")}${corner(`rotate(180 ${W / 2} ${H / 2})`)}</svg>`;
}
