// The Poch table of the page: the Pochbrett with its plates and pot, the seats with their
// chips, cards and bets, the shedding run, your hand and your decisions (pass, hold, bet
// or raise; the start card; the next suit), the deals' results and the final result.
// app.js loads this module only for a Poch game and hands it the page's context (`ctx`:
// its state, `readView` (the seat's view read now), `render`, `say`, `sleep`, `fly`,
// `myTurn`, `nameOf` and the markup it shares with Pocha's table).
//
// As for Pocha, the seat's view is the truth, and the page knows no rule: what may be done
// now is `you.legal`. The event stream drives what moves: each Poch event (engine/poch/
// game.py) is shown in turn on the view the page holds, which it changes as the event says
// (chips to the plates, honours collected, bets into the pot, the sets shown, each card of
// a run), so a deal the bots play out in a blink is still seen step by step; once the
// events run out, app.js reads the view again and that replaces whatever was worked out
// here. An event the view already holds (seq <= the view's `last_event`, as after a view
// read ahead of the stream) is not applied twice.
//
// The game's own German words (the plates' names, the calls Passe, Halte, Poche, Erhöhe,
// Vorhand, Kasse, Ausspielen) come from the catalogue like every other text, the same in
// both languages.

import { escapeHtml } from "./html.js";
import { named, t, tn } from "./i18n.js";
import {
  ANTE_MS,
  BET_MS,
  CARD_MS,
  CHIP_FLY_MS,
  COLLECT_MS,
  DEAL_MS,
  DEAL_WON_MS,
  POT_MS,
  SHOWDOWN_MS,
} from "./pace.js";
import { PLATES, boardSvg } from "./pochboard.js";
import { RANKS, cardName, cardSvg, rankOf, suitName, suitOf, suitSvg } from "./pochcards.js";
import { finalHtml, seatClasses } from "./tables.js";

// The most chips drawn flying at once: enough to see a payment, not a blizzard.
const MOST_FLYING = 6;
// Lines kept in the side's list of what happened.
const LOG_LINES = 14;
// The events read first to rebuild that list (`recall`): most deals' latest lines are in them.
const RECALL_EVENTS = 40;

// The German calls of the betting, by the engine's event type.
const CALLS = ["pass", "hold", "bet", "raise"];

/** What this page showed lately: the game's id, the lines of the log, a seat to mark. */
const shown = { game: null, log: [], winner: null };

function isOver(view) {
  return view.phase === "over";
}

/** The last event the view held includes: as read (`last_event`), or as shown on it since. */
function applied(view) {
  return view.applied ?? view.last_event;
}

// -- reading a decision from a click ---------------------------------------------------------

/**
 * The wire action a clicked button stands for ("pass", "hold", an amount, a card code, a
 * suit letter), or null for a button that is not a Poch decision.
 */
export function decisionOf(button) {
  const { bet, start, suit } = button.dataset;
  if (bet === "pass" || bet === "hold") return bet;
  if (bet === "amount") {
    const amount = Number(document.getElementById("poch-amount")?.value);
    return Number.isInteger(amount) ? amount : null;
  }
  if (start) return start;
  if (suit) return suit;
  return null;
}

/** An action in words, for a hint: "bet 3 (Poche)", "start with the 7 of hearts". */
export function actionText(action) {
  if (action === "pass") return t("poch.hint.pass", { call: t("poch.call.pass") });
  if (action === "hold") return t("poch.hint.hold", { call: t("poch.call.hold") });
  if (typeof action === "number") return t("poch.hint.bet", { n: action, call: t("poch.call.bet") });
  if (action.length === 1) return t("poch.hint.suit", { suit: suitName(action) });
  return t("poch.hint.start", { card: cardName(action) });
}

/** The legal bet amounts now, lowest and highest, or null when no bet may be made. */
function amounts(view) {
  const numbers = (view.you?.legal ?? []).filter((a) => typeof a === "number");
  return numbers.length ? { low: Math.min(...numbers), high: Math.max(...numbers) } : null;
}

/**
 * Whether the seat may decide now: its turn by the page, with actions the server offered.
 * While events are shown the view held may say it is this seat's turn (a bot's bet passed
 * the turn on) before the server's view, with what is legal, has been read: no decision
 * is offered from such a view.
 */
