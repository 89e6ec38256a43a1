// A finished game's replay (/replay/GAME): its record (GET /api/v1/games/{id}/record,
// docs/records.md, given only once the game is over, so every hand may be shown) stepped
// through forwards and backwards (the buttons, or the arrow keys). Pocha: each deal opens
// with every hand as dealt, the trump and the bids; each step plays one trick, the cards
// left in each hand, the trick's cards and its winner; the deal's last step adds its points
// and the running scores. Poch: each deal opens with the hands, trumps and the plates taken;
// then the betting, the showdown, the shedding a run at a time, and the payout.
// /replay alone opens a file instead, whatever `pocha replay` reads: a game record saved from
// the API, or a match's records (GET /api/v1/matches/{id}/records: JSON lines, a game a line,
// or `?format=json`'s array) or an arena's (`pocha arena --records`, `pocha arena-poch
// --records`: a game a line, numbered by it), whose games are listed to choose one (a hundred
// to a page: an arena's file may hold 100,000), each told hand by hand as far as its record
// keeps it (bids, tricks and points; Poch's chips), and back to the list at its page.
// A file may hold anything, so its values are put into the page as text, only cards are
// drawn, and a file that is none of these is refused in a sentence naming its bad line.
// Beside each decision: what the bot that made it thought as it played, where the record
// keeps it (`advice`), and a level's advice asked for on the page (POST /api/v1/analyses):
// what that level would have done from that seat. A language picked, in the header or in
// another tab, draws the page again in it at the same position: the record stays in memory,
// and the keyboard's focus stays on the control that had it (focus.js, `redraw`).

import { Api, ApiError, errorText } from "./api.js";
import { cardSvg } from "./cards.js";
import { redraw } from "./focus.js";
import { escapeHtml } from "./html.js";
import { language, levelName, named, t, tn } from "./i18n.js";
import { cardSvg as frenchCardSvg, RANKS as FRENCH_RANKS, SUITS as FRENCH_SUITS } from "./pochcards.js";
import { startSheet } from "./sheet.js";
import { expected, percent } from "./thinking.js";

const app = document.getElementById("app");
// Draws what the page shows again, in the language picked now (in the header or another
// tab): the record shown is kept in memory, as one opened from a file cannot be read again.
let redrawPage = null;
// What the replay shown does on its buttons and the arrow keys (`replay` sets it). The
// page's listeners are added once, here: a redraw keeps the focused button itself, and a
// listener added to it at each drawing would move it once more for every language picked.
let controls = null;
// Where the focus goes when the control that had it is not drawn again (a step button at
// either end is disabled, the file's field is gone once its record is shown): the page's
// other controls.
const FOCUS_FALLBACK = ["#replay-next", "#replay-prev", "#replay-level", "#replay-file"];
// The games of the file shown as a list (`gamesList`), which its buttons replay and turn the
// pages of.
let listed = [];
/** How long the page waits for an analysis (seconds): the service thinks 60 s at most. */
const ANALYSIS_SECONDS = 180;

// The cards of each deck: only these are drawn, as a drawing puts the code's rank into its
// markup and a record opened from a file may hold any text where a card should be.
const SPANISH_CARD = /^[OCEB]([1-7]|1[0-2])$/;
const FRENCH_CARDS = new Set(FRENCH_SUITS.flatMap((suit) => FRENCH_RANKS.map((rank) => suit + rank)));

function isCard(code, french) {
  return typeof code === "string" && (french ? FRENCH_CARDS.has(code) : SPANISH_CARD.test(code));
}

function mini(code, extra = "", french = false) {
  if (!isCard(code, french)) return `<span class="${extra}" data-card="${escapeHtml(code)}">${escapeHtml(code)}</span>`;
  const svg = french ? frenchCardSvg(code) : cardSvg(code);
  return `<span class="mini-card ${extra}" data-card="${escapeHtml(code)}">${svg}</span>`;
}

function playerName(record, seat) {
  const player = record.players[seat];
  return player.level ? `${escapeHtml(player.name)} (${escapeHtml(levelName(player.level))})` : escapeHtml(player.name);
}

// -- the steps ---------------------------------------------------------------------------------

/** Pocha's positions: {deal, trick} with trick 0 the deal before its first card. */
function pochaSteps(record) {
  const steps = [];
  record.deals.forEach((deal, d) => {
    for (let k = 0; k <= deal.tricks.length; k++) steps.push({ deal: d, trick: k });
  });
  return steps;
}

/**
 * Poch's positions: {deal, part, from, to}: "dealt", "betting", "showdown", a run of the
 * shedding (its entries from..to, each run opened by a start or a choice), and "paid".
 */
function pochSteps(record) {
  const steps = [];
  record.deals.forEach((deal, d) => {
    steps.push({ deal: d, part: "dealt" }, { deal: d, part: "betting" }, { deal: d, part: "showdown" });
    let from = 0;
    deal.shedding.forEach((entry, i) => {
      if (i > from && entry.type !== "play") {
        steps.push({ deal: d, part: "shedding", from, to: i });
        from = i;
      }
    });
    if (deal.shedding.length) steps.push({ deal: d, part: "shedding", from, to: deal.shedding.length });
    steps.push({ deal: d, part: "paid" });
  });
  return steps;
}

// -- the advice: an analysis's decisions, keyed by where each was made -------------------------

