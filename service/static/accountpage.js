// An account's page (/accounts/ID): its name and kind, its rating in each game with its
// curve (GET /api/v1/accounts/{id}/history, drawn by chart.js), its share of exact bids
// (Pocha), its latest rated games with links to their replays, and, for a bot whose
// account document carries them, its failures, pause and time per decision (`webhook`,
// `turns`). On the page of the account signed up in this browser, its games in play
// (`GET /api/v1/accounts/{id}/games`, with its key), each linked to the page that opens its
// seat with the key (`/play/ID`, app.js), so that a game left in another browser or in
// the terminal is one click away; and a new key for it (`POST /api/v1/accounts/{id}/key`):
// shown once, as at sign-up, and kept in its stead.

import { remember, signedIn } from "./account.js";
import { Api, errorText } from "./api.js";
import { drawCurves } from "./chart.js";
import { escapeHtml } from "./html.js";
import { levelName, named, ownTitle, t, tn } from "./i18n.js";
import { ratingText, startSheet, when } from "./sheet.js";

// The latest games listed per game.
const RECENT = 10;

const app = document.getElementById("app");

function botFacts(account) {
  // Shown only as far as the account document has them: a webhook bot's calls, a stream
  // bot's timed turns.
  // Each under labels of its own: a bot may have both.
  const hook = account.webhook;
  const turns = account.turns;
  const facts = [];
  const ms = (counted) =>
    counted && counted.mean_decision_ms !== null && counted.mean_decision_ms !== undefined
      ? `${Number(counted.mean_decision_ms).toFixed(0)} ms`
      : null;
  if (ms(hook)) facts.push([t("account.bot.decision"), ms(hook)]);
  if (hook) facts.push([t("account.bot.failures"), String(hook.failures)]);
  if (hook) facts.push([t("account.bot.paused"), hook.paused ? t("account.yes") : t("account.no")]);
  if (ms(turns)) facts.push([t("account.bot.turnTime"), ms(turns)]);
  if (turns) facts.push([t("account.bot.clocksRanOut"), String(turns.clocks_ran_out)]);
  if (!facts.length) return "";
  return `<dl class="facts" id="bot-facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
}

function gameSection(rating, history) {
  const exact = rating.bids
    ? `<p id="exact-${rating.game}">${t("account.exactBids", {
        rate: `${((100 * rating.exact_bids) / rating.bids).toFixed(0)}%`,
        exact: rating.exact_bids,
        bids: rating.bids,
      })}</p>`
    : "";
  const recent = history.entries
    .slice(0, RECENT)
    .map(
      (e) => `<li><a href="${
        e.match_id
          ? `/api/v1/matches/${encodeURIComponent(e.match_id)}/records`
          : `/replay/${encodeURIComponent(e.game_id)}`
      }">${when(e.when)}</a> ·
        ${t("account.place", { rank: e.rank })} · ${e.rating.toFixed(1)}${
          e.counted === false ? ` · <span class="muted not-counted">${t("account.notCounted")}</span>` : ""
        }</li>`,
    )
    .join("");
  return `<section class="panel" data-game="${rating.game}">
    <h3>${named("ladder.game", rating.game)}</h3>
    <p>${t("ladder.rating")}: <strong>${ratingText(rating.rating, rating.sigma)}</strong> ·
      ${tn("account.games", rating.games)}${
        rating.provisional ? ` · <span class="provisional">${t("ladder.provisional")}</span>` : ""
      }</p>
    ${exact}
    <figure class="chart"><div class="account-chart" id="chart-${rating.game}"></div></figure>
    <h4>${t("account.recent")}</h4><ul class="recent" id="recent-${rating.game}">${recent}</ul>
  </section>`;
}

/** Whose turn it is in a game in play, or why nobody's: the word its line ends with. */
function inPlayState(game) {
  if (game.left) return t("account.inPlay.left");
  if (game.waiting) return t("account.inPlay.waiting");
  return game.your_turn ? `<strong>${t("account.inPlay.yourTurn")}</strong>` : t("account.inPlay.others");
}

function inPlayHtml(games) {
  if (!games.length) return `<p id="in-play-none" class="muted">${t("account.inPlay.none")}</p>`;
  const lines = games.map((g) => {
    const players = g.players.map((p) => (p === null ? t("seat.open") : escapeHtml(p))).join(", ");
    return `<li data-game="${escapeHtml(g.game_id)}"><a class="in-play-link" href="${escapeHtml(g.page)}">${named("ladder.game", g.game)}: ${players}</a>
      · ${inPlayState(g)} · <span class="muted">${t("account.inPlay.seen", { seen: when(g.last_seen) })}</span></li>`;
  });
  return `<ul class="recent" id="in-play-list">${lines.join("")}</ul>`;
}

/** The account's games in play, for the account signed up here (`mine`) on its own page. */
async function inPlaySection(account, mine) {
  if (!mine || mine.id !== account.id || account.disabled) return "";
  let body;
  try {
    body = inPlayHtml((await new Api().accountGames(account.id, mine.key)).games);
  } catch (error) {
    body = `<p class="notice error" id="in-play-error">${escapeHtml(errorText(error))}</p>`;
  }
  return `<section class="panel" id="in-play"><h3>${t("account.inPlay.title")}</h3>${body}</section>`;
}

/** The new-key action, for the account signed up here (`mine`), if this page is its own. */
function newKeyHtml(account, mine) {
  if (!mine || mine.id !== account.id || account.disabled) return "";
  return `<p><button type="button" id="new-key">${t("account.newKey")}</button></p>
    <div id="new-key-shown"></div>`;
}

function wireNewKey(account) {
  const button = document.getElementById("new-key");
  if (!button) return;
  const shown = document.getElementById("new-key-shown");
  button.addEventListener("click", async () => {
    if (!confirm(t("account.newKeyConfirm"))) return;
    // The key as kept now: another tab of this browser may have replaced it since.
    const mine = signedIn();
    if (mine?.id !== account.id) {
      button.hidden = true;
      return;
    }
    button.disabled = true;
    try {
      const made = await new Api().replaceAccountKey(mine.id, mine.key);
      mine.key = made.key;
      remember(mine);
      shown.innerHTML = `<p class="notice error" id="key-warning">${t("account.keyWarning")}</p>
        <p><code id="account-key" class="account-key">${escapeHtml(made.key)}</code></p>
        <button type="button" class="primary" id="key-kept">${t("account.keyKept")}</button>`;
      document.getElementById("key-kept").addEventListener("click", () => {
        shown.innerHTML = `<p class="notice" id="key-replaced">${t("account.keyReplaced")}</p>`;
        button.disabled = false;
      });
    } catch (error) {
      shown.innerHTML = `<p class="notice error" id="new-key-error">${escapeHtml(errorText(error))}</p>`;
      button.disabled = false;
    }
  });
}

async function show() {
  const id = decodeURIComponent(location.pathname.split("/")[2] || "");
  let account;
  try {
    account = await new Api().account(id);
  } catch (error) {
    app.innerHTML = `<p class="notice error" id="account-error">${escapeHtml(errorText(error))}</p>`;
    return;
  }
  ownTitle(`${account.name} · Pocha`);
  const [inPlay, ...histories] = await Promise.all([
    inPlaySection(account, signedIn()),
    ...account.ratings.map((r) => new Api().ratingHistory(account.id, r.game)),
  ]);
  const kind = account.level ? t("account.level", { level: levelName(account.level) }) : named("ladder.kind", account.kind);
  app.innerHTML = `<section class="panel" id="account">
      <h2 id="account-name">${escapeHtml(account.name)}</h2>
      <p class="muted">${kind}${account.disabled ? ` · ${t("account.disabled")}` : ""}</p>
      <p class="muted small">${t("account.since", { created: when(account.created), seen: when(account.last_seen) })}</p>
      ${botFacts(account)}
      ${account.ratings.length ? "" : `<p id="account-unrated">${t("account.unrated")}</p>`}
      ${newKeyHtml(account, signedIn())}
    </section>
    ${inPlay}
    ${account.ratings.map((r, i) => gameSection(r, histories[i])).join("")}`;
  wireNewKey(account);
  account.ratings.forEach((r, i) => {
    drawCurves(document.getElementById(`chart-${r.game}`), [{ label: account.name, points: histories[i].entries }], t("ladder.rating"), t("chart.when"));
  });
}

// A key on show is shown once: the page stays as it is until it is acknowledged.
await startSheet(() => document.getElementById("account-key") || show());
await show();