function offered(view, ctx) {
  return Boolean(ctx.myTurn() && view.you?.legal?.length);
}

function highestBet(view) {
  return Math.max(0, ...view.bets.map((b) => b.amount));
}

/**
 * The calls the seat may make now, as the name of the status that lists them: Passe is
 * always one; Halte only when the seat can pay the highest bet; an amount is Poche before
 * anyone has bet, Erhöhe after.
 */
function callsOffered(view) {
  const legal = view.you?.legal ?? [];
  const hold = legal.includes("hold");
  if (!amounts(view)) return hold ? "passHold" : "pass";
  if (highestBet(view) === 0) return "passBet";
  return hold ? "passHoldRaise" : "passRaise";
}

// -- drawing ---------------------------------------------------------------------------------

function miniCards(codes) {
  return codes
    .map((c) => `<span class="card micro" data-card="${c}">${cardSvg(c)}</span>`)
    .join("");
}

function seatHtml(view, seat, ctx) {
  const player = view.players[seat];
  const you = view.you;
  const over = isOver(view);
  const classes = [...seatClasses(view, seat, { over, winner: shown.winner }), "poch-seat"];
  if (!view.active[seat]) classes.push("out");
  const roles = [];
  if (!over && seat === view.dealer) roles.push(`<span class="badge">${t("role.dealer")}</span>`);
  if (!over && seat === vorhand(view)) roles.push(`<span class="badge">${t("poch.vorhand")}</span>`);
  if (!view.active[seat]) roles.push(`<span class="badge left">${t("poch.out")}</span>`);
  const bet = view.bets.find((b) => b.seat === seat);
  const betText = bet
    ? `${named("poch.call", bet.call)}${bet.amount ? ` ${bet.amount}` : ""}`
    : "";
  const size = view.hand_sizes[seat] ?? 0;
  const backs =
    you && seat === you.seat
      ? ""
      : `<div class="backs" role="img" aria-label="${tn("seat.cards", size)}">${"<i></i>".repeat(size)}</div>`;
  const honours = view.collected
    .filter((c) => c.seat === seat)
    .map(
      (c) => `<span class="honour" title="${escapeHtml(named("poch.plateTitle", c.plate))}">${named("poch.plate", c.plate)}
        <small>+${c.chips}</small></span>`,
    )
    .join("");
  const set = view.showdown[String(seat)];
  const setHtml = set
    ? `<div class="set" title="${t("poch.set")}"><span class="label">${t("poch.set")}</span>${miniCards(set)}</div>`
    : "";
  return `<div class="${classes.join(" ")}" data-seat="${seat}">
    <div class="who">${ctx.presence(view, player, seat)}<span class="name" title="${escapeHtml(ctx.nameOf(seat))}">${escapeHtml(ctx.nameOf(seat))}</span></div>
    <div class="roles">${ctx.levelBadge(player)}${roles.join("")}${ctx.badges(view, player, seat)}</div>
    <div class="stats"><span class="chips" title="${t("poch.chipsTitle")}">${view.chips[seat]}</span>
      <span class="bet" data-label="${t("poch.betShort")}" title="${t("poch.betTitle")}">${betText || "–"}</span>${backs}</div>
    ${honours ? `<div class="honours">${honours}</div>` : ""}${setHtml}</div>`;
}

function vorhand(view) {
  const n = view.players.length;
  for (let step = 1; step <= n; step++) {
    const seat = (view.dealer + step) % n;
    if (view.active[seat]) return seat;
  }
  return view.dealer;
}

/** The betting order of the deal: the active seats from Vorhand round to the dealer. */
function bettingOrder(view) {
  const n = view.players.length;
  const first = vorhand(view);
  const order = [];
  for (let k = 0; k < n; k++) {
    const seat = (first + k) % n;
    if (view.active[seat]) order.push(seat);
  }
  return order;
}

