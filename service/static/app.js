// The Pocha web page: set up a game against bots, then play it, on the public HTTP API only.
//
// The seat's view (GET /api/v1/games/{id} with the seat's token) is the truth for the
// hand, the bids, whose turn it is and what is legal. The event stream (Server-Sent
// Events, or polling /events when a stream cannot be had) drives what moves on the table:
// each event is shown in turn, cards flying in from whoever played them, and the view is
// read again once the events run out, so the page shows every card even when the bots
// play faster than the eye. The seat's token is kept in localStorage, so a reload resumes.
// The page knows no rule of the game: what is legal, why the rest is not and who is winning
// the trick all come with the view.

import { Api, ApiError } from "./api.js";
import { cardSvg, symbol } from "./cards.js";
import { bidsHtml, handHtml, reasonsHtml, refusals } from "./hand.js";
import { escapeHtml } from "./html.js";
import { RuleFormError, readRules, rulesFieldset } from "./ruleform.js";
import { SUIT_NAMES, cardName, suitOf } from "./rules.js";

const STORE_KEY = "pocha.game";
const NAME_KEY = "pocha.name";
// How long things stay on screen (ms): a flying card, a won trick, a bid.
const FLY_MS = 380;
const TRICK_HOLD_MS = 900;
const BID_MS = 250;

const app = document.getElementById("app");
const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

const state = {
  rulebook: null,
  game: null, // {id, token, hostToken, seat}
  me: null, // Api acting as the seat
  view: null,
  table: [], // the cards shown on the table: [{seat, card}]
  trickWinner: null, // the seat whose won trick is being shown
  history: null,
  hint: null, // {version, action, analysis}
  notice: "",
  noticeKind: "info",
  lastSeq: 0, // the last event received
  handledSeq: 0, // the last event shown
  queue: [],
  pumping: false,
  acting: false,
  source: null,
  pollTimer: null,
  sheetOpen: true,
  finalClosed: false,
};

// -- small helpers -------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, reducedMotion ? 0 : ms));

function nameOf(seat) {
  const player = state.view?.players?.[seat];
  if (!player) return `Seat ${seat}`;
  return seat === state.game?.seat ? "You" : player.name;
}

function say(text, kind = "info") {
  state.notice = text;
  state.noticeKind = kind;
  const line = document.getElementById("notice");
  if (line) {
    line.textContent = text;
    line.className = `notice ${kind}`;
  }
}

function saveGame(game) {
  localStorage.setItem(STORE_KEY, JSON.stringify(game));
}

function forgetGame() {
  localStorage.removeItem(STORE_KEY);
}

// -- setup -----------------------------------------------------------------------------------

async function showSetup(message = "") {
  disconnect();
  state.game = null;
  state.view = null;
  if (!state.rulebook) {
    try {
      state.rulebook = await new Api().rules();
    } catch (error) {
      app.innerHTML = `<p class="notice error">The service does not answer: ${escapeHtml(error.message)}</p>`;
      return;
    }
  }
  const levels = state.rulebook.bot_levels.map((l) => l.name);
  const level = levels.includes("medium") ? "medium" : levels[0];
  app.innerHTML = `
    <form id="setup" class="setup panel" autocomplete="off">
      <h2>New game</h2>
      <p class="lead">You against bots. Bid how many tricks you will win, then win exactly that many.</p>
      <div class="grid">
        <label>Your name <input name="name" maxlength="40" required
          value="${escapeHtml(localStorage.getItem(NAME_KEY) || "You")}"></label>
        <label>Seed <input type="number" name="seed" min="0" placeholder="random"></label>
      </div>
      <div id="rules"></div>
      <fieldset><legend>Bots</legend>
        <label>All bots <select name="all-levels">${levels
          .map((l) => `<option ${l === level ? "selected" : ""}>${l}</option>`)
          .join("")}</select></label>
        <div id="bots" class="bots"></div></fieldset>
      <div class="deal-bar">
        <button type="submit" class="primary" id="deal">Deal</button>
        <p id="notice" class="notice ${message ? "error" : "info"}">${escapeHtml(message)}</p>
      </div>
    </form>`;
  // The rule fields come from the API's list of options, not from this page.
  document.getElementById("rules").replaceWith(rulesFieldset(state.rulebook.options));
  const form = document.getElementById("setup");
  const botRows = () => {
    const count = Number(form.players.value) - 1;
    const chosen = form["all-levels"].value;
    document.getElementById("bots").innerHTML = Array.from(
      { length: count },
      (_, i) => `<label>Bot ${i + 1} <select class="level" data-bot="${i + 1}">${levels
        .map((l) => `<option ${l === chosen ? "selected" : ""}>${l}</option>`)
        .join("")}</select></label>`,
    ).join("");
  };
  botRows();
  form.players.addEventListener("change", botRows);
  form["all-levels"].addEventListener("change", botRows);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    createGame(form);
  });
}