/** The wire form of each decision of a record, in order, with where the page shows it. */
function decisionsOf(record) {
  const found = [];
  record.deals.forEach((deal, d) => {
    if (record.game === "pocha") {
      deal.bids.forEach((b) => found.push({ seat: b.seat, played: b.bid, where: `bids:${d}` }));
      deal.tricks.forEach((trick, k) =>
        trick.cards.forEach((c) => found.push({ seat: c.seat, played: c.card, where: `trick:${d}:${k + 1}` })),
      );
      return;
    }
    deal.betting.forEach((b) =>
      found.push({ seat: b.seat, played: b.call === "pass" || b.call === "hold" ? b.call : b.amount, where: `betting:${d}` }),
    );
    deal.shedding.forEach((entry, i) => {
      if (entry.type === "start") found.push({ seat: entry.seat, played: deal.shedding[i + 1].card, where: `shed:${d}:${i}` });
      else if (entry.type === "choose") found.push({ seat: entry.seat, played: entry.suit, where: `shed:${d}:${i}` });
    });
  });
  return found;
}

/** Where -> [decision with its advice], or null when the analysis does not fit the record. */
function adviceByPlace(record, weighed) {
  const mine = decisionsOf(record);
  if (mine.length !== weighed.length) return null;
  const places = new Map();
  for (let i = 0; i < mine.length; i++) {
    const [made, seen] = [mine[i], weighed[i]];
    if (made.seat !== seen.seat || String(made.played) !== String(seen.played)) return null;
    if (!places.has(made.where)) places.set(made.where, []);
    places.get(made.where).push(seen);
  }
  return places;
}

const isNumber = (x) => typeof x === "number" && Number.isFinite(x);
const isAction = (x) => typeof x === "string" || Number.isInteger(x);

/** Whether an advice entry has the shape the service writes (a record may come from a file). */
function wellFormed(entry) {
  return (
    entry !== null &&
    typeof entry === "object" &&
    Number.isInteger(entry.number) &&
    Number.isInteger(entry.seat) &&
    typeof entry.level === "string" &&
    isAction(entry.action) &&
    (entry.score === null || entry.score === undefined || isNumber(entry.score)) &&
    Array.isArray(entry.options) &&
    entry.options.every(
      (o) => o !== null && typeof o === "object" && isAction(o.action) && isNumber(o.share) && (o.score === null || o.score === undefined || isNumber(o.score)),
    )
  );
}

/** Where -> [the record's own advice], or null when the record keeps none that fits it. */
function recordedByPlace(record) {
  if (!Array.isArray(record.advice) || !record.advice.length) return null;
  const mine = decisionsOf(record);
  const places = new Map();
  for (const entry of record.advice) {
    if (!wellFormed(entry)) continue;
    const made = mine[entry.number - 1];
    if (!made || made.seat !== entry.seat || String(made.played) !== String(entry.action)) continue;
    if (!places.has(made.where)) places.set(made.where, []);
    places.get(made.where).push(entry);
  }
  return places.size ? places : null;
}

function actionHtml(a, french) {
  if (a === "pass" || a === "hold") return named("poch.call", a);
  return typeof a === "string" && a.length > 1 ? mini(a, "", french) : escapeHtml(String(a));
}

/** The bots' own advice at these places: the action chosen, its expected score, what else it weighed. */
function recordedHtml(record, recorded, places, french) {
  if (!recorded) return "";
  const shown = places.flatMap((place) => recorded.get(place) || []);
  if (!shown.length) return "";
  const items = shown
    .map((d) => {
      const others = d.options
        .filter((o) => String(o.action) !== String(d.action))
        .map((o) => `${actionHtml(o.action, french)} ${percent(o.share)}% ${expected(o.score)}`)
        .join(", ");
      const weighed = others ? `; ${t("replay.recorded.weighed")} ${others}` : "";
      // A person's seat was played by the table's stand-in.
      const who = record.players[d.seat]?.level
        ? `${playerName(record, d.seat)} ${t("replay.recorded.chose")}`
        : `${playerName(record, d.seat)}: ${t("replay.recorded.standIn", { level: escapeHtml(levelName(d.level)) })}`;
      return `<li data-seat="${d.seat}" data-number="${d.number}">${who} ${actionHtml(d.action, french)},
        ${t("replay.recorded.expected")} ${expected(d.score)}${weighed}</li>`;
    })
    .join("");
  return `<ul id="replay-recorded" class="replay-advice replay-recorded">${items}</ul>`;
}

function adviceHtml(record, advice, places, french) {
  if (!advice) return "";
  const shown = places.flatMap((place) => advice.byPlace.get(place) || []);
  if (!shown.length) return "";
  const action = (a) => actionHtml(a, french);
  const items = shown
    .map(
      (d) => `<li data-seat="${d.seat}" class="${d.agrees ? "agrees" : "differs"}">${playerName(record, d.seat)}:
        ${action(d.played)} ${expected(d.played_score)} ·
        ${t("replay.advised", { level: escapeHtml(levelName(advice.level)) })} ${action(d.advised)} ${expected(d.advised_score)}
        ${d.agrees ? "✓" : ""}</li>`,
    )
    .join("");
  return `<ul id="replay-advice" class="replay-advice">${items}</ul>`;
}

// -- a position --------------------------------------------------------------------------------

function where(step, index, total, record) {
  return `<p class="replay-where" id="replay-step" data-step="${index}" data-deal="${step.deal + 1}"
      data-trick="${step.trick ?? ""}" data-part="${step.part ?? ""}">
      ${t("replay.where", { deal: step.deal + 1, deals: record.deals.length, step: index + 1, steps: total })}</p>`;
}