/** The cards played this deal, one row per suit in the order the suits ran. */
function runHtml(view, ctx) {
  const rows = [];
  for (const [seat, card] of view.played) {
    const suit = suitOf(card);
    let row = rows.find((r) => r.suit === suit);
    if (!row) {
      row = { suit, cards: [] };
      rows.push(row);
    }
    row.cards.push({ seat, card });
  }
  const direction = view.direction ? `<span class="direction">${named("poch.direction", view.direction)}</span>` : "";
  const body = rows
    .map(
      (row) => `<div class="run-row ${row.suit === view.suit ? "current" : ""}" data-run="${row.suit}">
      <span class="run-suit">${suitSvg(row.suit)}</span>${row.cards
        .map(
          ({ seat, card }) => `<div class="played" data-seat="${seat}" data-card="${card}">
          <div class="card small">${cardSvg(card)}</div><span class="by">${escapeHtml(ctx.nameOf(seat))}</span></div>`,
        )
        .join("")}</div>`,
    )
    .join("");
  return `<div class="run" id="run"><div class="run-head"><strong>${t("poch.run")}</strong>${direction}</div>${body}</div>`;
}

/** The sets shown at the showdown, larger, while the shedding has not begun. */
function showdownHtml(view, ctx) {
  const sets = Object.entries(view.showdown)
    .map(
      ([seat, cards]) => `<div class="shown-set" data-seat="${seat}"><span class="by">${escapeHtml(ctx.nameOf(Number(seat)))}</span>
        <div class="set-cards">${cards.map((c) => `<div class="card small">${cardSvg(c)}</div>`).join("")}</div></div>`,
    )
    .join("");
  return `<div class="run showdown" id="run"><div class="run-head"><strong>${t("poch.showdown")}</strong></div>
    <div class="sets">${sets || `<p class="table-note">${t("poch.noSets")}</p>`}</div></div>`;
}

function centreHtml(view, ctx) {
  if (view.played.length) return runHtml(view, ctx);
  if (Object.keys(view.showdown).length) return showdownHtml(view, ctx);
  let note = "";
  if (view.phase === "betting") note = t("poch.note.betting", { pot: view.pot });
  else if (view.phase === "starting" || view.phase === "choosing") note = t("poch.note.starting");
  return `<div class="run" id="run"><p class="table-note">${note}</p></div>`;
}

function statusText(view, ctx, mine, caughtUp) {
  if (!caughtUp) return "…";
  if (isOver(view)) return t("status.over");
  if (mine) {
    if (view.phase === "betting") return named("poch.status.yourBet", callsOffered(view));
    if (view.phase === "starting") return t("poch.status.yourStart");
    if (view.phase === "choosing") return t("poch.status.yourSuit");
  }
  if (view.turn === null || view.turn === undefined) return "…";
  const name = escapeHtml(ctx.nameOf(view.turn));
  return named("poch.status", view.phase, { name });
}

function controlsHtml(view, mine, hint) {
  if (!mine) return "";
  const legal = view.you.legal;
  const hinted = (action) => (hint && hint.action === action ? " hinted" : "");
  if (view.phase === "betting") {
    const top = highestBet(view);
    const range = amounts(view);
    const buttons = [];
    if (legal.includes("pass")) {
      buttons.push(`<button class="call-btn${hinted("pass")}" data-bet="pass"><strong>${t("poch.call.pass")}</strong>
        <small>${t("poch.callHelp.pass")}</small></button>`);
    }
    if (legal.includes("hold")) {
      buttons.push(`<button class="call-btn${hinted("hold")}" data-bet="hold"><strong>${t("poch.call.hold")} ${top}</strong>
        <small>${t("poch.callHelp.hold", { n: top })}</small></button>`);
    }
    if (range) {
      const raise = top > 0;
      const value = typeof hint?.action === "number" ? hint.action : range.low;
      buttons.push(`<span class="bet-amount${typeof hint?.action === "number" ? " hinted" : ""}">
        <input id="poch-amount" type="number" min="${range.low}" max="${range.high}" step="1" value="${value}"
          aria-label="${t("poch.amount")}">
        <button class="call-btn" data-bet="amount"><strong>${t(raise ? "poch.call.raise" : "poch.call.bet")}</strong>
          <small>${t(raise ? "poch.callHelp.raise" : "poch.callHelp.bet", { low: range.low, high: range.high })}</small></button></span>`);
    }
    return `<div class="poch-bets" role="group" aria-label="${t("poch.betLabel")}">${buttons.join("")}</div>`;
  }
  if (view.phase === "choosing") {
    const suits = legal
      .filter((a) => typeof a === "string" && a.length === 1)
      .map(
        (s) => `<button class="suit-btn${hinted(s)}" data-suit="${s}">${suitSvg(s)}<span>${suitName(s)}</span></button>`,
      )
      .join("");
    return `<div class="poch-suits" role="group" aria-label="${t("poch.suitLabel")}"><span>${t("poch.suitLabel")}:</span>${suits}</div>`;
  }
  return "";
}

