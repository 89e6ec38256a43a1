// The Pocha web page: the lobby (set up a game against bots or a table with open seats for
// people, join one by its code or from the public list), a table's waiting room, then the
// game, on the public HTTP API only. A table's link is `/t/CODE`: this browser goes back
// to the seat it holds there (seats.js), or shows the table and a name field to sit down.
// A game's link is `/play/ID` (an account's page lists its games in play with it): the seat
// this browser holds there, else the signed-in account's, opened with the account's key.
// The setup form asks a newcomer only for the game and a name: "Play" deals a game against
// bots with the API's defaults, and the rules, the seats (a table for friends) and the seed
// wait under "More options". A table is unlisted unless its host lists it.
//
// The seat's view (GET /api/v1/games/{id} with the seat's token) is the truth for the
// hand, the bids, whose turn it is and what is legal. The event stream (Server-Sent
// Events, or polling /events when a stream cannot be had) drives what moves on the table:
// each event is shown in turn, cards flying in from whoever played them, and the view is
// read again once the events run out, so the page shows every card even when the bots
// play faster than the eye. The seat's token is kept in localStorage, so a reload resumes;
// an account's seat goes on with the account's key once its token opens nothing (the key
// was replaced: account.js, `SeatApi`).
// The page knows no rule of the game: what is legal, why the rest is not and who is winning
// the trick all come with the view. At a table with other people the page reads its view
// at least every PRESENCE_MS (that is how the server knows the seat is here), shows the
// clock of the seat whose turn it is, and who is away or played by the stand-in. Every
// sentence comes from i18n.js, in the language chosen. A screen is drawn again at each
// change through focus.js, which updates in place what changed and keeps the rest (the
// focus, a button being pressed, what a screen reader already read). What happens (each
// bid, card and trick, the notice's sentences, the seat's turn) is said once, as it
// comes, in the page's log for screen readers (#said, outside the screens: `announce`),
// which holds the screen shown only; an error is said once by the page's alert instead
// (#alert, `alertSaid`).
//
// The page plays Poch too (the setup form's game menu): a Poch game's table is drawn and
// its events shown by poch.js, loaded when such a game is opened, on the same view, stream
// and tables as Pocha's; its decisions go to /bets, /plays and /suits.

import { accountPanelHtml, followAccount, SeatApi, signedIn, useAccount, wireAccountPanel } from "./account.js";
import { Api, ApiError, errorText } from "./api.js";
import { cardSvg, symbol } from "./cards.js";
import { redraw } from "./focus.js";
import { asSentence, bidsHtml, handHtml, reasonsHtml, refusals } from "./hand.js";
import { escapeHtml } from "./html.js";
import { followLanguage, language, languageMenu, levelName, loadCatalogue, t, tn } from "./i18n.js";
import { BID_MS, FLY_MS, TRICK_HOLD_MS } from "./pace.js";
import { RuleFormError, readRules, rulesFieldset } from "./ruleform.js";
import { SUIT_NAMES, cardName, rankOf, suitOf } from "./rules.js";
import {
  currentSeat,
  followSeats,
  forgetCurrent,
  forgetSeat,
  removedFrom,
  saveSeat,
  seatAt,
  seatOf,
} from "./seats.js";
import { onStorageChange } from "./storage.js";
import {
  finalHtml,
  finalTitle,
  joinHtml,
  lobbyHtml,
  presenceDot,
  seatClasses,
  waitingHtml,
} from "./tables.js";
import { expected, percent } from "./thinking.js";

const NAME_KEY = "pocha.name";
// A seat of the setup form given to a person who joins by the table's code or link.
const OPEN = "open";
// The clock a game with two people or more gets when its creator leaves it (the API's).
const DEFAULT_TURN_SECONDS = 60;
// How often the page reads its view at a table (the server counts a seat present while seen
// in the last 45 s) and the lobby's list, in ms.
const PRESENCE_MS = 15_000;
const LOBBY_MS = 5_000;
// A clock with this little left (ms) is shown running out.
const LOW_CLOCK_MS = 5_000;

const app = document.getElementById("app");
const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

const state = {
  rulebook: null,
  games: {}, // each game's rule options and bot levels, by game: {pocha, poch}
  poch: null, // the Poch table's module (poch.js), loaded for a Poch game only
  game: null, // {id, token, hostToken, seat}
  me: null, // Api acting as the seat
  view: null,
  table: [], // the cards shown on the table: [{seat, card}]
  trickWinner: null, // the seat whose won trick is being shown
  history: null,
  hint: null, // {version, action, analysis}
  notice: "",
  noticeKind: "info",
  noticeSaid: null, // says the notice again in the page's language now (`say`), if it can
  lastSeq: 0, // the last event received
  handledSeq: 0, // the last event shown
  queue: [],
  pumping: false,
  acting: false, // a move on its way: one at a time
  hinting: false, // a hint asked for and not yet answered
  comingBack: false, // the request to take the seat back from the stand-in, on its way
  source: null,
  pollTimer: null,
  sheetOpen: true,
  finalClosed: false,
  levels: [], // the bot levels, by name
  startLevel: null, // the level the host starts with
  clock: null, // {turn, version, until}: the deadline of the turn in the view, in local ms
  turnShown: null, // the version at which this seat's turn last brought its hand into view
  turnSaid: null, // the version at which this seat's turn was last said in the log
  timers: [], // the current screen's intervals
  screen: null, // draws the screen shown again, when it is not a game's (the lobby, a table's seats)
};

// -- small helpers -------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, reducedMotion ? 0 : ms));
// Pocha's views end in phase "finished", Poch's in "over" (they say which game with `game`).
const isPoch = (view) => view?.game === "poch";
const isOver = (view) => view?.phase === "finished" || view?.phase === "over";

/**
 * A seat's name as the page shows it: "You" for this browser's seat, and a name two seats
 * share with its seat number after it ("Ana #2"), as the terminal does, so that the seats,
 * the trick and the events never leave two people alike.
 */
function nameOf(seat) {
  const players = state.view?.players;
  const player = players?.[seat];
  if (!player) return t("seat.n", { n: seat + 1 });
  if (seat === state.game?.seat) return t("you");
  const shared = Boolean(player.name) && players.filter((other) => other.name === player.name).length > 1;
  return shared ? `${player.name} #${seat + 1}` : player.name;
}

// The most lines the log for screen readers keeps (the older ones were read already).
const SAID_LINES = 5;

/**
 * Say `text` once to a screen reader: a line added to the page's log (#said, in
 * index.html, a polite live region that no redraw touches, so nothing in it is read out
 * twice and every line is read, even the same sentence twice in a row).
 */