function pochaPositionHtml(record, step, index, total, advice, recorded) {
  const deal = record.deals[step.deal];
  const played = deal.tricks.slice(0, step.trick);
  const gone = new Set(played.flatMap((trick) => trick.cards.map((c) => c.card)));
  const won = record.players.map((_, s) => played.filter((trick) => trick.winner === s).length);
  const bidOf = new Map(deal.bids.map((b) => [b.seat, b]));
  const trick = step.trick > 0 ? deal.tricks[step.trick - 1] : null;
  const last = step.trick === deal.tricks.length;
  const seats = record.players
    .map((_, s) => {
      const bid = bidOf.get(s);
      const hand = deal.hands[s].filter((c) => !gone.has(c)).map((c) => mini(c)).join("");
      return `<tr data-seat="${s}"><th>${playerName(record, s)}${s === deal.dealer ? ` <small>(${t("replay.dealer")})</small>` : ""}</th>
        <td class="num">${bid ? escapeHtml(bid.bid) : "—"}${bid?.stand_in ? "*" : ""}</td><td class="num">${won[s]}</td>
        <td class="num">${last ? escapeHtml(deal.points[s]) : ""}</td><td class="num">${last ? escapeHtml(deal.scores[s]) : ""}</td></tr>
        <tr class="hand-row" data-seat="${s}"><td colspan="5" class="replay-hand" aria-label="${t("replay.hand")}">${hand}</td></tr>`;
    })
    .join("");
  const trickHtml = trick
    ? `<p id="replay-trick">${t("replay.trick", { n: step.trick, of: deal.tricks.length })}:
        ${trick.cards.map((c) => `${mini(c.card, c.seat === trick.winner ? "winner" : "")}`).join("")}
        ${t("replay.wonBy", { name: playerName(record, trick.winner) })}</p>`
    : `<p id="replay-trick">${t("replay.dealt")}</p>`;
  const places = step.trick === 0 ? [`bids:${step.deal}`] : [`trick:${step.deal}:${step.trick}`];
  return `${where(step, index, total, record)}
    <p>${t("replay.trump")}: ${mini(deal.trump.card)}</p>
    ${trickHtml}
    ${recordedHtml(record, recorded, places, false)}
    ${adviceHtml(record, advice, places, false)}
    <div class="table-scroll"><table class="replay"><thead><tr><th></th><th>${t("replay.bid")}</th>
      <th>${t("replay.won")}</th><th>${t("replay.points")}</th><th>${t("replay.scores")}</th></tr></thead>
      <tbody>${seats}</tbody></table></div>`;
}

function pochPartHtml(record, deal, step) {
  const name = (s) => playerName(record, s);
  if (step.part === "dealt") {
    const plates = deal.collected.length
      ? deal.collected
          .map((c) => `${name(c.seat)}: ${escapeHtml(named("poch.plate", c.plate))} ${c.cards.map((x) => mini(x, "", true)).join("")} +${escapeHtml(c.chips)}`)
          .join(" · ")
      : t("replay.poch.noPlates");
    return `<p id="replay-part">${t("replay.poch.dealt", { ante: escapeHtml(deal.ante) })}</p><p>${plates}</p>`;
  }
  if (step.part === "betting") {
    const calls = deal.betting
      .map((b) => `${name(b.seat)}: ${escapeHtml(named("poch.call", b.call))}${b.amount ? ` ${escapeHtml(b.amount)}` : ""}${b.stand_in ? "*" : ""}`)
      .join(" · ");
    return `<p id="replay-part">${t("replay.poch.betting")}</p><p>${calls || "—"}</p>`;
  }
  if (step.part === "showdown") {
    const showdown = deal.showdown;
    if (!showdown) return `<p id="replay-part">${t("replay.poch.noShowdown")}</p>`;
    const sets = Object.entries(showdown.sets)
      .map(([s, cards]) => `${name(Number(s))}: ${cards.map((x) => mini(x, "", true)).join("")}`)
      .join(" · ");
    const pot = showdown.pot
      ? t("replay.poch.pot", { name: name(showdown.pot.seat), pot: escapeHtml(showdown.pot.pot), pocher: escapeHtml(showdown.pot.pocher) })
      : "";
    const bluff = showdown.bluff ? t("replay.poch.bluff", { name: name(showdown.bluff.seat), paid: escapeHtml(showdown.bluff.paid) }) : "";
    return `<p id="replay-part">${t("replay.poch.showdown")}</p><p>${sets}</p><p>${pot} ${bluff}</p>`;
  }
  if (step.part === "shedding") {
    const entries = deal.shedding
      .slice(step.from, step.to)
      .map((e) => {
        if (e.type === "start") return `${name(e.seat)}: ${escapeHtml(named("replay.poch.start", e.direction))}`;
        if (e.type === "choose") return `${name(e.seat)}: ${t("replay.poch.choose", { suit: escapeHtml(e.suit) })}`;
        return mini(e.card, "", true);
      })
      .join(" ");
    return `<p id="replay-part">${t("replay.poch.shedding")}</p><p class="replay-run">${entries}</p>`;
  }
  const paid = Object.entries(deal.paid)
    .map(([s, chips]) => `${name(Number(s))} → ${escapeHtml(chips)}`)
    .join(" · ");
  return `<p id="replay-part">${t("replay.poch.winner", { name: name(deal.winner) })}</p><p>${paid}</p>`;
}