function handHtml(view, mine, hint) {
  const you = view.you;
  if (!you) return "";
  const starting = mine && view.phase === "starting";
  return you.hand
    .map((card, i) => {
      const playable = starting && you.legal.includes(card);
      const cls = ["card-btn", playable ? "playable" : "", hint?.action === card ? "hinted" : ""];
      return `<button class="${cls.join(" ")}" ${playable ? `data-start="${card}"` : ""} data-code="${card}" style="--i:${i}"
        aria-label="${cardName(card)}" ${playable ? "" : 'aria-disabled="true"'}><div class="card">${cardSvg(card)}</div></button>`;
    })
    .join("");
}

/** Chips now, and each finished deal: who went out first and what they received. */
function sheetHtml(view, ctx) {
  const seats = view.players.map((_, s) => s);
  const head = seats.map((s) => `<th scope="col">${escapeHtml(ctx.nameOf(s))}</th>`).join("");
  const rows = view.deal_results
    .map((r) => {
      const paid = r.paid ?? {};
      const total = Object.values(paid).reduce((a, b) => a + b, 0);
      const cells = seats
        .map((s) => {
          if (s === r.winner) return `<td class="exact"><strong>+${total}</strong></td>`;
          return `<td class="missed">${paid[String(s)] ? `−${paid[String(s)]}` : "–"}</td>`;
        })
        .join("");
      return `<tr><th scope="row">${r.deal}</th>${cells}</tr>`;
    })
    .join("");
  const winners = view.result?.winners ?? [];
  const chips = seats
    .map((s) => `<td><strong>${view.chips[s]}</strong>${winners.includes(s) ? " ★" : ""}</td>`)
    .join("");
  return `<details class="sheet panel poch-sheet" ${ctx.state.sheetOpen ? "open" : ""}><summary data-focus="sheet">${t("poch.sheet.title")}</summary>
    <div class="sheet-scroll"><table class="score-sheet">
      <thead><tr><th scope="col">${t("poch.sheet.deal")}</th>${head}</tr></thead>
      <tbody>${rows}</tbody>
      <tfoot><tr><th scope="row">${t("poch.sheet.chips")}</th>${chips}</tr></tfoot>
    </table></div><p class="legend">${t("poch.sheet.legend")}</p></details>`;
}

/** An empty list of what happened, for the game of `view`. */
function startLog(view) {
  shown.game = view.id;
  shown.log = [];
  shown.winner = null;
}

function logHtml() {
  if (!shown.log.length) return "";
  const lines = shown.log.map((line) => `<li>${line}</li>`).join("");
  return `<section class="panel poch-log"><h3>${t("poch.log")}</h3><ol reversed>${lines}</ol></section>`;
}

function gameOverHtml(view, ctx) {
  if (ctx.state.finalClosed || !view.result) return "";
  const { chips, winners } = view.result;
  return finalHtml(view, {
    winners,
    rank: view.players.map((_, s) => s).sort((a, b) => chips[b] - chips[a]),
    nameOf: ctx.nameOf,
    score: (s) => tn("poch.chipsN", chips[s]),
    points: (s) => chips[s],
    closeLabel: t("poch.finalClose"),
  });
}