function announce(text) {
  const log = document.getElementById("said");
  if (!log || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  log.append(line);
  while (log.childElementCount > SAID_LINES) log.firstElementChild.remove();
}

/**
 * Say `text` once to a screen reader as an error: the page's alert (#alert, in index.html,
 * outside the screens as the log is), its line replaced by a new one, so that the same
 * error twice in a row is said twice. "" takes the line away, saying nothing.
 */
function alertSaid(text) {
  const alert = document.getElementById("alert");
  if (!alert) return;
  if (!text) return void alert.replaceChildren();
  const line = document.createElement("p");
  line.textContent = text;
  alert.replaceChildren(line);
}

/**
 * Show the notice line and say it once: an error by the page's alert (`alertSaid`), any
 * other notice of a game shown in the log (`announce`; the setup form's "Dealing…" is no
 * line of a table). `text` as it is, or a function that says it in the page's language
 * now, so that a switch of language says it again in the new one (`sayAgain`).
 */
function say(text, kind = "info") {
  state.noticeSaid = typeof text === "function" ? text : null;
  state.notice = state.noticeSaid ? state.noticeSaid() : text;
  state.noticeKind = kind;
  alertSaid(kind === "error" ? state.notice : "");
  if (kind !== "error" && state.game) announce(state.notice);
  const line = document.getElementById("notice");
  if (line) {
    line.textContent = state.notice;
    line.className = `notice ${kind}`;
  }
}

/** The notice said again in the page's language, when it was said by a function. */
function sayAgain() {
  if (state.noticeSaid) state.notice = state.noticeSaid();
}

/**
 * A move said in the log: about this browser's own seat in the second person ("You bid
 * 2", `key` + ".you"), about another by its name ("Ana bids 2").
 */
function moveSaid(key, seat, params = {}) {
  const own = `${key}.you`; // each key of the two marked in i18n.js
  return seat === state.game?.seat ? t(own, params) : t(key, { ...params, name: nameOf(seat) });
}

/** "The stand-in played for Ana.", or for this browser's own seat "... for you." */
function standInPlayed(seat) {
  return seat === state.game?.seat ? t("event.standInYou") : t("event.standIn", { name: nameOf(seat) });
}

/** Run `fn` every `ms` while this screen is shown (stopped by `leaveScreen`). */
function every(ms, fn) {
  state.timers.push(setInterval(fn, ms));
}

/**
 * Stop what the screen shown was doing: its stream, its polling, its timers. What was said
 * of it goes too (the log's lines, the alert's): a screen reader that reads the log again
 * finds the screen opened next only, never the lines of a game left.
 */
function leaveScreen() {
  disconnect();
  for (const timer of state.timers) clearInterval(timer);
  state.timers = [];
  document.getElementById("said")?.replaceChildren();
  alertSaid("");
}

function go(path) {
  if (location.pathname !== path) history.pushState(null, "", path);
}

/** Take a view read from the server: its clock counts from now. */
function takeView(view) {
  state.view = view;
  state.clock =
    view.seconds_left === null || view.seconds_left === undefined || view.turn === null
      ? null
      : { turn: view.turn, version: view.version, until: Date.now() + view.seconds_left * 1000 };
}

async function loadRulebook() {
  if (state.rulebook) return true;
  try {
    state.rulebook = await new Api().rules();
    state.levels = state.rulebook.bot_levels.map((l) => l.name);
    state.games = gamesOf(state.rulebook);
    return true;
  } catch (error) {
    app.innerHTML = `<p class="notice error">${escapeHtml(errorText(error))}</p>`;
    return false;
  }
}

/**
 * Each game's options and bot levels, from the rulebook's `games` (Pocha's are also its
 * top-level ones, as before there were two games). A service that lists no Poch offers
 * none: the setup form then shows Pocha alone.
 */
function gamesOf(rulebook) {
  const games = { pocha: { options: rulebook.options, levels: state.levels } };
  const poch = (rulebook.games ?? []).find((g) => g.game === "poch");
  if (poch) games.poch = { options: poch.options, levels: poch.bot_levels.map((l) => l.name) };
  return games;
}

/** The bot levels of a game ("pocha" for a view that names none). */
function levelsOf(game) {
  return state.games[game ?? "pocha"]?.levels ?? state.levels;
}

function levelOptions(chosen, extra = "", levels = state.levels) {
  return (
    levels
      .map((l) => `<option value="${l}" ${l === chosen ? "selected" : ""}>${escapeHtml(levelName(l))}</option>`)
      .join("") + extra
  );
}

// -- setup -----------------------------------------------------------------------------------

async function showSetup(message = "") {
  leaveScreen();
  state.game = null;
  state.view = null;
  state.screen = () => showSetup();
  go("/");
  if (!(await loadRulebook())) return;
  const levels = state.levels;
  const level = levels.includes("medium") ? "medium" : levels[0];
  app.innerHTML = `
  <div class="lobby-page">
    <form id="setup" class="setup panel" autocomplete="off">
      <h2>${t("setup.title")}</h2>
      <p class="lead" id="setup-lead">${t("setup.lead")}</p>
      <div class="grid">
        <label class="wide" ${state.games.poch ? "" : "hidden"}>${t("setup.game")} <select name="game">
          <option value="pocha" selected>${t("setup.gamePocha")}</option>
          ${state.games.poch ? `<option value="poch">${t("setup.gamePoch")}</option>` : ""}</select></label>
        <label>${t("setup.name")} <input name="name" maxlength="40" required
          value="${escapeHtml(offeredName(t("you")))}"></label>
        <label class="toggle wide" id="rated-toggle" ${signedIn() ? "" : "hidden"}><input type="checkbox" name="rated" id="rated">
          <span>${t("setup.rated")}</span><small>${t("setup.ratedHelp")}</small></label>
      </div>
      <details id="more-options" class="more-options"><summary>${t("setup.more")}</summary>
        <p class="muted small">${t("setup.moreHelp")}</p>
        <div id="rules"></div>
        <fieldset><legend>${t("setup.seats")}</legend>
          <p class="muted small">${t("setup.seatsHelp")}</p>
          <label>${t("setup.allBots")} <select name="all-levels">${levelOptions(level)}</select></label>
          <div id="bots" class="bots"></div>
          <div id="table-options" class="table-options" hidden>
            <label class="toggle"><input type="checkbox" name="listed">
              <span>${t("setup.listed")}</span><small>${t("setup.listedHelp")}</small></label>
            <label>${t("setup.standIn")} <select name="stand-in">${levelOptions(level)}</select></label>
          </div></fieldset>
        <div class="grid"><label>${t("setup.seed")} <input type="number" name="seed" min="0" placeholder="${t("setup.random")}"></label></div>
      </details>
      <div class="deal-bar">
        <button type="submit" class="primary" id="deal">${t("setup.deal")}</button>
        <p id="notice" class="notice ${message ? "error" : "info"}">${escapeHtml(message)}</p>
      </div>
    </form>
    <aside class="tables-side">
      ${accountPanelHtml()}
      <form id="join-code" class="panel join-code" autocomplete="off">
        <h2>${t("join.byCode")}</h2>
        <div class="row"><input name="code" placeholder="ABCD-EFGH" maxlength="12" required
            autocapitalize="characters" aria-label="${t("join.code")}">
          <button type="submit" class="primary">${t("join.go")}</button></div>
        <p id="join-code-notice" class="notice error" role="alert"></p>
      </form>
      <section class="panel lobby" id="lobby" aria-live="polite"><h2 id="lobby-title" tabindex="-1">${t("lobby.title")}</h2>
        <div id="lobby-tables"><p class="muted">${t("lobby.loading")}</p></div></section>
    </aside>
  </div>`;
  // Why the page came back here (the game is gone, the host removed this seat): an error.
  alertSaid(message);
  const form = document.getElementById("setup");
  const chosenGame = () => form.game.value;
  // Open seats make a table: the lobby and stand-in options show, and a clock is proposed
  // (the API's default) unless the person set one; a rated game is always timed.
  const tableOptions = () => {
    const open = [...form.querySelectorAll("select.level")].filter((s) => s.value === OPEN).length;
    document.getElementById("table-options").hidden = open === 0;
    form.deal.textContent = open ? t("setup.openTable") : t("setup.deal");
    const turnField = form.elements.namedItem("turn_seconds");
    if (turnField && !turnField.dataset.touched) {
      const timed = open > 0 || form.rated.checked;
      turnField.value = String(timed ? DEFAULT_TURN_SECONDS : turnField.defaultValue);
    }
  };
  const botRows = () => {
    const count = Number(form.players.value) - 1;
    const chosen = form["all-levels"].value;
    const levels = levelsOf(chosenGame());
    const before = [...form.querySelectorAll("select.level")].map((s) => s.value);
    // A seat keeps its choice when the other game has that level too.
    const keep = (value) => (value === OPEN || levels.includes(value) ? value : undefined);
    document.getElementById("bots").innerHTML = Array.from(
      { length: count },
      (_, i) => `<label>${t("seat.n", { n: i + 2 })} <select class="level" name="seat-${i + 2}" data-bot="${i + 1}">${levelOptions(
        keep(before[i]) ?? chosen,
        `<option value="${OPEN}" ${before[i] === OPEN ? "selected" : ""}>${t("setup.person")}</option>`,
        levels,
      )}</select></label>`,
    ).join("");
    tableOptions();
    distinctForRated();
  };
  // A rated table seats each bot level once: ticking "Rated table" (or seating anew while
  // it is ticked) gives each bot seat that repeats a level the nearest level not taken,
  // so that Play deals at once instead of being refused. A level the person picks later
  // is left as picked (the service says why it is refused, if it is).
  const distinctForRated = () => {
    if (!form.rated.checked) return;
    const levels = levelsOf(chosenGame());
    const taken = new Set();
    for (const select of form.querySelectorAll("select.level")) {
      if (select.value === OPEN) continue;
      if (taken.has(select.value)) {
        const at = levels.indexOf(select.value);
        const nearest = levels
          .filter((level) => !taken.has(level))
          .sort((a, b) => Math.abs(levels.indexOf(a) - at) - Math.abs(levels.indexOf(b) - at) || levels.indexOf(b) - levels.indexOf(a));
        if (nearest.length) select.value = nearest[0];
      }
      taken.add(select.value);
    }
  };
  // The rule fields come from the API's list of options, not from this page: the chosen
  // game's, made again when the other game is chosen.
  let rulesBox = document.getElementById("rules");
  const showRules = () => {
    const fieldset = rulesFieldset(state.games[chosenGame()]?.options ?? state.rulebook.options);
    rulesBox.replaceWith(fieldset);
    rulesBox = fieldset;
    const turnField = form.elements.namedItem("turn_seconds");
    turnField?.addEventListener("input", () => {
      turnField.dataset.touched = "yes";
    });
    form.players.addEventListener("change", botRows);
  };
  showRules();
  botRows();
  form.rated.addEventListener("change", () => {
    tableOptions();
    distinctForRated();
  });
  form.game.addEventListener("change", () => {
    const levels = levelsOf(chosenGame());
    const level = levels.includes("medium") ? "medium" : levels[0];
    for (const name of ["all-levels", "stand-in"]) {
      const keep = levels.includes(form[name].value) ? form[name].value : level;
      form[name].innerHTML = levelOptions(keep, "", levels);
    }
    document.getElementById("setup-lead").textContent = t(chosenGame() === "poch" ? "setup.leadPoch" : "setup.lead");
    showRules();
    botRows();
  });
  form["all-levels"].addEventListener("change", () => {
    for (const select of form.querySelectorAll("select.level")) {
      if (select.value !== OPEN) select.value = form["all-levels"].value;
    }
    distinctForRated();
  });
  document.getElementById("bots").addEventListener("change", tableOptions);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    createGame(form);
  });
  document.getElementById("join-code").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = event.target.code.value.trim().toUpperCase();
    sayAtJoin("");
    if (code) openTable(code, true);
  });
  wireAccountPanel(() => showSetup());
  refreshLobby();
  every(LOBBY_MS, refreshLobby);
}