async function createGame(form) {
  const name = form.name.value.trim() || "You";
  localStorage.setItem(NAME_KEY, name);
  const players = [{ name }];
  for (const select of form.querySelectorAll("select.level")) {
    players.push({ name: `Bot ${select.dataset.bot}`, bot: select.value });
  }
  let rules;
  try {
    rules = readRules(form, state.rulebook.options);
  } catch (error) {
    if (!(error instanceof RuleFormError)) throw error;
    say(error.message, "error");
    return;
  }
  const seed = form.seed.value === "" ? null : Number(form.seed.value);
  form.deal.disabled = true;
  say("Dealing…");
  try {
    const created = await new Api().createGame(players, rules, seed);
    const game = {
      id: created.id,
      token: created.seats[0].token,
      hostToken: created.host_token,
      seat: 0,
    };
    saveGame(game);
    await startGame(game);
  } catch (error) {
    form.deal.disabled = false;
    say(error instanceof ApiError ? error.message : `Cannot create the game: ${error.message}`, "error");
  }
}

// -- following a game ------------------------------------------------------------------------

async function startGame(game) {
  state.game = game;
  state.me = new Api(game.token);
  state.queue = [];
  state.hint = null;
  state.trickWinner = null;
  state.finalClosed = false;
  say("");
  const view = await state.me.view(game.id);
  state.view = view;
  state.table = view.phase === "playing" ? [...view.trick] : [];
  state.lastSeq = state.handledSeq = view.last_event;
  await loadHistory();
  render();
  connect();
}

function connect() {
  disconnect();
  if (!window.EventSource || new URLSearchParams(location.search).has("poll")) {
    startPolling();
    return;
  }
  const source = state.me.eventSource(state.game.id, state.lastSeq);
  source.onmessage = (message) => enqueue(JSON.parse(message.data));
  source.onerror = () => {
    // EventSource reconnects by itself (with Last-Event-ID) unless the answer was not a
    // stream at all; then poll instead.
    if (source.readyState === EventSource.CLOSED && state.source === source) {
      state.source = null;
      startPolling();
    }
  };
  state.source = source;
}

function startPolling() {
  clearInterval(state.pollTimer);
  state.pollTimer = setInterval(catchUp, 1000);
}

function disconnect() {
  state.source?.close();
  state.source = null;
  clearInterval(state.pollTimer);
}

/** Read the events missed (when polling, or when the view is ahead of the stream). */
async function catchUp() {
  if (!state.game) return;
  try {
    for (const event of await state.me.events(state.game.id, state.lastSeq)) enqueue(event);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) gameGone();
  }
}

function enqueue(event) {
  if (event.seq <= state.lastSeq) return;
  state.lastSeq = event.seq;
  state.queue.push(event);
  pump();
}

async function pump() {
  if (state.pumping) return;
  state.pumping = true;
  try {
    while (state.queue.length) {
      const event = state.queue.shift();
      await show(event);
      state.handledSeq = event.seq;
    }
    await refresh();
  } catch (error) {
    say(error.message, "error");
  } finally {
    state.pumping = false;
  }
  if (state.queue.length) pump();
}

