// Spanish-suited cards drawn as inline SVG, so the page needs no image files and no
// downloads: oros (coins), copas (cups), espadas (swords), bastos (clubs). Each card shows
// its rank in two corners, its pips (1-7) or a figure (10 sota, 11 caballo, 12 rey), and
// the Spanish deck's "pintas": the frame is broken once for copas, twice for espadas and
// three times for bastos, so the suit shows even when cards overlap.

import { cardName, rankOf, suitOf } from "./rules.js";

export const SUIT_COLOURS = { O: "#a86f00", C: "#b3261e", E: "#1f4e9c", B: "#2e6b2a" };

const W = 60;
const H = 90;

// Each suit symbol is drawn in a 24 x 24 box centred on (0, 0).
const SYMBOLS = {
  O: `<circle r="10" fill="#f4c430" stroke="#a86f00" stroke-width="1.6"/>
      <circle r="6.5" fill="none" stroke="#a86f00" stroke-width="1"/>
      <circle r="2.6" fill="#c98a00"/>
      <g fill="#a86f00">${[0, 45, 90, 135, 180, 225, 270, 315]
        .map((a) => `<circle r="0.9" transform="rotate(${a}) translate(8.3 0)"/>`)
        .join("")}</g>`,
  C: `<path d="M-8.5 -9 H8.5 Q9 1 1.6 3.6 V6.4 Q5.5 8 6.5 10.5 H-6.5 Q-5.5 8 -1.6 6.4 V3.6 Q-9 1 -8.5 -9 Z"
        fill="#d8412f" stroke="#7d1a12" stroke-width="1.2" stroke-linejoin="round"/>
      <ellipse cy="-9" rx="8.5" ry="2" fill="#f2c14e" stroke="#7d1a12" stroke-width="0.8"/>
      <path d="M-5 -5 Q-4.5 0 -1 1.6" fill="none" stroke="#f7a399" stroke-width="1.2"/>`,
  E: `<path d="M0 -11.5 L2 -8.5 V4 H-2 V-8.5 Z" fill="#c9d8ef" stroke="#1f4e9c" stroke-width="1"
        stroke-linejoin="round"/>
      <line x1="0" y1="-8" x2="0" y2="3" stroke="#1f4e9c" stroke-width="0.6"/>
      <rect x="-7" y="4" width="14" height="2.4" rx="1.2" fill="#1f4e9c"/>
      <rect x="-1.3" y="6.4" width="2.6" height="3.8" fill="#6b3f1d"/>
      <circle cy="11.2" r="1.8" fill="#1f4e9c"/>`,
  B: `<path d="M-1.8 11 L1.8 11 L4.6 -6.5 Q4.5 -11.5 0 -11.5 Q-4.5 -11.5 -4.6 -6.5 Z"
        fill="#7cae4a" stroke="#2e6b2a" stroke-width="1.2" stroke-linejoin="round"/>
      <g fill="#2e6b2a"><circle cx="-2.6" cy="-5" r="1.1"/><circle cx="2" cy="-1.5" r="1"/>
      <circle cx="-1.4" cy="3" r="0.9"/><circle cx="1.8" cy="-8.2" r="0.9"/></g>`,
};

// Pip centres for ranks 1-7 on the 60 x 90 card.
const PIPS = {
  1: [[30, 45]],
  2: [[30, 24], [30, 66]],
  3: [[30, 20], [30, 45], [30, 70]],
  4: [[19, 25], [41, 25], [19, 65], [41, 65]],
  5: [[19, 22], [41, 22], [30, 45], [19, 68], [41, 68]],
  6: [[19, 20], [41, 20], [19, 45], [41, 45], [19, 70], [41, 70]],
  7: [[19, 18], [41, 18], [30, 31], [19, 46], [41, 46], [19, 70], [41, 70]],
};

export function symbol(suit, x, y, scale = 1) {
  return `<g transform="translate(${x} ${y}) scale(${scale})">${SYMBOLS[suit]}</g>`;
}