/**
 * The lobby's account panel and rated toggle, drawn again for the account signed in now
 * (another tab signed up or made a new key); the rest of the form stays as the person left
 * it. A key on show, just made in this tab, stays until it is acknowledged.
 */
function redrawAccount() {
  const panel = document.getElementById("account-panel");
  if (!panel || document.getElementById("account-key")) return;
  panel.insertAdjacentHTML("afterend", accountPanelHtml());
  panel.remove();
  wireAccountPanel(() => showSetup());
  const form = document.getElementById("setup");
  if (!form) return;
  document.getElementById("rated-toggle").hidden = !signedIn();
  if (!signedIn() && form.rated.checked) {
    form.rated.checked = false;
    form.rated.dispatchEvent(new Event("change"));
  }
}

/**
 * The game shown was left in another tab (its seat is no longer kept): follow it no more
 * and go back to the lobby, as that tab did; saying so, as that tab did, when the host
 * removed this person. A seat kept, or a game not yet shown, stays.
 */
async function leftElsewhere() {
  const game = state.game;
  if (!game || state.view?.id !== game.id || seatOf(game.id)) return;
  // A move on its way finishes first.
  if (state.acting) return void setTimeout(leftElsewhere, 250);
  // Another tab heard it first: this tab's own stream may not have said it yet.
  if (removedFrom(game.id)) return removedByHost();
  // Another tab also forgets a seat it only failed to open (a network error, a 429) and the
  // oldest of too many: the server says whether the seat was left.
  let mine = null;
  try {
    const view = await state.me.view(game.id);
    mine = view.you ? view.players[view.you.seat] : null;
  } catch (error) {
    if (!(error instanceof ApiError) || ![401, 404].includes(error.status)) mine = { left: false };
  }
  if (state.game !== game) return;
  if (mine && !mine.left) {
    saveSeat(game);
    return;
  }
  leaveScreen();
  state.game = null;
  showSetup();
}

/** The name a form offers: the account's, else the one remembered here, else `fallback`. */
function offeredName(fallback) {
  return signedIn()?.name || localStorage.getItem(NAME_KEY) || fallback;
}

/**
 * The name field of the setup form and of a table's join form offers the name remembered
 * in this browser (the last one a game was dealt or a seat taken with). A field still as
 * drawn takes the one another tab remembers since, so that it is what this tab shows and
 * sends next; a name typed here stays, this tab's to send.
 */
function followName() {
  for (const field of document.querySelectorAll("#setup input[name=name], #join input[name=name]")) {
    if (field.value !== field.defaultValue) continue;
    const name = offeredName(field.form.id === "setup" ? t("you") : "");
    field.defaultValue = name;
    field.value = name;
  }
}

async function refreshLobby() {
  const list = document.getElementById("lobby-tables");
  if (!list) return;
  try {
    const tables = await new Api().lobby();
    const now = document.getElementById("lobby-tables");
    if (now) redraw(now, lobbyHtml(tables), LOBBY_FOCUS);
  } catch (error) {
    redraw(list, `<p class="notice error">${escapeHtml(errorText(error))}</p>`, LOBBY_FOCUS);
  }
}

async function createGame(form) {
  const name = form.name.value.trim() || t("you");
  localStorage.setItem(NAME_KEY, name);
  const players = [{ name }];
  let open = 0;
  for (const select of form.querySelectorAll("select.level")) {
    if (select.value === OPEN) {
      players.push({ open: true });
      open += 1;
    } else {
      players.push({ name: `Bot ${select.dataset.bot}`, bot: select.value });
    }
  }
  const gameName = form.game.value;
  let rules;
  try {
    rules = readRules(form, state.games[gameName]?.options ?? state.rulebook.options);
  } catch (error) {
    if (!(error instanceof RuleFormError)) throw error;
    say(error.message, "error");
    return;
  }
  const seed = form.seed.value === "" ? null : Number(form.seed.value);
  const table = open ? { listed: form.listed.checked, stand_in_level: form["stand-in"].value } : {};
  // A rated table: the signed-in account takes the first seat (its key goes with the request).
  if (form.rated.checked && signedIn()) table.rated = true;
  form.deal.disabled = true;
  say(open ? t("setup.opening") : t("setup.dealing"));
  try {
    // Pocha is the API's default game: its requests stay as they were.
    const created = await new Api().createGame(players, rules, seed, gameName === "pocha" ? table : { ...table, game: gameName });
    const game = {
      id: created.id,
      token: created.seats[0].token,
      hostToken: created.host_token,
      seat: 0,
      code: created.table_code ?? null,
    };
    saveSeat(game);
    await startGame(game);
  } catch (error) {
    form.deal.disabled = false;
    say(error instanceof ApiError ? error.message : t("error.create", { message: errorText(error) }), "error");
  }
}

