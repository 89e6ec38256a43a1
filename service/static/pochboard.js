// The Pochbrett drawn as inline SVG: a round board with its eight plates in a ring (ace,
// king, queen, jack, ten, marriage, sequence and the pocher's plate, docs/poch.md, Material)
// and the pot (Kasse) in the middle, each with its chips drawn and counted. The plates
// carry the game's own German names in every language (Ass, König, ..., Mariage, Sequenz,
// Poch); what wins each is said in the page's language in its title (a mouse's hover) and,
// since phones show no titles, in a caption under the board that a tap, a click, Enter or
// Space on the plate opens and closes. Each plate is a `g.plate[data-plate]` with its count
// in `data-chips`, so the table (poch.js) can fly chips to and from it and tests can read it.

import { named, t } from "./i18n.js";
import { suitSymbol } from "./pochcards.js";

export const PLATES = ["ace", "king", "queen", "jack", "ten", "marriage", "sequence", "pocher"];
// The plates won by a trump card of a rank: their name shows the trump suit once known.
const HONOURS = { ace: "A", king: "K", queen: "Q", jack: "J", ten: "10" };

const RING = 128; // the plates' centres from the board's centre
const PLATE_R = 45;
const POT_R = 62;
const CHIP_R = 5;
// Chip colours, in turn, so that a pile reads as a pile of chips and not as a pattern.
const CHIP_COLOURS = ["#c62828", "#1f4e9c", "#f3efe2", "#2e7d32", "#f4c430"];

/** Places for chips in a bowl of radius `r`: hexagonal rows in its middle band. */
function chipSpots(r) {
  const spots = [];
  const step = CHIP_R * 2 + 1;
  for (let row = -1; row <= 1; row++) {
    const y = row * (step - 1) + 2;
    const half = Math.floor((r * 0.62) / step);
    const shift = row % 2 === 0 ? 0 : step / 2;
    for (let x = -half * step + shift; x <= half * step - shift + 0.01; x += step) spots.push([x, y]);
  }
  // The middle first, so that a few chips sit in the centre of the bowl.
  return spots.sort((a, b) => Math.hypot(...a) - Math.hypot(...b));
}

// The plate whose caption is open, if any: kept here, so that the board drawn again after
// every event keeps it open.
let explained = null;

const PLATE_SPOTS = chipSpots(PLATE_R);
const POT_SPOTS = chipSpots(POT_R);

function chipsSvg(count, spots) {
  const shown = Math.min(count, spots.length);
  let chips = "";
  for (let i = 0; i < shown; i++) {
    const [x, y] = spots[i];
    const colour = CHIP_COLOURS[i % CHIP_COLOURS.length];
    chips += `<g transform="translate(${x.toFixed(1)} ${y.toFixed(1)})"><circle r="${CHIP_R}" fill="${colour}"
      stroke="#3d2a12" stroke-width="0.8"/><circle r="${CHIP_R - 2}" fill="none" stroke="#fff8" stroke-width="0.8"
      stroke-dasharray="1.6 1.2"/></g>`;
  }
  return chips;
}

/** One bowl: its German name on top, its chips, its count below. */
function bowl(name, label, title, count, r, spots, trump, extra = "") {
  const open = explained === name;
  return `<g class="plate${open ? " explained" : ""}" data-plate="${name}" data-chips="${count}" tabindex="0"
      role="button" aria-label="${title}" aria-expanded="${open}" aria-controls="plate-caption">
    <title>${title}</title>
    <circle r="${r}" fill="#d9b36c" stroke="#6b4518" stroke-width="3"/>
    <circle r="${r - 7}" fill="#c99a4b" stroke="#8a5b22" stroke-width="1"/>
    <text y="${-r + 19}" text-anchor="middle" class="plate-name">${label}</text>
    ${trump ? suitSymbol(trump, 0, -r + 29, 0.42) : ""}
    ${chipsSvg(count, spots)}
    <text y="${r - 10}" text-anchor="middle" class="plate-count">${count}</text>${extra}</g>`;
}

/**
 * The board for a view's `plates` and `pot`; `trump` (a suit letter or null) marks the
 * plates its honours win.
 */
export function boardSvg({ plates, pot, trump }) {
  const ring = PLATES.map((name, i) => {
    const angle = ((i * 45 - 90) * Math.PI) / 180;
    const x = (RING * Math.cos(angle)).toFixed(1);
    const y = (RING * Math.sin(angle)).toFixed(1);
    const honour = HONOURS[name] ? trump : null;
    return `<g transform="translate(${x} ${y})">${bowl(
      name,
      named("poch.plate", name),
      named("poch.plateTitle", name),
      plates[name] ?? 0,
      PLATE_R,
      PLATE_SPOTS,
      honour,
    )}</g>`;
  }).join("");
  const centre = bowl("pot", t("poch.pot"), plateTitle("pot"), pot ?? 0, POT_R, POT_SPOTS, null);
  return `<svg class="pochbrett" viewBox="-200 -200 400 400" role="group" aria-label="${t("poch.board")}">
    <circle r="197" fill="#7a4a22" stroke="#4a2b10" stroke-width="4"/>
    <circle r="187" fill="none" stroke="#a8743f" stroke-width="2"/>
    ${ring}${centre}</svg>${captionHtml()}`;
}

function plateTitle(name) {
  return name === "pot" ? t("poch.potTitle") : named("poch.plateTitle", name);
}

function captionHtml() {
  const text = explained ? plateTitle(explained) : "";
  return `<p class="plate-caption" id="plate-caption" aria-live="polite"${text ? "" : " hidden"}>${text}</p>`;
}

/** Open the caption of `name` (close it when it is the one open), on the board as drawn. */
function explain(name) {
  explained = explained === name ? null : name;
  for (const plate of document.querySelectorAll(".pochbrett .plate")) {
    const open = plate.dataset.plate === explained;
    plate.classList.toggle("explained", open);
    plate.setAttribute("aria-expanded", String(open));
  }
  const caption = document.getElementById("plate-caption");
  if (caption) caption.outerHTML = captionHtml();
}

// One listener for every board ever drawn (the table is drawn anew on each event).
document.addEventListener("click", (event) => {
  const plate = event.target.closest?.(".pochbrett .plate");
  if (plate) explain(plate.dataset.plate);
  else if (explained && !event.target.closest?.("#plate-caption")) explain(explained);
});
document.addEventListener("keydown", (event) => {
  const plate = event.target.closest?.(".pochbrett .plate");
  if (plate && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    explain(plate.dataset.plate);
  } else if (explained && event.key === "Escape") {
    explain(explained);
  }
});