/** The frame with its pintas: `breaks` gaps in the top and bottom lines. */
function frame(suit) {
  const breaks = { O: 0, C: 1, E: 2, B: 3 }[suit];
  const colour = SUIT_COLOURS[suit];
  const left = 4;
  const right = W - 4;
  const gap = 3;
  const segments = [];
  const step = (right - left) / (breaks + 1);
  let x = left;
  for (let i = 1; i <= breaks + 1; i++) {
    const end = i <= breaks ? left + step * i - gap / 2 : right;
    segments.push([x, end]);
    x = end + gap;
  }
  const line = (y) =>
    segments.map(([a, b]) => `<line x1="${a}" y1="${y}" x2="${b}" y2="${y}"/>`).join("");
  return `<g stroke="${colour}" stroke-width="1.1">${line(4)}${line(H - 4)}
    <line x1="${left}" y1="4" x2="${left}" y2="${H - 4}"/>
    <line x1="${right}" y1="4" x2="${right}" y2="${H - 4}"/></g>`;
}

/** A figure for the sota (10), the caballo (11) and the rey (12). */
function figure(suit, rank) {
  const colour = SUIT_COLOURS[suit];
  const cloak = { O: "#f3d27a", C: "#f0a59b", E: "#a9c2ea", B: "#b9d99a" }[suit];
  const head = `<circle cx="30" cy="${rank === 11 ? 24 : 27}" r="6" fill="#f6d7b8" stroke="#5b3a1e"
    stroke-width="0.8"/>`;
  let body;
  if (rank === 11) {
    // A rider on a horse: the horse's body, neck and head, and four legs.
    body = `<path d="M23 30 H37 L38 46 H22 Z" fill="${cloak}" stroke="${colour}" stroke-width="1"/>
      <ellipse cx="30" cy="56" rx="15" ry="7" fill="#c89b6d" stroke="#5b3a1e" stroke-width="1"/>
      <path d="M41 53 L47 40 L52 42 L50 47 L45 55 Z" fill="#c89b6d" stroke="#5b3a1e"
        stroke-width="1" stroke-linejoin="round"/>
      <g stroke="#5b3a1e" stroke-width="2" stroke-linecap="round">
        <line x1="20" y1="61" x2="18" y2="73"/><line x1="25" y1="62" x2="26" y2="73"/>
        <line x1="35" y1="62" x2="34" y2="73"/><line x1="40" y1="61" x2="42" y2="73"/></g>`;
  } else {
    body = `<path d="M22 34 H38 L43 74 H17 Z" fill="${cloak}" stroke="${colour}" stroke-width="1.2"
        stroke-linejoin="round"/>
      <line x1="30" y1="34" x2="30" y2="74" stroke="${colour}" stroke-width="0.8"/>`;
  }
  const crown =
    rank === 12
      ? `<path d="M23.5 22 L24.5 15 L27.5 19 L30 13.5 L32.5 19 L35.5 15 L36.5 22 Z"
          fill="#f4c430" stroke="#a86f00" stroke-width="0.8" stroke-linejoin="round"/>`
      : "";
  const pip = rank === 11 ? symbol(suit, 16, 40, 0.6) : symbol(suit, 42, 46, 0.65);
  return body + head + crown + pip;
}

/** The SVG markup of a card (a code such as "O1"), self-contained, for innerHTML. */
export function cardSvg(code) {
  const suit = suitOf(code);
  const rank = rankOf(code);
  const colour = SUIT_COLOURS[suit];
  let middle;
  if (rank <= 7) {
    const scale = rank === 1 ? 1.9 : rank <= 3 ? 0.95 : 0.8;
    middle = PIPS[rank].map(([x, y]) => symbol(suit, x, y, scale)).join("");
  } else {
    middle = figure(suit, rank);
  }
  const corner = (transform) =>
    `<g transform="${transform}"><text x="8.5" y="14" text-anchor="middle" font-size="11"
      font-weight="700" font-family="Georgia, 'Times New Roman', serif"
      fill="${colour}">${rank}</text></g>`;
  return `<svg class="card-svg" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg"
    role="img" aria-label="${cardName(code)}"><title>${cardName(code)}</title>
    <rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="5" fill="#fffdf6"
      stroke="#8a8170"/>${frame(suit)}${middle}${corner("")}${corner(`rotate(180 ${W / 2} ${H / 2})`)}</svg>`;
}
