// The "How to play" pages, one per game, at /how-to-play/pocha and /how-to-play/poch (the
// page header's link): for someone who has never played, the cards and their order, how a
// hand or a deal goes, the score, and one worked through; for Poch also the Pochbrett, its
// plates (drawn as on the table, each saying what wins it when tapped) and its sets. Every
// sentence comes from the catalogues (i18n.js), in the language picked in the header; the
// cards and the board are the table's own drawings (cards.js, pochcards.js, pochboard.js).

import { cardSvg } from "./cards.js";
import { followLanguage, language, languageMenu, loadCatalogue, named, t } from "./i18n.js";
import { PLATES, boardSvg } from "./pochboard.js";
import { cardName as pochCardName, cardSvg as pochCardSvg } from "./pochcards.js";
import { cardName } from "./rules.js";

export const GAMES = ["pocha", "poch"];

/** A row of cards, each with a caption under it (its name unless given). */
function cardRow(cards, draw, nameOf) {
  const figures = cards
    .map((card) => {
      if (card === null) return `<span class="gap"></span>`;
      const [code, caption] = Array.isArray(card) ? card : [card, nameOf(card)];
      return `<figure data-card="${code}">${draw(code)}<figcaption>${caption}</figcaption></figure>`;
    })
    .join("");
  return `<div class="card-row">${figures}</div>`;
}

const pochaCards = (cards) => cardRow(cards, cardSvg, cardName);
const pochCards = (cards) => cardRow(cards, pochCardSvg, pochCardName);

function section(id, title, body) {
  return `<section class="panel" id="${id}"><h3>${title}</h3>${body}</section>`;
}

const p = (text) => `<p>${text}</p>`;

function pochaPage() {
  const order = ["O1", "O3", "O12", "O11", "O10", "O7", "O6", "O5", "O4", "O2"];
  const trick = [
    ["C3", t("howto.pocha.byBruno")],
    ["C5", t("howto.pocha.byCarmen")],
    ["O4", t("howto.pocha.byDiego")],
    ["O10", t("howto.pocha.byAna")],
  ];
  const rows = [
    ["Bruno", 1, 1, t("howto.exact", { n: 1, points: 15 })],
    ["Carmen", 0, 0, t("howto.exact", { n: 0, points: 10 })],
    ["Diego", 1, 1, t("howto.exact", { n: 1, points: 15 })],
    ["Ana", 0, 1, t("howto.missed", { n: 1, points: -5 })],
  ]
    .map(([who, bid, won, points]) => `<tr><td>${who}</td><td>${bid}</td><td>${won}</td><td class="points">${points}</td></tr>`)
    .join("");
  return [
    `<h2>${t("howto.pocha.title")}</h2>`,
    p(t("howto.pocha.intro")),
    section("cards", t("howto.cards"), p(t("howto.pocha.cards"))),
    section("order", t("howto.order"), p(t("howto.pocha.order")) + pochaCards(order)),
    section(
      "hand",
      t("howto.pocha.handTitle"),
      `<ol><li>${t("howto.pocha.deal")}</li><li>${t("howto.pocha.bids")}</li><li>${t("howto.pocha.play")}</li></ol>`,
    ),
    section("score", t("howto.score"), p(t("howto.pocha.score"))),
    section(
      "example",
      t("howto.pocha.exampleTitle"),
      p(t("howto.pocha.example1")) +
        p(t("howto.pocha.example2")) +
        p(t("howto.pocha.example3")) +
        pochaCards(trick) +
        p(t("howto.pocha.example4")) +
        `<table><thead><tr><th>${t("howto.player")}</th><th>${t("howto.bid")}</th><th>${t("howto.won")}</th>
          <th>${t("howto.points")}</th></tr></thead><tbody>${rows}</tbody></table>`,
    ),
  ].join("");
}

function pochPage() {
  const order = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7"];
  const plates = PLATES.map((plate) => `<li>${named("poch.plateTitle", plate)}</li>`).join("");
  const board = boardSvg({ plates: Object.fromEntries(PLATES.map((plate) => [plate, 3])), pot: 0, trump: "H" });
  const sets = [
    ["HK", t("howto.poch.pair")],
    ["SK", ""],
    null,
    ["CQ", t("howto.poch.three")],
    ["DQ", ""],
    ["HQ", ""],
    null,
    ["C8", t("howto.poch.four")],
    ["S8", ""],
    ["H8", ""],
    ["D8", ""],
  ];
  return [
    `<h2>${t("howto.poch.title")}</h2>`,
    p(t("howto.poch.intro")),
    section("cards", t("howto.cards"), p(t("howto.poch.cards"))),
    section("order", t("howto.order"), p(t("howto.poch.order")) + pochCards(order)),
    section(
      "board",
      t("howto.poch.boardTitle"),
      p(t("howto.poch.board")) +
        `<div class="board board-example" id="board">${board}</div>` +
        p(t("howto.poch.tap")) +
        `<ul class="plates">${plates}</ul>` +
        p(t("howto.poch.boardKeep")),
    ),
    section("sets", t("howto.poch.setsTitle"), p(t("howto.poch.sets")) + pochCards(sets) + p(t("howto.poch.setsOrder"))),
    section("betting", t("howto.poch.betTitle"), p(t("howto.poch.bet")) + p(t("howto.poch.showdown"))),
    section("shedding", t("howto.poch.shedTitle"), p(t("howto.poch.shed")) + p(t("howto.poch.shedEnd"))),
    section(
      "example",
      t("howto.poch.exampleTitle"),
      p(t("howto.poch.example1")) +
        p(t("howto.poch.example2")) +
        p(t("howto.poch.example3")) +
        p(t("howto.poch.example4")),
    ),
  ].join("");
}

/** The game the address names, Pocha when it names none. */
export function gameOf(path) {
  const match = path.match(/^\/how-to-play\/([a-z]+)\/?$/);
  return match && GAMES.includes(match[1]) ? match[1] : "pocha";
}

function render(game) {
  const tabs = GAMES.map(
    (name) =>
      `<a href="/how-to-play/${name}" data-game="${name}" ${name === game ? 'aria-current="page"' : ""}>${t(
        name === "poch" ? "howto.poch.tab" : "howto.pocha.tab",
      )}</a>`,
  ).join("");
  const body = game === "poch" ? pochPage() : pochaPage();
  const main = document.getElementById("howto");
  main.innerHTML = `<article class="howto" data-game="${game}" lang="${language()}">
    <nav class="howto-games" aria-label="${t("howto.games")}">${tabs}</nav>
    ${body}
    <p><a class="play-now" href="/">${t("howto.play")}</a></p></article>`;
  document.title = t(game === "poch" ? "howto.poch.title" : "howto.pocha.title");
}

async function boot() {
  await loadCatalogue();
  document.documentElement.lang = language();
  const draw = () => {
    document.getElementById("play-link").textContent = t("howto.play");
    render(gameOf(location.pathname));
  };
  // The language picked in the header, and another tab's too, draws the page again in it.
  languageMenu(draw);
  followLanguage(draw);
  draw();
}

boot();