/** Show one event: the table moves, then the page waits a moment so people see it. */
async function show(event) {
  const view = state.view;
  switch (event.type) {
    case "hand_dealt":
      state.table = [];
      state.trickWinner = null;
      state.hint = null;
      await refresh(true);
      animateDeal();
      break;
    case "bid":
      view.bids[event.seat] = event.bid;
      render();
      flash(`.seat[data-seat="${event.seat}"] .bid`);
      await sleep(BID_MS);
      break;
    case "card_played": {
      if (state.table.some((p) => p.card === event.card)) break;
      const from =
        document.querySelector(`.hand [data-card="${event.card}"]`) ||
        document.querySelector(`.seat[data-seat="${event.seat}"]`);
      const start = from?.getBoundingClientRect();
      state.table.push({ seat: event.seat, card: event.card });
      if (view.you && event.seat === view.you.seat) {
        view.you.hand = view.you.hand.filter((c) => c !== event.card);
        view.you.legal = [];
        view.you.refused = [];
      }
      view.hand_sizes[event.seat] = Math.max(0, view.hand_sizes[event.seat] - 1);
      view.turn = (event.seat + 1) % view.players.length;
      render();
      await fly(document.querySelector(`.played[data-card="${event.card}"]`), start);
      break;
    }
    case "trick_won":
      state.table = event.trick.map((p) => ({ ...p }));
      state.trickWinner = event.seat;
      view.tricks_won = event.tricks_won;
      view.last_trick = event.trick;
      view.turn = event.seat;
      render();
      await sleep(TRICK_HOLD_MS);
      state.table = [];
      state.trickWinner = null;
      render();
      break;
    case "hand_scored":
      view.scores = event.scores;
      await loadHistory();
      render();
      say(
        "Hand scored: " +
          event.points.map((p, s) => `${nameOf(s)} ${p >= 0 ? "+" : ""}${p}`).join(", "),
      );
      await sleep(TRICK_HOLD_MS);
      break;
    case "game_over":
      disconnect();
      say("");
      await refresh(true);
      break;
    default:
      break;
  }
}

/**
 * Read the seat's view again. A view ahead of the events shown so far is not taken (the
 * page would jump past cards nobody has seen): the missing events are fetched and shown
 * first, and the pump reads the view again after them. `always` takes it anyway, for a
 * new hand's cards.
 */