function pochPositionHtml(record, steps, index, advice, recorded) {
  const step = steps[index];
  const deal = record.deals[step.deal];
  // The cards shed up to the end of this position leave the hands.
  const upTo = step.part === "paid" ? deal.shedding.length : step.part === "shedding" ? step.to : 0;
  const gone = new Set(deal.shedding.slice(0, upTo).filter((e) => e.type === "play").map((e) => e.card));
  const last = step.part === "paid";
  const seats = record.players
    .map((_, s) => {
      const hand = deal.hands[s].filter((c) => !gone.has(c)).map((c) => mini(c, "", true)).join("");
      return `<tr data-seat="${s}"><th>${playerName(record, s)}${s === deal.dealer ? ` <small>(${t("replay.dealer")})</small>` : ""}</th>
        <td class="num">${last ? escapeHtml(deal.chips[s]) : ""}</td></tr>
        <tr class="hand-row" data-seat="${s}"><td colspan="2" class="replay-hand" aria-label="${t("replay.hand")}">${hand}</td></tr>`;
    })
    .join("");
  const places =
    step.part === "betting"
      ? [`betting:${step.deal}`]
      : step.part === "shedding"
        ? deal.shedding.slice(step.from, step.to).map((_, i) => `shed:${step.deal}:${step.from + i}`)
        : [];
  return `${where(step, index, steps.length, record)}
    <p>${t("replay.poch.trumps")}: ${mini(deal.trump.card, "", true)}</p>
    ${pochPartHtml(record, deal, step)}
    ${recordedHtml(record, recorded, places, true)}
    ${adviceHtml(record, advice, places, true)}
    <div class="table-scroll"><table class="replay"><thead><tr><th></th><th>${t("replay.poch.chips")}</th></tr></thead>
      <tbody>${seats}</tbody></table></div>`;
}

// -- the page ----------------------------------------------------------------------------------

async function levelsOf(game) {
  const rulebook = await new Api().request("GET", "/api/v1/rules");
  const own = (rulebook.games || []).find((g) => g.game === game)?.bot_levels;
  return (own || (game === "pocha" ? rulebook.bot_levels : [])).map((level) => level.name);
}

/** `level`'s advice on `record`, asked for and waited for; `progress(state)` hears the job's state. */
async function analyse(record, level, progress) {
  const api = new Api();
  let job = await api.request("POST", "/api/v1/analyses", { record, level });
  const deadline = Date.now() + ANALYSIS_SECONDS * 1000;
  while (job.status !== "finished" && job.status !== "failed") {
    if (Date.now() > deadline) throw new ApiError(504, { error: "timeout", message: t("replay.analysisLate") });
    progress(job.status);
    job = await api.request("GET", `${job.url}?wait=10`);
  }
  if (job.status === "failed") throw new ApiError(500, { error: "job_failed", message: job.error });
  return job.result;
}

/**
 * Show `record`, at its first position. Everything the page shows of it (the position, the
 * level's advice asked for, what the asking says) is kept here, so that the page draws it
 * again whole in another language (`redrawPage`).
 */
async function replay(record) {
  const pocha = record.game === "pocha";
  const steps = pocha ? pochaSteps(record) : pochSteps(record);
  const levels = await levelsOf(record.game).catch(() => []);
  const recorded = recordedByPlace(record);
  let at = 0;
  let advice = null;
  let asking = false;
  // What the asking for advice says last, in the page's language when drawn.
  let said = () => "";
  const status = (text) => {
    said = text;
    const line = document.getElementById("replay-advice-status");
    if (line) line.textContent = said();
  };
  const draw = () => {
    const shown = document.getElementById("replay-position");
    try {
      shown.innerHTML = pocha
        ? pochaPositionHtml(record, steps[at], at, steps.length, advice, recorded)
        : pochPositionHtml(record, steps, at, advice, recorded);
    } catch {
      // A record from a file may lack what a later position needs: said there, in a sentence.
      shown.innerHTML = `<p class="notice error" id="replay-error" role="alert">${t("replay.file.incomplete")}</p>`;
    }
    document.getElementById("replay-prev").disabled = at === 0;
    document.getElementById("replay-next").disabled = at === steps.length - 1;
  };
  const move = (by) => {
    at = Math.max(0, Math.min(steps.length - 1, at + by));
    draw();
  };
  const weigh = async () => {
    const level = document.getElementById("replay-level").value;
    asking = true;
    document.getElementById("replay-weigh").disabled = true;
    try {
      const result = await analyse(record, level, (job) => status(() => named("replay.analysis", job)));
      const byPlace = adviceByPlace(record, result.decisions);
      if (!byPlace) throw new ApiError(500, { error: "misfit", message: t("replay.analysisMisfit") });
      const agreed = result.seats.reduce((n, s) => n + s.agreed, 0);
      const made = result.seats.reduce((n, s) => n + s.decisions, 0);
      advice = { level: result.level, byPlace };
      status(() => t("replay.analysisDone", { level: levelName(result.level), agreed, made }));
      document.getElementById("replay").dataset.advice = result.level;
      draw();
    } catch (error) {
      const message = errorText(error);
      status(() => message);
    } finally {
      asking = false;
      document.getElementById("replay-weigh").disabled = false;
    }
  };
  const frame = () => {
    // The level chosen stays chosen when the page is drawn again.
    const chosen = document.getElementById("replay-level")?.value ?? "easy";
    const options = levels
      .map((l) => `<option value="${escapeHtml(l)}"${l === chosen ? " selected" : ""}>${levelName(l)}</option>`)
      .join("");
    const names = record.players.map((p, s) => playerName(record, s));
    const final = scoreLine(names, names.map((n, s) => record.scores[s]), (s) => record.winners.includes(s));
    const about = recorded ? `<p class="muted small" id="replay-recorded-about">${t("replay.recorded.about")}</p>` : "";
    redraw(app, `<section class="panel" id="replay" data-game="${escapeHtml(record.game)}"${recorded ? ' data-recorded="1"' : ""}${
      advice ? ` data-advice="${escapeHtml(advice.level)}"` : ""
    }>
    <h2>${t("replay.title")}</h2><p id="replay-final">${t("replay.final")}: ${final}</p>
    <p class="replay-buttons"><button type="button" id="replay-prev">${t("replay.previous")}</button>
      <button type="button" class="primary" id="replay-next">${pocha ? t("replay.next") : t("replay.nextStep")}</button>
      <small class="muted">${t("replay.keys")}</small></p>
    <p class="replay-ask"><label>${t("replay.weighBy")} <select id="replay-level">${options}</select></label>
      <button type="button" id="replay-weigh"${asking ? " disabled" : ""}>${t("replay.weigh")}</button>
      <span id="replay-advice-status" class="muted" role="status">${escapeHtml(said())}</span></p>
    <div id="replay-position"></div>
    ${about}
    <p class="muted small">${t("replay.standIn")}</p></section>`, FOCUS_FALLBACK);
    draw();
  };
  controls = { move, weigh };
  redrawPage = frame;
  frame();
}