/** The whole Poch table for the view the page holds. */
export function tableHtml(view, ctx) {
  if (shown.game !== view.id) startLog(view);
  const mine = offered(view, ctx);
  const caughtUp = view.last_event <= ctx.state.handledSeq;
  const hint = ctx.state.hint && ctx.state.hint.version === view.version ? ctx.state.hint : null;
  const over = isOver(view);
  const finished = over && caughtUp;
  const trump = view.trump
    ? `<div class="trump poch-trump" title="${t("poch.trumpTitle", { suit: suitName(view.trump) })}">
        ${suitSvg(view.trump, "suit-icon big")}<div><span class="label">${t("poch.trump")}</span>
        <strong>${suitName(view.trump)}</strong></div></div>`
    : "";
  const total = view.rules?.deals;
  // The deal, even when the game is over: the line below it says so ("Game over").
  const title = total ? t("poch.dealTitle", { n: view.deal, total }) : t("poch.dealN", { n: view.deal });
  const seats = view.players.map((_, seat) => seatHtml(view, seat, ctx)).join("");
  const controls = controlsHtml(view, mine, hint);
  return `
  <section id="game" class="game poch" data-game="poch" data-phase="${view.phase}" data-my-turn="${mine ? "yes" : "no"}"
      data-version="${view.version}" data-deal="${view.deal}">
    <div class="main">
      ${ctx.awayBar(view)}
      <div class="status panel">
        <div class="hand-info"><strong>${title}</strong>
          <span>${t("poch.potLine", { pot: view.pot, pocher: view.plates.pocher })}</span>
          <span class="turn-line" id="turn-line" tabindex="-1">${statusText(view, ctx, mine, caughtUp)}</span></div>
        ${trump}
      </div>
      <div class="seats" role="group" aria-label="${t("poch.seatsLabel")}">${seats}</div>
      <div class="poch-table">
        <div class="board" id="board">${boardSvg(view)}</div>
        ${centreHtml(view, ctx)}
      </div>
      <p id="notice" class="notice ${ctx.state.noticeKind}" tabindex="-1">${escapeHtml(ctx.state.notice)}</p>
      <div class="actions">${controls}
        ${mine ? `<button class="hint-btn" data-action="hint">${t("hint.button")}</button>` : ""}</div>
      <div class="hand" role="group" aria-label="${t("hand.yours")}" style="--cards:${view.you?.hand.length ?? 0}">${handHtml(view, mine, hint)}</div>
    </div>
    <aside class="side">
      ${sheetHtml(view, ctx)}
      ${logHtml()}
      ${ctx.gameTools(view, finished)}
    </aside>
    ${finished ? gameOverHtml(view, ctx) : ""}
  </section>`;
}

// -- motion ----------------------------------------------------------------------------------

function centreOf(element) {
  const box = element?.getBoundingClientRect();
  return box && box.width ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
}