async function refresh(always = false) {
  if (!state.game) return;
  let view;
  try {
    view = await state.me.view(state.game.id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return gameGone();
    throw error;
  }
  const caughtUp = view.last_event <= state.handledSeq;
  if (!caughtUp && !always) {
    if (view.last_event > state.lastSeq) await catchUp();
    return;
  }
  state.view = view;
  if (caughtUp && state.trickWinner === null) {
    state.table = view.phase === "playing" ? [...view.trick] : [];
  }
  if (view.phase === "finished") await loadHistory();
  render();
}

async function loadHistory() {
  state.history = await state.me.history(state.game.id);
}

function gameGone() {
  forgetGame();
  showSetup("That game is no longer on the server (deleted or expired).");
}

// -- acting ----------------------------------------------------------------------------------

async function act(action) {
  if (state.acting) return;
  state.acting = true;
  state.hint = null;
  say("");
  render();
  try {
    const view = await state.me.act(state.game.id, action, state.view.version);
    if (view.version < state.view.version) {
      // The stream brought a newer view while the answer was on its way: keep that.
    } else if (view.hand_number === state.view.hand_number && view.phase !== "finished") {
      state.view = view;
    } else {
      // The move ended the hand or the game: the trick and the scores are still to be
      // shown from the events; until then this seat waits.
      state.view.last_event = view.last_event;
      state.view.you.legal = [];
      state.view.you.refused = [];
    }
  } catch (error) {
    say(error.message, "error");
    if (error instanceof ApiError && ["stale_version", "conflict", "not_your_turn"].includes(error.error)) {
      await refresh(true);
    }
  } finally {
    state.acting = false;
    render();
  }
}

async function askHint() {
  const version = state.view.version;
  say("Asking the bots…");
  document.querySelector("[data-action=hint]")?.setAttribute("disabled", "");
  try {
    const job = await state.me.hint(state.game.id);
    const { action, analysis } = job.result;
    if (state.view.version !== version) return;
    state.hint = { version, action, analysis: analysis || [] };
    const best = state.hint.analysis.find((a) => a.action === action);
    const why = best
      ? ` The search spent ${Math.round(best.share * 100)}% of its time there, for ${best.mean_score >= 0 ? "+" : ""}${best.mean_score.toFixed(1)} points on average.`
      : "";
    const what = typeof action === "number" ? `bid ${action}` : `play the ${cardName(action)}`;
    say(`Hint: ${what}.${why}`, "hint");
  } catch (error) {
    say(`No hint: ${error.message}`, "error");
  }
  render();
}

// -- drawing ---------------------------------------------------------------------------------

function myTurn() {
  const view = state.view;
  return Boolean(
    view?.you &&
      view.turn === view.you.seat &&
      view.phase !== "finished" &&
      !state.acting &&
      view.last_event <= state.handledSeq &&
      state.queue.length === 0,
  );
}

function render() {
  const view = state.view;
  if (!view) return;
  const mine = myTurn();
  const you = view.you;
  const hint = state.hint && state.hint.version === view.version ? state.hint : null;
  const rank = [...view.players.keys()].sort((a, b) => view.scores[b] - view.scores[a]);
  const trumpSuit = suitOf(view.trump.card);
  const holder =
    view.trump.holder === null ? "turned up" : `held by ${escapeHtml(nameOf(view.trump.holder))}`;

  const seats = view.players
    .map((player, seat) => {
      const classes = ["seat"];
      if (seat === view.turn && view.phase !== "finished") classes.push("turn");
      if (you && seat === you.seat) classes.push("me");
      if (state.trickWinner === seat) classes.push("winner");
      const role =
        seat === view.dealer ? "dealer" : seat === view.mano && view.phase !== "finished" ? "mano" : "";
      const bid = view.bids[seat];
      const backs =
        you && seat === you.seat
          ? ""
          : `<div class="backs" aria-label="${view.hand_sizes[seat]} cards">${"<i></i>".repeat(view.hand_sizes[seat])}</div>`;
      return `<div class="${classes.join(" ")}" data-seat="${seat}">
        <div class="who"><span class="name">${escapeHtml(nameOf(seat))}</span>
          <span class="score" title="total points">${view.scores[seat]}</span></div>
        <div class="roles">${player.bot ? `<span class="level">${escapeHtml(player.bot)}</span>` : ""}
          ${role ? `<span class="badge">${role}</span>` : ""}</div>
        <div class="stats"><span class="bid" title="bid">${bid === null ? "–" : bid}</span>
          <span class="won" title="tricks won">${view.tricks_won[seat]}</span>${backs}</div></div>`;
    })
    .join("");

  // Who takes the trick: the seat that won it while a won trick is shown, else the view's
  // `winning`, once the table shows the view's trick (not while cards are still flying in).
  const shownIsView =
    state.table.length === view.trick.length &&
    state.table.every((p, i) => p.card === view.trick[i].card);
  const taking = state.trickWinner ?? (shownIsView ? view.winning : null);
  const table = state.table
    .map(({ seat, card }) => {
      const mark = seat !== taking ? "" : state.trickWinner === null ? "winning" : "wins";
      return `<div class="played ${mark ? "winning" : ""}" data-seat="${seat}" data-card="${card}">
        <div class="card">${cardSvg(card)}</div><span class="by">${escapeHtml(nameOf(seat))}</span>
        ${mark ? `<span class="taking">${mark}</span>` : ""}</div>`;
    })
    .join("");
  const tableNote =
    view.phase === "bidding"
      ? "Bidding…"
      : view.phase === "finished"
        ? ""
        : state.table.length
          ? ""
          : `${escapeHtml(nameOf(view.turn))} ${view.turn === you?.seat ? "lead" : "leads"}`;

  const biddingTurn = you && view.phase === "bidding" && view.turn === you.seat;
  const actions = biddingTurn ? bidsHtml(view, { mine, hint }) : "";
  const hand = you ? handHtml(view, { mine, hint }) : "";
  const reasons = mine ? reasonsHtml(view) : "";

  const caughtUp = view.last_event <= state.handledSeq;
  let status;
  if (!caughtUp) status = "…";
  else if (view.phase === "finished") status = "Game over";
  else if (mine) status = view.phase === "bidding" ? "Your turn: bid" : "Your turn: play a card";
  else if (state.acting) status = "…";
  else status = `${escapeHtml(nameOf(view.turn))} ${view.phase === "bidding" ? "is bidding" : "is playing"}…`;

  const finished = view.phase === "finished" && caughtUp;
  app.innerHTML = `
  <section id="game" class="game" data-phase="${view.phase}" data-my-turn="${mine ? "yes" : "no"}"
      data-version="${view.version}">
    <div class="main">
      <div class="status panel">
        <div class="hand-info"><strong>${handTitle(view)}</strong>
          <span>${view.cards_per_player} ${view.cards_per_player === 1 ? "card" : "cards"} each</span>
          <span class="turn-line">${status}</span></div>
        <div class="trump" title="Trump: ${SUIT_NAMES[trumpSuit]}"><div class="card trump-card">${cardSvg(view.trump.card)}</div>
          <div><span class="label">Trump</span><strong>${SUIT_NAMES[trumpSuit]}</strong>
            <span class="trump-name">${cardName(view.trump.card)}</span><small>${holder}</small></div></div>
      </div>
      <div class="seats" aria-label="Players: bid, tricks won, total">${seats}</div>
      <div class="table" id="table" aria-live="polite">${table || `<p class="table-note">${tableNote}</p>`}</div>
      <p id="notice" class="notice ${state.noticeKind}">${escapeHtml(state.notice)}</p>
      <div class="actions">${actions}
        ${mine ? '<button class="hint-btn" data-action="hint">Hint</button>' : ""}</div>
      <div class="hand" aria-label="Your hand">${hand}</div>
      ${reasons ? `<ul class="reasons">${reasons}</ul>` : ""}
      ${view.last_trick.length && !state.table.length && view.phase === "playing" ? lastTrickHtml(view) : ""}
    </div>
    <aside class="side">
      ${scoreSheet(view)}
      <div class="game-tools"><button data-action="leave" class="quiet">${finished ? "New game" : "Leave game"}</button>
        <span class="game-id">Game ${escapeHtml(view.id)}</span></div>
    </aside>
    ${finished ? finalHtml(view, rank) : ""}
  </section>`;
}

/** "Hand 3 of 28"; a tiebreak hand is none of the game's hands: "Tiebreak 1". */
function handTitle(view) {
  return view.tiebreak_hand ? `Tiebreak ${view.tiebreak_hand}` : `Hand ${view.hand_number} of ${view.hands_total}`;
}

function lastTrickHtml(view) {
  const cards = view.last_trick
    .map(({ seat, card }) => `<span class="mini-played" title="${escapeHtml(nameOf(seat))}">
      <span class="card micro">${cardSvg(card)}</span>${escapeHtml(nameOf(seat))}</span>`)
    .join("");
  return `<div class="last-trick"><span>Last trick:</span>${cards}</div>`;
}

/** The score sheet as on paper: one row per hand, per player bid/won, points and total. */
function scoreSheet(view) {
  const hands = state.history?.hands ?? [];
  const head = view.players
    .map((_, seat) => `<th scope="col">${escapeHtml(nameOf(seat))}</th>`)
    .join("");
  const rows = hands
    .map((hand) => {
      const cells = view.players
        .map((_, s) => {
          const exact = hand.bids[s] === hand.tricks[s];
          const points = hand.points[s];
          return `<td class="${exact ? "exact" : "missed"}"><span class="line"><span class="bw">${hand.bids[s]}/${hand.tricks[s]}</span>
            <span class="pts">${points >= 0 ? "+" : ""}${points}</span></span><strong>${hand.totals[s]}</strong></td>`;
        })
        .join("");
      return `<tr><th scope="row">${hand.hand_number}${hand.tiebreak ? "*" : ""}</th><td class="n">${hand.cards}</td>
        <td class="suit">${trumpIcon(hand.trump.card)}</td>${cells}</tr>`;
    })
    .join("");
  let current = "";
  if (view.phase !== "finished") {
    const cells = view.players
      .map((_, s) => {
        const bid = view.bids[s];
        return `<td class="now"><span class="bw">${bid === null ? "–" : bid}/${view.tricks_won[s]}</span></td>`;
      })
      .join("");
    current = `<tr class="current"><th scope="row">${view.hand_number}${view.tiebreak_hand ? "*" : ""}</th><td class="n">${view.cards_per_player}</td>
      <td class="suit">${trumpIcon(view.trump.card)}</td>${cells}</tr>`;
  }
  const totals = view.players
    .map((_, s) => `<td><strong>${view.scores[s]}</strong>${view.winners.includes(s) ? " ★" : ""}</td>`)
    .join("");
  return `<details class="sheet panel" ${state.sheetOpen ? "open" : ""}><summary>Score sheet</summary>
    <div class="sheet-scroll"><table class="score-sheet">
      <thead><tr><th scope="col">Hand</th><th scope="col" title="cards each">Cards</th>
        <th scope="col">Trump</th>${head}</tr></thead>
      <tbody>${rows}${current}</tbody>
      <tfoot><tr><th scope="row" colspan="3">Total</th>${totals}</tr></tfoot>
    </table></div><p class="legend">bid/won · points · running total</p></details>`;
}

function trumpIcon(card) {
  const suit = suitOf(card);
  return `<svg viewBox="-12 -12 24 24" class="suit-icon" role="img" aria-label="${SUIT_NAMES[suit]}">
    <title>${cardName(card)}</title>${symbol(suit, 0, 0, 0.95)}</svg>`;
}

function finalHtml(view, rank) {
  const winners = view.winners.map((s) => nameOf(s));
  const iWon = view.you && view.winners.includes(view.you.seat);
  const list = rank
    .map(
      (s, i) => `<li class="${view.winners.includes(s) ? "won" : ""}"><span>${i + 1}.</span>
        ${escapeHtml(nameOf(s))}<strong>${view.scores[s]}</strong></li>`,
    )
    .join("");
  if (state.finalClosed) return "";
  return `<div class="final panel" role="dialog" aria-label="Final result">
    <button class="close" data-action="close" aria-label="Close: see the score sheet">×</button>
    <h2>${iWon ? (winners.length > 1 ? "You share the win!" : "You win!") : `${escapeHtml(winners.join(" and "))} ${winners.length > 1 ? "share the win" : "wins"}`}</h2>
    <ol class="ranking">${list}</ol>
    <button class="primary" data-action="new">New game</button></div>`;
}

// -- motion ----------------------------------------------------------------------------------

async function fly(element, start) {
  if (!element || !start || reducedMotion || !element.animate) return sleep(FLY_MS);
  const end = element.getBoundingClientRect();
  const dx = start.left + start.width / 2 - (end.left + end.width / 2);
  const dy = start.top + start.height / 2 - (end.top + end.height / 2);
  const animation = element.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(0.7) rotate(-8deg)`, opacity: 0.5 },
      { transform: "none", opacity: 1 },
    ],
    { duration: FLY_MS, easing: "cubic-bezier(.2,.75,.3,1)" },
  );
  await animation.finished.catch(() => {});
}

function animateDeal() {
  for (const card of document.querySelectorAll(".hand .card-btn")) card.classList.add("dealt");
}

function flash(selector) {
  const element = document.querySelector(selector);
  element?.classList.add("flash");
}

// -- wiring ----------------------------------------------------------------------------------

app.addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (!target || !app.contains(target)) return;
  if (target.dataset.bid !== undefined) {
    const bid = Number(target.dataset.bid);
    const why = refusals(state.view).bids[bid];
    // A bid refused without a reason given is sent: the server's answer says why.
    if (why) say(`You may not bid ${bid}: ${why}.`, "error");
    else if (myTurn()) act(bid);
  } else if (target.dataset.card) {
    const card = target.dataset.card;
    const why = refusals(state.view).cards[card];
    if (why) say(`The ${cardName(card)} is not playable: ${why}.`, "error");
    else if (myTurn() && state.view.you.legal.includes(card)) act(card);
  } else if (target.dataset.action === "hint") {
    askHint();
  } else if (target.dataset.action === "new") {
    forgetGame();
    showSetup();
  } else if (target.dataset.action === "close") {
    state.finalClosed = true;
    render();
  } else if (target.dataset.action === "leave") {
    leave();
  }
});

// Toggle events do not bubble: listen in the capture phase to remember the sheet's state.
app.addEventListener(
  "toggle",
  (event) => {
    if (event.target.classList?.contains("sheet")) state.sheetOpen = event.target.open;
  },
  true,
);

async function leave() {
  const game = state.game;
  if (state.view?.phase !== "finished" && !confirm("Leave this game? It will be deleted.")) return;
  forgetGame();
  disconnect();
  if (game && state.view?.phase !== "finished") {
    // Only the host token may delete; a failure leaves the game to expire by itself.
    await new Api(game.hostToken).remove(game.id).catch(() => {});
  }
  showSetup();
}

async function boot() {
  const saved = localStorage.getItem(STORE_KEY);
  if (saved) {
    try {
      await startGame(JSON.parse(saved));
      return;
    } catch (error) {
      forgetGame();
      if (!(error instanceof ApiError)) console.error(error);
    }
  }
  showSetup();
}

boot();