// -- a file: a game record, or a match's records -----------------------------------------------

/** Why a file is refused: its sentence, said again in the page's language when drawn. */
class Refused extends Error {
  constructor(say) {
    super("refused");
    this.say = say;
  }
}

/**
 * Whether `record` is a match's record of one game (a line of GET /api/v1/matches/{id}/records,
 * as `pocha replay` reads it): its number in the match in `game`, its seats' bots in `seats`,
 * and no `format`.
 */
function isMatchGame(record) {
  return (
    record !== null &&
    typeof record === "object" &&
    !Array.isArray(record) &&
    !("format" in record) &&
    Number.isInteger(record.game) &&
    Array.isArray(record.seats)
  );
}

/**
 * Whether `record` is an arena's record of one game (a line of `pocha arena --records` or
 * `pocha arena-poch --records`, as `pocha replay` reads it): its seats' bots in `seats`, no
 * `format`, and in `game` the game's name (Poch's arena writes `poch`) or nothing, the results
 * telling it: Pocha's `hands`, or Poch's `chips`.
 */
function isArenaGame(record) {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return false;
  if ("format" in record || !Array.isArray(record.seats)) return false;
  if ("game" in record) return record.game === "pocha" || record.game === "poch";
  return "hands" in record || "chips" in record;
}

/**
 * Whether a match's or an arena's record of one game is of Poch: the game it names, or else
 * its chips won and no hands (`pocha replay`'s test).
 */
const isPochGame = (record) =>
  typeof record.game === "string" ? record.game === "poch" : "chips" in record && !("hands" in record);

/** The most seats a game has, in Pocha and in Poch (engine/pocha/rules.py, engine/poch/rules.py). */
const MOST_SEATS = 8;

/** Whether a match's or an arena's record of one game has every field the page draws, of its type. */
function wellFormedGame(record) {
  const seats = record.seats.length;
  const perSeat = (values) => Array.isArray(values) && values.length === seats;
  const isSeat = (s) => Number.isInteger(s) && s >= 0 && s < seats;
  // A longer list of seats is no match's game (and each seat is a row of every position).
  if (!seats || seats > MOST_SEATS) return false;
  if (isPochGame(record)) return perSeat(record.chips) && (record.winner === null || record.winner === undefined || isSeat(record.winner));
  return (
    Array.isArray(record.hands) &&
    record.hands.length > 0 &&
    record.hands.every((h) => h !== null && typeof h === "object" && perSeat(h.bids) && perSeat(h.tricks) && perSeat(h.points)) &&
    perSeat(record.scores) &&
    Array.isArray(record.winners) &&
    record.winners.every(isSeat)
  );
}

/**
 * The documents of a file's text, each with where it is (`line`, or `item` of an array):
 * one JSON document, the items of an array (a match's records as `?format=json` gives them),
 * or a document a line (JSON lines). `Refused` for text that is none of these.
 */
function documentsOf(text) {
  let whole;
  try {
    whole = JSON.parse(text);
  } catch {
    const found = [];
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].trim()) continue;
      try {
        found.push({ line: i + 1, value: JSON.parse(lines[i]) });
      } catch {
        // A file whose every line is broken is no JSON at all; one with good lines has a bad one.
        const good = lines.slice(i + 1).some((rest) => parses(rest));
        if (!found.length && !good) throw new Refused(() => t("replay.file.notJson"));
        throw new Refused(() => t("replay.file.badLine", { line: i + 1 }));
      }
    }
    if (!found.length) throw new Refused(() => t("replay.file.notJson"));
    return found;
  }
  if (Array.isArray(whole) && whole.length) return whole.map((value, i) => ({ item: i + 1, value }));
  return [{ line: null, value: whole }];
}