/** Chips flying from one element to another (a few for a big payment), then gone. */
async function flyChips(from, to, count, reduced) {
  const start = centreOf(from);
  const end = centreOf(to);
  if (!start || !end || count <= 0 || reduced || !document.body.animate) return;
  const flights = [];
  for (let i = 0; i < Math.min(count, MOST_FLYING); i++) {
    const chip = document.createElement("i");
    chip.className = "flying-chip";
    chip.style.left = `${start.x - 7}px`;
    chip.style.top = `${start.y - 7}px`;
    document.body.append(chip);
    const animation = chip.animate(
      [{ transform: "translate(0, 0)" }, { transform: `translate(${end.x - start.x}px, ${end.y - start.y}px)` }],
      { duration: CHIP_FLY_MS, delay: i * 60, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" },
    );
    flights.push(animation.finished.catch(() => {}).finally(() => chip.remove()));
  }
  await Promise.all(flights);
}

const seatElement = (seat) => document.querySelector(`.poch-seat[data-seat="${seat}"]`);
const plateElement = (plate) => document.querySelector(`#board [data-plate="${plate}"]`);

// -- the events ------------------------------------------------------------------------------

/** A line added to the list of what happened (the newest first). */
function remember(text) {
  shown.log = [text, ...shown.log].slice(0, LOG_LINES);
}

function note(ctx, text) {
  remember(text);
  ctx.say(new DOMParser().parseFromString(text, "text/html").body.textContent);
}

/**
 * A seat's name, escaped, for the sentences told about the others: "Ana bets" ("Ana #2"
 * when two seats share it, as everywhere on the page); this page's own seat by its name,
 * not "You", in a sentence said in the third person.
 */
function name(ctx, seat) {
  if (seat !== ctx.state.game?.seat) return escapeHtml(ctx.nameOf(seat));
  return escapeHtml(ctx.state.view.players[seat]?.name ?? ctx.nameOf(seat));
}

/**
 * The sentence `key` told about `seat`: about this page's own seat in the second person
 * (its key + ".you", "You bet"), since a person's name may well be "You" and "You bets"
 * reads wrong; about any other seat with its name ("Ana bets"). Every such key is marked
 * in i18n.js.
 */
function told(ctx, seat, key, params = {}) {
  if (seat === ctx.state.view.you?.seat) return named(key, "you", params);
  return t(key, { ...params, name: name(ctx, seat) });
}

/** `told` for a sentence about `n` chips (`tn`: 1 chip, 2 chips). */
function toldCount(ctx, seat, key, n, params = {}) {
  const own = `${key}.you`;
  if (seat === ctx.state.view.you?.seat) return tn(own, n, params);
  return tn(key, n, { ...params, name: name(ctx, seat) });
}

/** The view at the start of a deal: the ante paid, the deal's own things cleared. */
function newDeal(view, event) {
  const seats = view.players.length;
  const paying = view.active.filter(Boolean).length;
  view.deal = event.deal;
  view.dealer = event.dealer;
  for (let s = 0; s < seats; s++) if (view.active[s]) view.chips[s] -= event.each;
  const ante = event.each / PLATES.length;
  for (const plate of PLATES) view.plates[plate] += ante * paying;
  Object.assign(view, {
    phase: "dealing",
    turn: null,
    trump: null,
    collected: [],
    bets: [],
    showdown: {},
    starter: null,
    direction: null,
    suit: null,
    suits_done: [],
    played: [],
    hand_sizes: view.hand_sizes.map(() => 0),
  });
  if (view.you) view.you = { ...view.you, hand: [], legal: [] };
}

/** The chips a deal's winner was paid, all seats together. */
function paidTotal(event) {
  return Object.values(event.paid ?? {}).reduce((sum, n) => sum + n, 0);
}

// The line each event adds to the list of what happened (a card played adds none: the run
// shows it). Drawn from the event alone, so the list can be rebuilt from the events read.
const LINES = {
  leave: (event, ctx) => toldCount(ctx, event.seat, "poch.ev.leave", event.chips),
  ante: (event) => t("poch.ev.ante", { deal: event.deal, n: event.each }),
  deal: (event) => t("poch.ev.deal", { suit: suitName(event.trump) }),
  collect: (event, ctx) =>
    told(ctx, event.seat, "poch.ev.collect", {
      cards: event.cards.map(cardName).join(", "),
      plate: named("poch.plate", event.plate),
      n: event.chips,
    }),
  showdown: () => t("poch.ev.showdown"),
  no_bet: (event) => t("poch.ev.noBet", { n: event.pot }),
  no_set: (event) => t("poch.ev.noSet", { n: event.pot }),
  bluff: (event, ctx) => told(ctx, event.seat, "poch.ev.bluff", { n: event.paid }),
  take_pot: (event, ctx) => told(ctx, event.seat, "poch.ev.takePot", { pot: event.pot, pocher: event.pocher }),
  start: (event, ctx) => told(ctx, event.seat, `poch.ev.start.${event.direction}`),
  choose: (event, ctx) => told(ctx, event.seat, "poch.ev.choose", { suit: suitName(event.suit) }),
  deal_won: (event, ctx) => toldCount(ctx, event.winner, "poch.ev.dealWon", paidTotal(event), { deal: event.deal }),
};
for (const call of CALLS) {
  LINES[call] = (event, ctx) =>
    told(ctx, event.seat, `poch.ev.${call}`, { n: event.amount, call: named("poch.call", call) });
}

function lineOf(event, ctx) {
  return LINES[event.type](event, ctx);
}

// Each handler shows one event on the view the page holds: `view` is changed as the event
// says, the table drawn again, and the page waits a moment so that people see it.
const HANDLERS = {
  async leave(event, view, ctx) {
    view.active[event.seat] = false;
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(BET_MS);
  },

  async ante(event, view, ctx) {
    shown.winner = null;
    const payers = view.players.map((_, s) => s).filter((s) => view.active[s]);
    await Promise.all(
      payers.map((s) => flyChips(seatElement(s), document.getElementById("board"), 2, ctx.reduced)),
    );
    newDeal(view, event);
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(ANTE_MS);
  },

  async deal(event, view, ctx) {
    view.trump = event.trump;
    for (const [seat, count] of Object.entries(event.counts)) view.hand_sizes[Number(seat)] = count;
    // The cards of this seat are in no event: read them from the view, if it is still at
    // this deal (a seat that plays on is asked to bet in every deal, so it is).
    if (view.you) {
      try {
        const fresh = await ctx.readView();
        if (fresh?.deal === view.deal && fresh.you) view.you.hand = [...fresh.you.hand];
      } catch {
        // The hand shows with the view read after the events.
      }
    }
    view.phase = "betting";
    view.turn = bettingOrder(view)[0] ?? null;
    note(ctx, lineOf(event, ctx));
    ctx.render();
    for (const card of document.querySelectorAll(".hand .card-btn")) card.classList.add("dealt");
    await ctx.sleep(DEAL_MS);
  },

  async collect(event, view, ctx) {
    await flyChips(plateElement(event.plate), seatElement(event.seat), event.chips, ctx.reduced);
    view.chips[event.seat] += event.chips;
    view.plates[event.plate] = 0;
    view.collected.push({ seat: event.seat, plate: event.plate, cards: event.cards, chips: event.chips });
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(COLLECT_MS);
  },

  async showdown(event, view, ctx) {
    view.showdown = { ...event.sets };
    view.turn = null;
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(SHOWDOWN_MS);
  },

  async no_bet(event, view, ctx) {
    view.turn = null;
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(POT_MS);
  },

  async no_set(event, view, ctx) {
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(POT_MS);
  },

  async bluff(event, view, ctx) {
    await flyChips(seatElement(event.seat), plateElement("pot"), event.paid, ctx.reduced);
    view.chips[event.seat] -= event.paid;
    view.pot += event.paid;
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(POT_MS);
  },

  async take_pot(event, view, ctx) {
    await Promise.all([
      flyChips(plateElement("pot"), seatElement(event.seat), event.pot, ctx.reduced),
      flyChips(plateElement("pocher"), seatElement(event.seat), event.pocher, ctx.reduced),
    ]);
    view.chips[event.seat] += event.pot + event.pocher;
    view.pot = 0;
    view.plates.pocher = 0;
    view.starter = event.seat;
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(POT_MS);
  },

  async start(event, view, ctx) {
    view.direction = event.direction;
    view.phase = "shedding";
    view.turn = null;
    note(ctx, lineOf(event, ctx));
    ctx.render();
  },

  async choose(event, view, ctx) {
    view.turn = null;
    note(ctx, lineOf(event, ctx));
    ctx.render();
  },

  async play(event, view, ctx) {
    const mine = view.you && event.seat === view.you.seat;
    const from = (mine && document.querySelector(`.hand [data-code="${event.card}"]`)) || seatElement(event.seat);
    const start = from?.getBoundingClientRect();
    view.played = [...view.played, [event.seat, event.card]];
    view.hand_sizes[event.seat] = Math.max(0, view.hand_sizes[event.seat] - 1);
    if (mine) view.you.hand = view.you.hand.filter((c) => c !== event.card);
    const suit = suitOf(event.card);
    // A suit runs to its end (all 32 cards are dealt): its last card ends it.
    const last = view.direction === "down" ? RANKS[0] : RANKS[RANKS.length - 1];
    if (rankOf(event.card) === last) {
      view.suits_done = [...view.suits_done, suit];
      view.suit = null;
    } else {
      view.suit = suit;
    }
    if (!view.direction) view.direction = rankOf(event.card) === "A" ? "down" : "up";
    ctx.render();
    const played = document.querySelector(`#run .played[data-card="${event.card}"]`);
    await Promise.all([ctx.fly(played, start), ctx.sleep(CARD_MS)]);
  },

  async deal_won(event, view, ctx) {
    const paid = event.paid ?? {};
    await Promise.all(
      Object.entries(paid).map(([seat, n]) =>
        flyChips(seatElement(Number(seat)), seatElement(event.winner), n, ctx.reduced),
      ),
    );
    for (const [seat, n] of Object.entries(paid)) view.chips[Number(seat)] -= n;
    view.chips[event.winner] += paidTotal(event);
    view.deal_results = [...view.deal_results, { deal: event.deal, winner: event.winner, paid }];
    view.turn = null;
    shown.winner = event.winner;
    note(ctx, lineOf(event, ctx));
    ctx.render();
    await ctx.sleep(DEAL_WON_MS);
  },
};

for (const call of CALLS) {
  HANDLERS[call] = async (event, view, ctx) => {
    if (event.amount) {
      await flyChips(seatElement(event.seat), plateElement("pot"), event.amount, ctx.reduced);
    }
    view.chips[event.seat] -= event.amount;
    view.pot = event.pot;
    view.bets = [...view.bets, { seat: event.seat, call, amount: event.amount }];
    const order = bettingOrder(view);
    view.phase = "betting";
    view.turn = view.bets.length < order.length ? order[view.bets.length] : null;
    note(ctx, lineOf(event, ctx));
    ctx.render();
    document.querySelector(`.poch-seat[data-seat="${event.seat}"] .bet`)?.classList.add("flash");
    await ctx.sleep(BET_MS);
  };
}

/**
 * Show one event of the stream on the Poch table; false for an event this module does not
 * know (the table's own: seats taken, away, back, the game's end), which app.js shows.
 * `quiet` for an event the view read already holds (`recall`): its line goes into the list
 * of what happened, and nothing moves, waits or is said.
 */
export async function showEvent(event, ctx, { quiet = false } = {}) {
  const handler = HANDLERS[event.type];
  const view = ctx.state.view;
  if (!handler || !view) return false;
  if (quiet) {
    if (LINES[event.type]) remember(lineOf(event, ctx));
    return true;
  }
  // The view already holds it (it was read after this event happened): nothing to add.
  if (event.seq <= applied(view)) return true;
  await handler(event, view, ctx);
  // A decision the stand-in made for a person who is away says so, after what it did.
  if (event.by === "stand_in") {
    const yours = event.seat === view.you?.seat;
    ctx.say(yours ? t("event.standInYou") : t("event.standIn", { name: ctx.nameOf(event.seat) }));
  }
  // `state.view` may have been replaced meanwhile (a view read after an error): mark the
  // one the event went into.
  view.applied = event.seq;
  return true;
}

/**
 * After this seat's decision was taken: the view held stays as it was (its events come on
 * the stream and are shown on it), but no longer offers a move, and waits for the events
 * up to the answer's.
 */
export function afterDecision(view, answer) {
  view.applied = applied(view);
  view.last_event = Math.max(view.last_event, answer.last_event);
  if (view.you) view.you = { ...view.you, legal: [] };
}

/**
 * The list of what happened, rebuilt for `view`, just read (a page opened or reloaded in the
 * middle of a game) from the game's events, `readAfter(seq)` reading those after `seq`:
 * those of the view's deal, from its ante on, each drawn as the stream's are, without the
 * motion. Later events come on the stream. Only the latest are read, a wider span each time
 * until they hold the deal's ante or the lines the list keeps (`LOG_LINES`, the latest), or
 * the whole game: the list shows nothing older, so a long game is not read from its start.
 */
export async function recall(readAfter, view, ctx) {
  for (let span = RECALL_EVENTS; ; span *= 4) {
    const after = Math.max(view.last_event - span, 0);
    const held = (await readAfter(after)).filter((e) => e.seq <= view.last_event);
    const ante = held.findLastIndex((e) => e.type === "ante");
    const deal = held.slice(Math.max(ante, 0));
    if (ante >= 0 || after === 0 || deal.filter((e) => LINES[e.type]).length >= LOG_LINES) {
      startLog(view);
      for (const event of deal) await showEvent(event, ctx, { quiet: true });
      return;
    }
  }
}