// -- a table by its code ---------------------------------------------------------------------

/** The table `code` names: back to the seat held there, else its seats and a name field. */
async function openTable(code, fromLobby = false) {
  const held = seatAt(code);
  if (held) {
    try {
      await startGame(held);
      return;
    } catch (error) {
      // The seat is gone (the game expired, or this seat left while the table waited).
      forgetSeat(held.id);
      if (!(error instanceof ApiError)) console.error(error);
    }
  }
  await showJoin(code, "", fromLobby);
}

/**
 * Game `id`, as an account's page links to it (`/play/ID`): the seat this browser holds
 * there, else the signed-in account's, opened with its key (a seat kept without a token,
 * as `SeatApi` keeps one once its token opens nothing).
 */
async function openGame(id) {
  const game = seatOf(id) ?? { id, token: null, seat: null, hostToken: null, code: null };
  if (!game.token && !signedIn()) return showSetup(t("play.signIn"));
  try {
    await startGame(game);
  } catch (error) {
    // Gone, over and expired, or no seat of this browser's or account's.
    if (error instanceof ApiError) forgetSeat(id);
    else console.error(error);
    forgetCurrent();
    showSetup(errorText(error));
  }
}

/**
 * Why the code typed under "Join a table" opens nothing, said under that box: the setup
 * form's notice is a screen away from it on a phone, and reads as the form's own.
 */
function sayAtJoin(why) {
  const line = document.getElementById("join-code-notice");
  if (!line) return;
  line.textContent = why;
  document.querySelector("#join-code input[name=code]")?.setAttribute("aria-invalid", why ? "true" : "false");
}

async function showJoin(code, message = "", fromLobby = false) {
  leaveScreen();
  state.game = null;
  state.view = null;
  state.screen = () => showJoin(code);
  let table;
  try {
    table = await new Api().table(code);
  } catch (error) {
    const why =
      error instanceof ApiError && error.status === 404 ? t("join.notFound", { code }) : errorText(error);
    if (fromLobby) sayAtJoin(why);
    else showSetup(why);
    return;
  }
  go(`/t/${encodeURIComponent(table.code)}`);
  if (!message && (await openAccountSeat(table))) return;
  app.innerHTML = joinHtml(table, { name: offeredName(""), message });
  document.getElementById("join").addEventListener("submit", (event) => {
    event.preventDefault();
    takeSeat(table, event.target);
  });
}

/**
 * The seat the signed-in account holds at `table` (taken in another browser, by `pocha play`,
 * or before this browser forgot it), opened by the account's key (account.js), as its
 * account's page opens it: whether it was. `seated`: the server says the account sits
 * there, though the table read before did not show it yet.
 */
async function openAccountSeat(table, seated = false) {
  const account = signedIn();
  const mine = table.players.some((p) => p.account === account?.id && !p.open && !p.left);
  if (!account || !(mine || seated)) return false;
  try {
    await startGame({ id: table.game_id, token: null, seat: null, hostToken: null, code: table.code });
    return true;
  } catch (error) {
    if (!(error instanceof ApiError)) console.error(error);
    // Not opened: nothing of that game is followed (the join form is drawn next).
    leaveScreen();
    state.game = null;
    state.view = null;
    return false;
  }
}

async function takeSeat(table, form) {
  const name = form.name.value.trim();
  if (!name) return;
  localStorage.setItem(NAME_KEY, name);
  form.querySelector("#take-seat").disabled = true;
  try {
    const taken = await new Api().join(table.code, name);
    const game = { id: taken.game_id, token: taken.token, seat: taken.seat, hostToken: null, code: taken.table_code };
    saveSeat(game);
    await startGame(game);
  } catch (error) {
    // The account took a seat here meanwhile (in another browser): its key opens it.
    if (error instanceof ApiError && error.error === "one_seat_per_account" && (await openAccountSeat(table, true))) {
      return;
    }
    if (error instanceof ApiError && error.status === 409) return showJoin(table.code, error.message);
    form.querySelector("#take-seat").disabled = false;
    say(errorText(error), "error");
  }
}

// -- following a game ------------------------------------------------------------------------

async function startGame(game) {
  leaveScreen();
  state.game = game;
  // The seat's token, or the account's key once the token opens nothing (account.js).
  state.me = new SeatApi(game, saveSeat);
  state.queue = [];
  state.hint = null;
  state.trickWinner = null;
  state.finalClosed = false;
  state.turnSaid = null;
  say("");
  let view = await state.me.view(game.id);
  if (!view.you) throw new ApiError(403, { error: "not_seated", message: t("error.notSeated") });
  // The Poch table's module is read only when a Poch game is shown.
  if (isPoch(view) && !state.poch) state.poch = await import("./poch.js");
  const mine = view.players[view.you.seat];
  if (mine?.away && !mine.left && !isOver(view)) {
    // Coming back to the table is acting again: the stand-in stops playing this seat.
    view = await state.me.comeBack(game.id, view.you.seat);
    say(t("back.done"));
  }
  game.seat = view.you.seat;
  // A table's game opened by its id (an account's link, /play/ID) goes on at the table's
  // own address, which the seat's view names.
  game.code = game.code || view.table?.code || null;
  saveSeat(game);
  if (game.code) go(`/t/${encodeURIComponent(game.code)}`);
  takeView(view);
  state.table = view.phase === "playing" ? [...view.trick] : [];
  state.lastSeq = state.handledSeq = view.last_event;
  await loadHistory();
  render();
  landFocus();
  connect();
  if (view.table) {
    // Seen here, so the others know this seat is at the table (the stream cannot say).
    every(PRESENCE_MS, () => {
      if (!state.pumping && !state.queue.length) refresh().catch(() => {});
    });
  }
  every(250, tickClock);
}