function parses(line) {
  if (!line.trim()) return false;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a file holds: `{record}`, one game record (format 1), or `{games}`, a match's or an
 * arena's records of their games, each `{record, line | item, match, arena}`: `match` counts
 * the matches in the file from 1, a game numbered no higher than the one before it opening
 * the next (a match's records are in game order); an arena's games (`arena` true) are
 * numbered by their line, or item, and have no match. `Refused` for anything else, naming the
 * line that is not one; a file of both a match's games and an arena's too, their numbers
 * being of two kinds.
 */
function readFile(text) {
  const found = documentsOf(text);
  const [first] = found;
  if (found.length === 1 && first.value?.format !== undefined && !isMatchGame(first.value)) {
    const record = first.value;
    if (record.format !== 1 || !Array.isArray(record.deals) || !Array.isArray(record.players)) {
      throw new Refused(() => t("replay.notARecord"));
    }
    return { record };
  }
  let match = 0;
  let before = null;
  let ofArena = null;
  const games = found.map(({ line, item, value }) => {
    const at = () => (line ? t("replay.file.line", { line }) : t("replay.file.item", { item }));
    const arena = isArenaGame(value);
    if (!arena && !isMatchGame(value)) {
      if (found.length === 1) throw new Refused(() => t("replay.notARecord"));
      throw new Refused(() => t("replay.file.notAGame", { where: at() }));
    }
    if (ofArena !== null && arena !== ofArena) throw new Refused(() => t("replay.file.mixed", { where: at() }));
    ofArena = arena;
    if (!wellFormedGame(value)) throw new Refused(() => t("replay.file.incompleteGame", { where: at() }));
    // Each hand's points are added up into the running scores: a text there would add up to NaN.
    if (!isPochGame(value) && !value.hands.every((h) => h.points.every(Number.isSafeInteger))) {
      throw new Refused(() => t("replay.file.points", { where: at() }));
    }
    // An arena's game is numbered by its line or item; the file's one document is on line 1.
    if (arena) return { record: value, line: item ? null : (line ?? 1), item, match: null, arena };
    if (before === null || value.game <= before) match += 1;
    before = value.game;
    return { record: value, line, item, match, arena };
  });
  return { games };
}

/** A match's seat as shown: its level's name, `account ID` for an outside bot's, else its label. */
function botName(label) {
  const text = String(label);
  if (text.startsWith("account:")) return t("replay.match.account", { id: escapeHtml(text.slice("account:".length)) });
  return escapeHtml(levelName(text));
}

/** Each seat's name in a match's game: its bot, with its seat where two seats have the same one. */
function seatNames(record) {
  const bots = record.seats.map(botName);
  const seated = new Map();
  for (const bot of bots) seated.set(bot, (seated.get(bot) ?? 0) + 1);
  return bots.map((bot, s) => (seated.get(bot) > 1 ? `${bot} #${s}` : bot));
}

/** Each seat's name and figure, the winners starred: a game's final line. */
const scoreLine = (names, figures, won) =>
  figures.map((v, s) => `${names[s]} ${escapeHtml(v)}${won(s) ? " ★" : ""}`).join(" · ");

/** The final score of a match's game: Pocha's points with the winners starred, Poch's chips won. */
function gameScore(record) {
  const names = seatNames(record);
  if (isPochGame(record)) return scoreLine(names, record.chips, (s) => record.winner === s);
  return scoreLine(names, record.scores, (s) => record.winners.includes(s));
}

const gameTitle = (record) => (isPochGame(record) ? "Poch" : "Pocha");

function importForm(refused = null) {
  redrawPage = () => importForm(refused);
  controls = null;
  const error = refused
    ? `<p class="notice error" id="replay-error" role="alert">${escapeHtml(refused())}</p>`
    : `<p class="notice error" id="replay-error" role="alert" hidden></p>`;
  redraw(
    app,
    `<section class="panel" id="replay-import"><h2>${t("replay.title")}</h2>
    <p id="replay-import-say">${t("replay.importSay")}</p>
    <p><input type="file" id="replay-file" aria-labelledby="replay-import-say"
      accept="application/json,.json,application/x-ndjson,.jsonl,.ndjson"></p>
    ${error}</section>`,
    FOCUS_FALLBACK,
  );
}

/** The label of the button that replays a game of the list, for screen readers. */
function chooseLabel({ record, line, item, arena }) {
  if (arena) return line ? t("replay.arena.chooseLine", { line }) : t("replay.arena.chooseItem", { item });
  return line ? t("replay.match.chooseLine", { game: record.game, line }) : t("replay.match.chooseItem", { game: record.game, item });
}

/** The games of a file's list drawn at a time: a file may hold an arena's 100,000. */
const GAMES_PER_PAGE = 100;

/** A count as the page's language writes it (100,000; 100.000). */
const grouped = (n) => n.toLocaleString(language());

/** The list's page that holds `games[index]`. */
const pageOf = (index) => Math.floor(index / GAMES_PER_PAGE);

/** The buttons that turn the list's pages, and where it is: none for a list of one page. */
function pagesHtml(games, page, pages) {
  if (pages < 2) return "";
  const button = (id, to, label) =>
    `<button type="button" id="${id}" data-page="${to}"${to === page || to < 0 || to >= pages ? " disabled" : ""}>${label}</button>`;
  const first = page * GAMES_PER_PAGE;
  const shown = t("replay.pages.shown", {
    first: grouped(first + 1),
    last: grouped(Math.min(first + GAMES_PER_PAGE, games.length)),
    games: grouped(games.length),
    page: grouped(page + 1),
    pages: grouped(pages),
  });
  return `<nav class="replay-pages" aria-label="${t("replay.pages.label")}">
    ${button("replay-page-first", 0, t("replay.pages.first"))} ${button("replay-page-previous", page - 1, t("replay.pages.previous"))}
    <span id="replay-page" data-page="${page + 1}" data-pages="${pages}" role="status">${shown}</span>
    ${button("replay-page-next", page + 1, t("replay.pages.next"))} ${button("replay-page-last", pages - 1, t("replay.pages.last"))}</nav>`;
}

/**
 * The games of a match's or an arena's records, each with its seats' final scores and a
 * button that replays it: a match's by their number in it, an arena's by their deal (the
 * games of one deal had the same cards, the line-up rotated). A page of them at a time
 * (`page`, from 0), the file being read once: its other pages are drawn as they are turned
 * to. `focused`, a game's index, takes the focus (the game left, on its page).
 */
function gamesList(games, page = 0, focused = null) {
  const pages = Math.ceil(games.length / GAMES_PER_PAGE);
  const at = Math.max(0, Math.min(pages - 1, page));
  redrawPage = () => gamesList(games, at);
  controls = null;
  listed = games;
  const { arena } = games[0];
  const matches = games.at(-1).match ?? 0;
  const first = at * GAMES_PER_PAGE;
  const rows = games
    .slice(first, first + GAMES_PER_PAGE)
    .map((game, k) => {
      const i = first + k;
      const { record, line, item, match } = game;
      const number = arena ? escapeHtml(record.deal ?? "—") : record.game;
      return `<tr data-index="${i}"><td class="num">${line ?? item}</td>${matches > 1 ? `<td class="num">${match}</td>` : ""}
        <td class="num">${number}</td><td>${gameTitle(record)}</td><td>${gameScore(record)}</td>
        <td><button type="button" class="replay-choose" data-focus="game-${i}" aria-label="${escapeHtml(chooseLabel(game))}">${t("replay.match.open")}</button></td></tr>`;
    })
    .join("");
  const count = grouped(games.length);
  let say = t("replay.match.say", { games: count });
  if (arena) say = t("replay.arena.say", { games: count });
  else if (matches > 1) say = t("replay.match.several", { games: count, matches: grouped(matches) });
  const turner = pagesHtml(games, at, pages);
  redraw(
    app,
    `<section class="panel" id="replay-games" data-games="${games.length}" data-matches="${matches}" data-arena="${arena}"><h2>${t("replay.title")}</h2>
    <p>${say}</p>
    ${turner}
    <div class="table-scroll"><table class="replay"><caption>${t("replay.match.caption")}</caption>
      <thead><tr><th scope="col">${games[0].line ? t("replay.match.line") : t("replay.match.item")}</th>
      ${matches > 1 ? `<th scope="col">${t("replay.match.match")}</th>` : ""}<th scope="col">${arena ? t("replay.arena.deal") : t("replay.match.game")}</th>
      <th scope="col">${t("replay.match.kind")}</th><th scope="col">${t("replay.final")}</th><th scope="col"><span class="visually-hidden">${t("replay.match.open")}</span></th></tr></thead>
      <tbody>${rows}</tbody></table></div>
    <p><button type="button" id="replay-another">${t("replay.match.another")}</button></p></section>`,
    // A page button at either end is disabled, and loses the focus to its neighbour.
    ["#replay-page-previous", "#replay-page-next", "#replay-games .replay-choose"],
  );
  if (focused !== null) document.querySelector(`#replay-games [data-focus="game-${focused}"]`)?.focus();
}

/**
 * A match's or an arena's game (`games[index]`), hand by hand for Pocha (each hand's bids,
 * tricks won, points and the running scores), or its one deal for Poch (the chips each seat
 * won, who went out first). Neither keeps a card nor a decision: where a match's game was
 * played at a table, its own record has them, and the page links to that table's replay.
 */
function matchGame(games, index) {
  const { record, line, item, arena } = games[index];
  const poch = isPochGame(record);
  const names = seatNames(record);
  const steps = poch ? 1 : record.hands.length;
  let at = 0;
  const position = () => {
    if (poch) {
      const out = record.winner === null || record.winner === undefined ? t("replay.match.nobody") : names[record.winner];
      const rows = names.map((name, s) => `<tr data-seat="${s}"><th scope="row">${name}</th><td class="num">${escapeHtml(record.chips[s])}</td></tr>`).join("");
      return `<p class="replay-where" id="replay-step" data-step="0" data-part="paid">${arena ? t("replay.arena.pochDeal") : t("replay.match.pochDeal")}</p>
        <p id="replay-part">${t("replay.match.outFirst", { name: out })}</p>
        <div class="table-scroll"><table class="replay"><thead><tr><th></th><th scope="col">${t("replay.match.chipsWon")}</th></tr></thead>
        <tbody>${rows}</tbody></table></div>`;
    }
    const hand = record.hands[at];
    const running = names.map((_, s) => record.hands.slice(0, at + 1).reduce((sum, h) => sum + h.points[s], 0));
    const rows = names
      .map(
        (name, s) => `<tr data-seat="${s}"><th scope="row">${name}</th><td class="num">${escapeHtml(hand.bids[s])}</td>
          <td class="num">${escapeHtml(hand.tricks[s])}</td><td class="num">${escapeHtml(hand.points[s])}</td>
          <td class="num">${escapeHtml(running[s])}</td></tr>`,
      )
      .join("");
    return `<p class="replay-where" id="replay-step" data-step="${at}" data-hand="${at + 1}">
        ${tn("replay.match.where", Number(hand.cards), { n: escapeHtml(hand.cards), hand: at + 1, hands: steps })}</p>
      <div class="table-scroll"><table class="replay"><thead><tr><th></th><th scope="col">${t("replay.bid")}</th>
        <th scope="col">${t("replay.won")}</th><th scope="col">${t("replay.points")}</th><th scope="col">${t("replay.scores")}</th></tr></thead>
        <tbody>${rows}</tbody></table></div>`;
  };
  const draw = () => {
    document.getElementById("replay-position").innerHTML = position();
    document.getElementById("replay-prev").disabled = at === 0;
    document.getElementById("replay-next").disabled = at === steps - 1;
  };
  const move = (by) => {
    at = Math.max(0, Math.min(steps - 1, at + by));
    draw();
  };
  const frame = () => {
    let table = arena ? t("replay.arena.noCards") : t("replay.match.noCards");
    if (!arena && typeof record.table === "string" && record.table) {
      table = t("replay.match.table", { link: `<a href="/replay/${encodeURIComponent(record.table)}">${t("replay.match.tableLink")}</a>` });
    }
    const seedAndDeal = { kind: gameTitle(record), seed: escapeHtml(record.seed ?? "—"), deal: escapeHtml(record.deal ?? "—") };
    let about = t("replay.match.about", { ...seedAndDeal, game: record.game });
    if (arena) about = line ? t("replay.arena.aboutLine", { ...seedAndDeal, line }) : t("replay.arena.aboutItem", { ...seedAndDeal, item });
    const which = arena ? `data-arena-game="${line ?? item}"` : `data-match-game="${record.game}"`;
    const decisions = Array.isArray(record.decisions) && record.decisions.length === names.length
      ? `<p class="muted small" id="replay-decisions">${t("replay.match.decisions")}: ${names.map((n, s) => `${n} ${escapeHtml(record.decisions[s])}`).join(" · ")}</p>`
      : "";
    const back = games.length > 1
      ? `<button type="button" id="replay-back">${t("replay.match.back")}</button>`
      : `<button type="button" id="replay-another">${t("replay.match.another")}</button>`;
    redraw(
      app,
      `<section class="panel" id="replay" data-game="${poch ? "poch" : "pocha"}" ${which} data-index="${index}">
      <h2>${t("replay.title")}</h2>
      <p id="replay-about">${about}</p>
      <p id="replay-final">${t("replay.final")}: ${gameScore(record)}</p>
      <p class="replay-buttons">${back}
        <button type="button" id="replay-prev">${t("replay.previous")}</button>
        <button type="button" class="primary" id="replay-next">${t("replay.match.nextHand")}</button>
        <small class="muted">${t("replay.keys")}</small></p>
      <div id="replay-position"></div>
      ${decisions}
      <p class="muted small" id="replay-no-cards">${table}</p></section>`,
      ["#replay-next", "#replay-prev", "#replay-back", "#replay-another"],
    );
    draw();
  };
  controls = { move, weigh: () => {}, back: () => gamesList(games, pageOf(index), index) };
  redrawPage = frame;
  frame();
}

/** Show what the file chosen holds (a game record, or a match's games to choose from), or say why it holds neither. */
async function openFile(input) {
  const file = input.files?.[0];
  if (!file) return;
  let found;
  try {
    found = readFile(await file.text());
  } catch (error) {
    importForm(error instanceof Refused ? error.say : () => t("replay.file.notJson"));
    return;
  }
  if (found.games) {
    if (found.games.length === 1) matchGame(found.games, 0);
    else gamesList(found.games);
    return;
  }
  try {
    await replay(found.record);
  } catch (error) {
    // Not the browser's words (a TypeError's, on a field missing): the page's, in its language.
    importForm(error instanceof ApiError ? () => errorText(error) : () => t("replay.file.incomplete"));
  }
}

app.addEventListener("change", (event) => {
  if (event.target.id === "replay-file") openFile(event.target);
});
app.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button || button.disabled) return;
  if (button.id === "replay-another") {
    importForm();
    document.getElementById("replay-file").focus();
    return;
  }
  if (button.classList.contains("replay-choose")) {
    matchGame(listed, Number(button.closest("tr").dataset.index));
    return;
  }
  if (button.closest(".replay-pages")) {
    gamesList(listed, Number(button.dataset.page));
    return;
  }
  if (!controls) return;
  if (button.id === "replay-back") controls.back();
  else if (button.id === "replay-prev") controls.move(-1);
  else if (button.id === "replay-next") controls.move(1);
  else if (button.id === "replay-weigh") controls.weigh();
});
document.addEventListener("keydown", (event) => {
  if (!controls || event.target instanceof HTMLSelectElement) return;
  if (event.key === "ArrowRight") controls.move(1);
  else if (event.key === "ArrowLeft") controls.move(-1);
});

async function show() {
  const id = decodeURIComponent(location.pathname.split("/")[2] || "");
  if (!id) {
    importForm();
    return;
  }
  let record;
  try {
    record = await new Api().record(id);
  } catch (error) {
    // Asked again in the page's new language, should it change.
    redrawPage = show;
    app.innerHTML = `<p class="notice error" id="replay-error">${escapeHtml(errorText(error))}</p>`;
    return;
  }
  await replay(record);
}

// The title is the document's (replay.html), kept in the page's language by i18n.js.
await startSheet(() => redrawPage?.());
await show();