function connect() {
  disconnect();
  if (!window.EventSource || new URLSearchParams(location.search).has("poll")) {
    startPolling();
    return;
  }
  const source = state.me.eventSource(state.game.id, state.lastSeq);
  source.onmessage = (message) => enqueue(JSON.parse(message.data));
  // The game has fewer events than this page saw (a failover of its Redis lost the last
  // ones): show the game as it is, and follow it from there.
  source.addEventListener("reset", () => {
    if (state.source === source) refresh(true).catch(() => {});
  });
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

function startPolling(ms = 1000) {
  clearInterval(state.pollTimer);
  state.pollTimer = setInterval(catchUp, ms);
}

function disconnect() {
  state.source?.close();
  state.source = null;
  clearInterval(state.pollTimer);
}

/** Read the events missed (when polling, or when the view is ahead of the stream). */
async function catchUp() {
  const game = state.game;
  if (!game) return;
  try {
    const events = await state.me.events(game.id, state.lastSeq);
    if (state.game !== game) return;
    for (const event of events) enqueue(event);
  } catch (error) {
    if (state.game === game && error instanceof ApiError && error.status === 404) gameGone();
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
  // The game followed: another game (a rematch, a table joined) makes these events old.
  const game = state.game;
  try {
    let moved = false;
    while (state.queue.length) {
      const event = state.queue.shift();
      await show(event);
      moved = state.game !== game;
      if (moved) break;
      state.handledSeq = event.seq;
    }
    if (!moved) await refresh();
  } catch (error) {
    say(errorText(error), "error");
  } finally {
    state.pumping = false;
  }
  if (state.queue.length) pump();
}

/** Show one event: the table moves, then the page waits a moment so people see it. */
async function show(event) {
  const view = state.view;
  if (isPoch(view) && state.poch && (await state.poch.showEvent(event, pochContext))) return;
  switch (event.type) {
    case "hand_dealt":
      state.table = [];
      state.trickWinner = null;
      state.hint = null;
      await refresh(true);
      animateDeal();
      break;
    case "bid":
      if (event.by === "stand_in") say(standInPlayed(event.seat));
      view.bids[event.seat] = event.bid;
      announce(moveSaid("said.bid", event.seat, { n: event.bid }));
      render();
      flash(`.seat[data-seat="${event.seat}"] .bid`);
      await sleep(BID_MS);
      break;
    case "card_played": {
      if (event.by === "stand_in") say(standInPlayed(event.seat));
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
      announce(moveSaid("said.card", event.seat, { card: theCard(event.card) }));
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
      announce(moveSaid("said.trick", event.seat));
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
        t("event.scored", {
          points: event.points.map((p, s) => `${nameOf(s)} ${p >= 0 ? "+" : ""}${p}`).join(", "),
        }),
      );
      await sleep(TRICK_HOLD_MS);
      break;
    case "game_over":
      disconnect();
      say("");
      await refresh(true);
      // At a table, someone may ask for a rematch: a new stream from here brings its event
      // the moment it happens (the server ends a stream with game_over).
      if (state.view?.table && state.game) connect();
      break;
    case "seat_taken":
      if (event.seat !== state.game?.seat) say(t("event.seatTaken", { name: event.name }));
      break;
    case "seat_opened":
      // This page's seat opened again: the host removed its person, or they left it
      // themselves (in another tab, or elsewhere with the account's key).
      if (event.seat === state.game?.seat) {
        if (!event.removed) return seatLeft();
        if (!state.game?.hostToken) return removedByHost();
      }
      break;
    case "game_started":
      state.table = [];
      await refresh(true);
      say(t("event.started"));
      break;
    case "seat_away":
      say(event.seat === state.game?.seat ? t("event.youAway") : t("event.away", { name: nameOf(event.seat) }));
      break;
    case "seat_back":
      if (event.seat !== state.game?.seat) say(t("event.back", { name: nameOf(event.seat) }));
      break;
    case "seat_left":
      if (event.seat !== state.game?.seat) say(t("event.left", { name: nameOf(event.seat) }));
      break;
    case "rematch":
      if (view.table) view.table.rematch = event.game_id;
      render();
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
  const game = state.game;
  // The events seen when the view is asked for: events that come while it is on its way
  // are newer than the view, not a sign that events were lost.
  const seen = state.lastSeq;
  let view;
  try {
    view = await state.me.view(game.id);
  } catch (error) {
    if (state.game !== game) return;
    if (error instanceof ApiError && error.status === 404) return gameGone();
    // The seat's token opens nothing any more: the game's events say why.
    if (error instanceof ApiError && error.status === 401 && state.me.token) return seatRefused(game);
    throw error;
  }
  if (state.game !== game) return; // the page moved on to another game meanwhile
  if (view.last_event < seen) {
    // Events this page saw are gone (see `reset` in `connect`): start again from the game.
    state.queue = [];
    state.lastSeq = state.handledSeq = view.last_event;
    state.trickWinner = null;
    await loadHistory(view);
  }
  const caughtUp = view.last_event <= state.handledSeq;
  if (!caughtUp && !always) {
    if (view.last_event > state.lastSeq) await catchUp();
    return;
  }
  takeView(view);
  if (caughtUp && state.trickWinner === null) {
    state.table = view.phase === "playing" ? [...view.trick] : [];
  }
  if (view.phase === "finished") await loadHistory();
  render();
}

/** What the table shows beside `view` that the view does not hold. */
async function loadHistory(view = state.view) {
  // The Poch table shows its deals from the view (`deal_results`): no score sheet to read,
  // but its list of what happened is rebuilt from the latest events of the deal in play.
  if (isPoch(view)) {
    const game = state.game.id;
    await state.poch.recall((after) => state.me.events(game, after), view, pochContext);
    return;
  }
  state.history = await state.me.history(state.game.id);
}

/**
 * The seat's token opens nothing any more. Its person may have been removed by the host,
 * or left the seat themselves in another tab (whose `forgetSeat` may not have reached this
 * one yet) or elsewhere with the account's key: the first event after those shown here
 * that opened this seat again says which (the events are public: no token needed). Without
 * one (the events could not be read; the account's key was replaced in another browser),
 * the page says only that the seat is no longer this browser's.
 */
async function seatRefused(game) {
  if (removedFrom(game.id)) return removedByHost();
  let opened;
  try {
    const events = await new Api().events(game.id, state.handledSeq);
    opened = events.find((e) => e.type === "seat_opened" && e.seat === game.seat);
  } catch {
    opened = undefined;
  }
  if (state.game !== game) return;
  if (opened?.removed) return removedByHost();
  if (opened) return seatLeft();
  disconnect();
  forgetSeat(game.id);
  showSetup(t("event.seatLost"));
}

/**
 * The host removed this page's person from the table: back to the lobby, saying so. The
 * seat is kept as removed (seats.js), so that another tab that learns of it from this
 * one's storage says so too.
 */
function removedByHost() {
  disconnect();
  if (state.game) forgetSeat(state.game.id, true);
  forgetCurrent();
  showSetup(t("event.removed"));
}

/**
 * This page's person left the seat elsewhere (another tab, or with the account's key):
 * back to the lobby saying nothing, as the tab they left from went.
 */
function seatLeft() {
  disconnect();
  if (state.game) forgetSeat(state.game.id);
  showSetup();
}

function gameGone() {
  if (state.game) forgetSeat(state.game.id);
  showSetup(t("error.gone"));
}

// -- acting ----------------------------------------------------------------------------------

async function act(action) {
  if (state.acting) return;
  state.acting = true;
  state.hint = null;
  say("");
  render();
  try {
    if (isPoch(state.view)) {
      // The decision's events (and the bots' after it) are shown from the stream, on the
      // view held now; the view answered is read again once they have been shown.
      const answer = await state.me.decide(state.game.id, action, state.view.version);
      state.poch.afterDecision(state.view, answer);
      return;
    }
    const view = await state.me.act(state.game.id, action, state.view.version);
    if (view.version < state.view.version) {
      // The stream brought a newer view while the answer was on its way: keep that.
    } else if (view.hand_number === state.view.hand_number && view.phase !== "finished") {
      takeView(view);
    } else {
      // The move ended the hand or the game: the trick and the scores are still to be
      // shown from the events; until then this seat waits.
      state.view.last_event = view.last_event;
      state.view.you.legal = [];
      state.view.you.refused = [];
    }
  } catch (error) {
    say(errorText(error), "error");
    if (error instanceof ApiError && ["stale_version", "conflict", "not_your_turn"].includes(error.error)) {
      await refresh(true);
    }
  } finally {
    state.acting = false;
    render();
  }
}

async function askHint() {
  // One hint asked at a time: the button is drawn again (enabled) by any event meanwhile.
  if (state.hinting) return;
  state.hinting = true;
  try {
    await hintOnce();
  } finally {
    state.hinting = false;
  }
}

async function hintOnce() {
  const version = state.view.version;
  say(t("hint.asking"));
  document.querySelector("[data-action=hint]")?.setAttribute("disabled", "");
  try {
    const job = await state.me.hint(state.game.id);
    const { action, analysis } = job.result;
    if (state.view.version !== version) return;
    state.hint = { version, action, analysis: analysis || [] };
    const best = state.hint.analysis.find((a) => a.action === action);
    if (isPoch(state.view)) {
      const poch = state.poch;
      say(() => t("hint.says", { what: poch.actionText(action) }), "hint");
      render();
      return;
    }
    say(hintSentence(action, best, state.view.you.legal.length === 1), "hint");
  } catch (error) {
    say(t("hint.none", { message: errorText(error) }), "error");
  }
  render();
}

/**
 * What the hint says, in the page's language when called: the `action` suggested and why
 * (`best`, its entry of the analysis), or that it is the `only` move the rules allow.
 */
function hintSentence(action, best, only) {
  return () => {
    let why = "";
    // With one move allowed there was nothing to weigh: "100% of its time there" would
    // read as a strong opinion.
    if (only) why = " " + t("hint.onlyMove");
    else if (best)
      why =
        " " +
        t("hint.why", {
          share: percent(best.share),
          points: expected(best.mean_score),
        });
    const what = typeof action === "number" ? t("hint.bid", { n: action }) : t("hint.play", { card: theCard(action) });
    return t("hint.says", { what }) + why;
  };
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

// Where the keyboard's focus goes when the control that had it is drawn no more (the card
// was played, the seat was taken): a line of text, never a control, which one press of
// Enter would use unseen (a bid, a card, a bot seated, the game started).
const FOCUS_FALLBACK = ["#turn-line"];
const WAITING_FOCUS = ["#waiting-title"];
const LOBBY_FOCUS = ["#lobby-title"];
// Where the focus lands when a game is opened (a reload, a link, a deal): on the first thing
// the player can act on (a legal bid, a playable card, Poch's call, start card or suit),
// else on what the page says to them (a notice, whose turn it is, the waiting room).
const LANDING = [
  "#game .bid-btn.legal:not([disabled])",
  "#game .card-btn.playable",
  "#game [data-bet]",
  "#game [data-suit]",
  "#game #notice:not(:empty)",
  ...FOCUS_FALLBACK,
  ...WAITING_FOCUS,
];

/**
 * Put the focus on the screen's first landing (LANDING) when nothing has it (<body>: the
 * document is new, or the control pressed was drawn away); once per game opened, so that
 * no later update takes the focus from where the person moved it.
 */
function landFocus() {
  const now = document.activeElement;
  if (now && now !== document.body) return;
  for (const selector of LANDING) {
    const element = app.querySelector(selector);
    if (!element) continue;
    element.focus({ preventScroll: true });
    if (document.activeElement === element) return;
  }
}

function render() {
  const view = state.view;
  if (!view) return;
  if (view.phase === "waiting") {
    redraw(app, waitingHtml(view, {
      me: state.game?.seat,
      host: Boolean(state.game?.hostToken),
      levels: levelsOf(view.game).length ? levelsOf(view.game) : ["medium"],
      level: state.startLevel ?? view.table?.stand_in_level ?? "medium",
      notice: state.notice,
      noticeKind: state.noticeKind,
    }), WAITING_FOCUS);
    return;
  }
  if (isPoch(view) && state.poch) {
    redraw(app, state.poch.tableHtml(view, pochContext), FOCUS_FALLBACK);
    showHandOnTurn();
    sayTurn();
    return;
  }
  const mine = myTurn();
  const you = view.you;
  const hint = state.hint && state.hint.version === view.version ? state.hint : null;
  const rank = [...view.players.keys()].sort((a, b) => view.scores[b] - view.scores[a]);
  const trumpSuit = suitOf(view.trump.card);
  const holder =
    view.trump.holder === null
      ? t("trump.turnedUp")
      : view.trump.holder === you?.seat
        ? t("trump.heldByYou")
        : t("trump.heldBy", { name: escapeHtml(nameOf(view.trump.holder)) });
  const seats = view.players
    .map((player, seat) => {
      const classes = seatClasses(view, seat, {
        over: view.phase === "finished",
        winner: state.trickWinner,
      });
      const role =
        seat === view.dealer
          ? t("role.dealer")
          : seat === view.mano && view.phase !== "finished"
            ? t("role.mano")
            : "";
      const bid = view.bids[seat];
      const backs =
        you && seat === you.seat
          ? ""
          : `<div class="backs" role="img" aria-label="${tn("seat.cards", view.hand_sizes[seat])}">${"<i></i>".repeat(view.hand_sizes[seat])}</div>`;
      const badges = (role ? `<span class="badge">${role}</span>` : "") + seatBadges(player);
      const clock = clockHtml(view, seat);
      return `<div class="${classes.join(" ")}" data-seat="${seat}">
        <div class="who">${view.table ? presenceDot(player, seat === you?.seat) : ""}<span class="name">${escapeHtml(nameOf(seat))}</span>
          <span class="score" title="${t("seat.total")}">${view.scores[seat]}</span></div>
        <div class="roles">${player.bot ? `<span class="level">${escapeHtml(levelName(player.bot))}</span>` : ""}
          ${badges}${clock}</div>
        <div class="stats"><span class="bid" data-label="${t("seat.bidShort")}" title="${t("seat.bid")}">${bid === null ? "–" : bid}</span>
          <span class="won" data-label="${t("seat.wonShort")}" title="${t("seat.won")}">${view.tricks_won[seat]}</span>${backs}</div></div>`;
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
      const mark = seat !== taking ? "" : state.trickWinner === null ? t("trick.winning") : t("trick.wins");
      return `<div class="played ${mark ? "winning" : ""}" data-seat="${seat}" data-card="${card}">
        <div class="card">${cardSvg(card)}</div><span class="by">${escapeHtml(nameOf(seat))}</span>
        ${mark ? `<span class="taking">${mark}</span>` : ""}</div>`;
    })
    .join("");
  // Who won stays on the table once the final panel is closed; not before the page has
  // shown every move (the last trick taken).
  const winnersNote =
    view.phase === "finished" && view.last_event <= state.handledSeq ? finalTitle(view, view.winners, nameOf) : "";
  const tableNote =
    view.phase === "bidding"
      ? t("table.bidding")
      : view.phase === "finished"
        ? winnersNote
        : state.table.length
          ? ""
          : view.turn === you?.seat
            ? t("table.youLead")
            : t("table.leads", { name: escapeHtml(nameOf(view.turn)) });

  const biddingTurn = you && view.phase === "bidding" && view.turn === you.seat;
  const actions = biddingTurn ? bidsHtml(view, { mine, hint }) : "";
  const hand = you ? handHtml(view, { mine, hint }) : "";
  const reasons = mine ? reasonsHtml(view) : "";

  const caughtUp = view.last_event <= state.handledSeq;
  let status;
  if (!caughtUp) status = "…";
  else if (view.phase === "finished") status = t("status.over");
  else if (mine) status = view.phase === "bidding" ? t("status.yourBid") : t("status.yourCard");
  else if (state.acting) status = "…";
  else
    status = t(view.phase === "bidding" ? "status.bidding" : "status.playing", {
      name: escapeHtml(nameOf(view.turn)),
    });

  const finished = view.phase === "finished" && caughtUp;
  const html = `
  <section id="game" class="game" data-phase="${view.phase}" data-my-turn="${mine ? "yes" : "no"}"
      data-version="${view.version}">
    <div class="main">
      ${awayBarHtml(view)}
      <div class="status panel">
        <div class="hand-info"><strong>${handTitle(view)}</strong>
          <span>${tn("hand.cards", view.cards_per_player)}</span>
          <span class="turn-line" id="turn-line" tabindex="-1">${status}</span></div>
        <div class="trump" title="${t("trump.title", { suit: SUIT_NAMES[trumpSuit] })}"><div class="card trump-card">${cardSvg(view.trump.card)}</div>
          <div><span class="label">${t("trump.label")}</span><strong>${SUIT_NAMES[trumpSuit]}</strong>
            <span class="trump-name">${cardName(view.trump.card)}</span><small>${holder}</small></div></div>
      </div>
      <div class="seats" role="group" aria-label="${t("seats.label")}">${seats}</div>
      <div class="table" id="table">${table || `<p class="table-note">${tableNote}</p>`}</div>
      <p id="notice" class="notice ${state.noticeKind}" tabindex="-1">${escapeHtml(state.notice)}</p>
      <div class="actions">${actions}
        ${mine ? `<button class="hint-btn" data-action="hint" ${state.hinting ? "disabled" : ""}>${t("hint.button")}</button>` : ""}</div>
      <div class="hand" role="group" aria-label="${t("hand.yours")}">${hand}</div>
      ${reasons ? `<ul class="reasons">${reasons}</ul>` : ""}
      ${lastTrickShown(view) ? lastTrickHtml(view) : ""}
    </div>
    <aside class="side">
      ${scoreSheet(view)}
      ${gameToolsHtml(view, finished)}
    </aside>
    ${finished ? gameOverHtml(view, rank) : ""}
  </section>`;
  redraw(app, html, FOCUS_FALLBACK);
  sayTurn();
}

/** Say in the log, once a turn, that the turn is this seat's (what the turn's line says). */
function sayTurn() {
  if (!myTurn() || state.turnSaid === state.view.version) return;
  state.turnSaid = state.view.version;
  announce(document.getElementById("turn-line")?.textContent);
}

/**
 * When the turn comes to this seat and its hand is below the fold (a phone, where the board
 * and the seats fill the screen), bring the hand and the calls above it into view, once per
 * turn: the person should not have to look for what to do.
 */
function showHandOnTurn() {
  const turn = myTurn() ? state.view.version : null;
  if (turn === null || state.turnShown === turn) return;
  state.turnShown = turn;
  const hand = document.querySelector("#game .hand");
  if (hand && hand.getBoundingClientRect().bottom > window.innerHeight) {
    hand.scrollIntoView({ block: "end", behavior: reducedMotion ? "auto" : "smooth" });
  }
}

/** A seat's badges for its presence at a table: left, away, played by the stand-in. */
function seatBadges(player) {
  return [
    player.left
      ? `<span class="badge left">${t("badge.left")}</span>`
      : player.away
        ? `<span class="badge away">${t("badge.away")}</span>`
        : "",
    player.stand_in && !player.bot
      ? `<span class="badge stand-in" title="${escapeHtml(levelName(player.stand_in))}">${t("badge.standIn")}</span>`
      : "",
  ].join("");
}

/** The clock of `seat`, if it is the seat whose turn the view's clock counts. */
function clockHtml(view, seat) {
  const clockOn =
    state.clock && state.clock.turn === view.turn && state.clock.version === view.version && !isOver(view);
  // Drawn as the tick leaves it (`tickClock`): a redraw changes nothing of a clock.
  const low = clockOn && state.clock.until - Date.now() <= LOW_CLOCK_MS ? " low" : "";
  return clockOn && seat === view.turn
    ? `<span class="clock${low}" data-until="${state.clock.until}" title="${t("clock.title")}">${clockText(state.clock.until)}</span>`
    : "";
}

/** The bar that asks a seat marked away to come back. */
function awayBarHtml(view) {
  const me = view.you ? view.players[view.you.seat] : null;
  return me && me.away && !me.left && !isOver(view)
    ? `<div class="away-bar panel" role="alert"><span>${t("away.you")}</span>
          <button class="primary" data-action="back">${t("away.back")}</button></div>`
    : "";
}

/** Under the score sheet: leave (or a new game, once finished), the table's code, the id. */
function gameToolsHtml(view, finished) {
  const leaveLabel = finished ? t("game.new") : view.table ? t("game.leaveTable") : t("game.leave");
  return `<div class="game-tools"><button data-action="leave" class="quiet">${leaveLabel}</button>
        ${view.table?.code ? `<span class="table-code">${t("game.table", { code: escapeHtml(view.table.code) })}</span>` : ""}
        <span class="game-id">${t("game.id", { id: escapeHtml(view.id) })}</span></div>`;
}

function clockText(until) {
  return t("clock.seconds", { n: Math.max(0, Math.ceil((until - Date.now()) / 1000)) });
}

/** The clock on the seat whose turn it is counts down between renders. */
function tickClock() {
  for (const clock of document.querySelectorAll(".clock[data-until]")) {
    const until = Number(clock.dataset.until);
    clock.textContent = clockText(until);
    clock.classList.toggle("low", until - Date.now() <= LOW_CLOCK_MS);
  }
}

/** "Hand 3 of 28"; a tiebreak hand is none of the game's hands: "Tiebreak 1". */
function handTitle(view) {
  return view.tiebreak_hand
    ? t("hand.tiebreak", { n: view.tiebreak_hand })
    : t("hand.title", { n: view.hand_number, total: view.hands_total });
}

/**
 * Whether the trick taken last is shown under the hand: between two tricks of this hand only.
 * The view's `last_trick` outlives its hand, and the previous hand's, under another trump,
 * would read as a trick of this one (the terminal shows it as seldom).
 */
function lastTrickShown(view) {
  return (
    view.phase === "playing" &&
    view.last_trick.length > 0 &&
    !state.table.length &&
    view.tricks_won.some((won) => won > 0)
  );
}

function lastTrickHtml(view) {
  const cards = view.last_trick
    .map(({ seat, card }) => `<span class="mini-played" title="${escapeHtml(nameOf(seat))}">
      <span class="card micro">${cardSvg(card)}</span>${escapeHtml(nameOf(seat))}</span>`)
    .join("");
  return `<div class="last-trick"><span>${t("trick.last")}</span>${cards}</div>`;
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
  // Between a hand's score and the next deal the view is still at the hand scored, which
  // the sheet read then holds already: its row is shown once, as scored.
  const scored = hands.some((hand) => hand.hand_number === view.hand_number);
  if (view.phase !== "finished" && !scored) {
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
  // The star on a hand's number is explained once one is on the sheet.
  const tiebreaks = hands.some((hand) => hand.tiebreak) || Boolean(current && view.tiebreak_hand);
  return `<details class="sheet panel" ${state.sheetOpen ? "open" : ""}><summary data-focus="sheet">${t("sheet.title")}</summary>
    <div class="sheet-scroll"><table class="score-sheet">
      <thead><tr><th scope="col">${t("sheet.hand")}</th><th scope="col" title="${t("sheet.cardsTitle")}">${t("sheet.cards")}</th>
        <th scope="col">${t("sheet.trump")}</th>${head}</tr></thead>
      <tbody>${rows}${current}</tbody>
      <tfoot><tr><th scope="row" colspan="3">${t("sheet.total")}</th>${totals}</tr></tfoot>
    </table></div><p class="legend">${t("sheet.legend")}${tiebreaks ? ` · ${t("sheet.tiebreakLegend")}` : ""}</p></details>`;
}

/**
 * A card named in a sentence, with its article: "la sota de espadas" but "el as de oros" in
 * Spanish, where the sota alone of the ranks is feminine ("the ..." in English).
 */
function theCard(code) {
  const card = cardName(code);
  return rankOf(code) === 10 ? t("card.theSota", { card }) : t("card.the", { card });
}

function trumpIcon(card) {
  const suit = suitOf(card);
  return `<svg viewBox="-12 -12 24 24" class="suit-icon" role="img" aria-label="${SUIT_NAMES[suit]}">
    <title>${cardName(card)}</title>${symbol(suit, 0, 0, 0.95)}</svg>`;
}

function gameOverHtml(view, rank) {
  if (state.finalClosed) return "";
  return finalHtml(view, {
    winners: view.winners,
    rank,
    nameOf,
    score: (s) => view.scores[s],
    points: (s) => view.scores[s],
    closeLabel: t("final.close"),
  });
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

// -- the Poch table ----------------------------------------------------------------------------

// What the Poch table (poch.js) uses of this page: its state, its motion and the markup of
// a seat's presence and of the page's frame, shared with Pocha's table.
const pochContext = {
  state,
  reduced: reducedMotion,
  nameOf,
  say,
  render,
  sleep,
  fly,
  myTurn,
  readView: () => state.me.view(state.game.id),
  presence: (view, player, seat) => (view.table ? presenceDot(player, seat === view.you?.seat) : ""),
  levelBadge: (player) => (player.bot ? `<span class="level">${escapeHtml(levelName(player.bot))}</span>` : ""),
  badges: (view, player, seat) => seatBadges(player) + clockHtml(view, seat),
  awayBar: awayBarHtml,
  gameTools: gameToolsHtml,
};

// -- wiring ----------------------------------------------------------------------------------

app.addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (!target || !app.contains(target)) return;
  const action = target.dataset.action;
  const decision = isPoch(state.view) && state.poch ? state.poch.decisionOf(target) : null;
  if (decision !== null) {
    // An amount out of range is sent too: the server's answer says why it is refused.
    if (myTurn()) act(decision);
  } else if (target.dataset.bid !== undefined) {
    const bid = Number(target.dataset.bid);
    const why = refusals(state.view).bids[bid];
    // A bid refused without a reason given is sent: the server's answer says why. The
    // reason is the view's, read again in the new language after a switch (`languageChanged`).
    if (why) say(() => asSentence(refusals(state.view).bids[bid] ?? why), "error");
    else if (myTurn()) act(bid);
  } else if (target.dataset.card) {
    const card = target.dataset.card;
    const why = refusals(state.view).cards[card];
    const again = () => refusals(state.view).cards[card] ?? why;
    if (why) say(() => t("refused.card", { card: theCard(card), why: again() }), "error");
    else if (myTurn() && state.view.you.legal.includes(card)) act(card);
  } else if (action === "hint") {
    askHint();
  } else if (action === "new") {
    forgetCurrent();
    showSetup();
  } else if (action === "close") {
    state.finalClosed = true;
    render();
  } else if (action === "leave") {
    leave();
  } else if (action === "back") {
    comeBack(target);
  } else if (action === "rematch") {
    rematch(target);
  } else if (action === "start") {
    hostStart(target);
  } else if (action === "seat-bot") {
    hostSeatBot(target, Number(target.dataset.seat));
  } else if (action === "seat-remove") {
    hostRemove(target, Number(target.dataset.seat));
  } else if (action === "copy") {
    copyLink();
  }
});

app.addEventListener("change", (event) => {
  if (event.target.id === "start-level") state.startLevel = event.target.value;
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
  const view = state.view;
  if (view?.table) {
    // At a table: the seat opens again (waiting) or goes to the stand-in (in play).
    if (!isOver(view)) {
      const ask = view.phase === "waiting" ? "leave.confirmWaiting" : "leave.confirmPlaying";
      if (!confirm(t(ask))) return;
      // Follow the game no more: the token stops opening the seat once it is left.
      leaveScreen();
      const me = state.me;
      state.game = null;
      let message = "";
      try {
        await me.leaveSeat(game.id, game.seat);
      } catch (error) {
        if (!(error instanceof ApiError)) message = errorText(error);
      }
      forgetSeat(game.id);
      showSetup(message);
      return;
    } else {
      forgetCurrent();
    }
    showSetup();
    return;
  }
  if (!isOver(view) && !confirm(t("leave.confirmSolo"))) return;
  forgetCurrent();
  disconnect();
  if (game && !isOver(view)) {
    // Only the host token may delete; a failure leaves the game to expire by itself.
    await new Api(game.hostToken).remove(game.id).catch(() => {});
    // Forgotten once it is gone: the other tabs ask the server whether it was left.
    forgetSeat(game.id);
  }
  showSetup();
}

async function comeBack(button) {
  // One request however often the button is pressed: a second would be refused (the seat is
  // back already) and its refusal would replace "back.done".
  if (state.comingBack) return;
  state.comingBack = true;
  button.disabled = true;
  try {
    takeView(await state.me.comeBack(state.game.id, state.game.seat));
    say(t("back.done"));
  } catch (error) {
    say(errorText(error), "error");
  } finally {
    state.comingBack = false;
  }
  render();
}

/** Take this seat at the rematch (making it, for the first to ask), then go to its table. */
async function rematch(button) {
  button.disabled = true;
  try {
    const taken = await state.me.rematch(state.game.id);
    const game = {
      id: taken.game_id,
      token: taken.token,
      seat: taken.seat,
      hostToken: taken.host_token ?? null,
      code: taken.table_code,
    };
    saveSeat(game);
    say("");
    await startGame(game);
  } catch (error) {
    button.disabled = false;
    say(errorText(error), "error");
  }
}

async function hostStart(button) {
  button.disabled = true;
  const level = document.getElementById("start-level")?.value || "medium";
  try {
    await new Api(state.game.hostToken).start(state.game.id, level);
    // The stream brings game_started; read the view now anyway.
    await refresh(true);
  } catch (error) {
    button.disabled = false;
    say(errorText(error), "error");
  }
}

async function hostSeatBot(button, seat) {
  button.disabled = true;
  const level = document.getElementById("start-level")?.value || "medium";
  try {
    await new Api(state.game.hostToken).seatBot(state.game.id, seat, level);
    await refresh(true);
  } catch (error) {
    button.disabled = false;
    say(errorText(error), "error");
  }
}

async function hostRemove(button, seat) {
  button.disabled = true;
  try {
    await new Api(state.game.hostToken).removeSeat(state.game.id, seat);
    await refresh(true);
  } catch (error) {
    button.disabled = false;
    say(errorText(error), "error");
  }
}

async function copyLink() {
  const field = document.getElementById("table-link");
  if (!field) return;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    say(t("waiting.copied"));
  } catch {
    // No clipboard (an insecure page, or refused): the link is selected to copy by hand.
    say(t("waiting.copyByHand"));
  }
}

/**
 * The game shown, in the language just picked: drawn again at once, the notice line said
 * again in it (`sayAgain`); then the view read again, as its refusals' sentences are the
 * server's, in the language they were read in, and the notice said again with them. Poch's
 * list of what happened, sentences drawn as its events came, is drawn again from them.
 */
async function languageChanged() {
  Api.language = language();
  sayAgain();
  render();
  if (!state.game || state.pumping || state.queue.length) return; // the next view is in it
  try {
    await refresh();
    if (isPoch(state.view) && !state.pumping && !state.queue.length) await loadHistory();
  } catch {
    // The view stays as it was read: the next event's reads it again.
    return;
  }
  if (!state.view) return; // the game was left meanwhile
  sayAgain();
  render();
}

async function boot() {
  Api.language = language();
  useAccount();
  await loadCatalogue();
  document.documentElement.lang = language();
  // A game shown is drawn again in the language picked, where it is (a reload would lose
  // the notice line: the hint, a refusal); any other screen is reloaded in it.
  languageMenu(() => (state.view ? languageChanged() : location.reload()));
  // What another tab of this browser changes, heard by the modules that keep it (account.js,
  // i18n.js, seats.js, and this one for the name): the key sent and the account shown; the
  // language (a table drawn again in it, the lobby or a table's seats anew); the game
  // shown, when it was left there (or its person removed); the name the forms offer.
  followAccount(redrawAccount);
  followLanguage(() => {
    Api.language = language();
    if (state.view) languageChanged();
    else if (!state.game && !document.getElementById("account-key")) state.screen?.();
  });
  followSeats(leftElsewhere);
  onStorageChange([NAME_KEY], followName);
  // A tab brought back to the front reads its view at once (a browser slows the timers of
  // a tab in the background), so the table sees this seat and the page is current.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && state.game && !state.pumping && !state.queue.length) {
      refresh().catch(() => {});
    }
  });
  // Back and forward between the lobby and a table's link: open what the address says.
  window.addEventListener("popstate", () => location.reload());
  const link = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (link) {
    await loadRulebook();
    await openTable(decodeURIComponent(link[1]));
    return;
  }
  const played = location.pathname.match(/^\/play\/([^/]+)\/?$/);
  if (played && (await loadRulebook())) {
    await openGame(decodeURIComponent(played[1]));
    return;
  }
  const saved = currentSeat();
  if (saved) {
    try {
      await loadRulebook();
      await startGame(saved);
      return;
    } catch (error) {
      forgetCurrent();
      if (!(error instanceof ApiError)) console.error(error);
    }
  }
  showSetup();
}

boot();
