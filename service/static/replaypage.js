// A finished game's replay (/replay/GAME): its record (GET /api/v1/games/{id}/record,
// docs/records.md, given only once the game is over, so every hand may be shown) stepped
// through trick by trick, forwards and backwards (the buttons, or the arrow keys): each
// deal opens with every hand as dealt, the trump and the bids; each step plays one trick,
// the cards left in each hand, the trick's cards and its winner; the deal's last step adds
// its points and the running scores. A Pocha record only: a Poch record is summed up.
// Records hold no bot's advice, so none is shown beside the decisions.

import { Api, ApiError } from "./api.js";
import { cardSvg } from "./cards.js";
import { escapeHtml } from "./html.js";
import { levelName, t } from "./i18n.js";
import { startSheet } from "./sheet.js";

const app = document.getElementById("app");

/** Every position of the replay: {deal, trick} with trick 0 the deal before its first card. */
function stepsOf(record) {
  const steps = [];
  record.deals.forEach((deal, d) => {
    for (let k = 0; k <= deal.tricks.length; k++) steps.push({ deal: d, trick: k });
  });
  return steps;
}

function mini(code, extra = "") {
  return `<span class="mini-card ${extra}" data-card="${code}">${cardSvg(code)}</span>`;
}

function playerName(record, seat) {
  const player = record.players[seat];
  return player.level ? `${escapeHtml(player.name)} (${levelName(player.level)})` : escapeHtml(player.name);
}

function positionHtml(record, step, index, total) {
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
        <td class="num">${bid ? bid.bid : "—"}${bid?.stand_in ? "*" : ""}</td><td class="num">${won[s]}</td>
        <td class="num">${last ? deal.points[s] : ""}</td><td class="num">${last ? deal.scores[s] : ""}</td></tr>
        <tr class="hand-row" data-seat="${s}"><td colspan="5" class="replay-hand" aria-label="${t("replay.hand")}">${hand}</td></tr>`;
    })
    .join("");
  const trickHtml = trick
    ? `<p id="replay-trick">${t("replay.trick", { n: step.trick, of: deal.tricks.length })}:
        ${trick.cards.map((c) => `${mini(c.card, c.seat === trick.winner ? "winner" : "")}`).join("")}
        ${t("replay.wonBy", { name: playerName(record, trick.winner) })}</p>`
    : `<p id="replay-trick">${t("replay.dealt")}</p>`;
  return `<p class="replay-where" id="replay-step" data-step="${index}" data-deal="${step.deal + 1}" data-trick="${step.trick}">
      ${t("replay.where", { deal: step.deal + 1, deals: record.deals.length, step: index + 1, steps: total })}</p>
    <p>${t("replay.trump")}: ${mini(deal.trump.card)}</p>
    ${trickHtml}
    <div class="table-scroll"><table class="replay"><thead><tr><th></th><th>${t("replay.bid")}</th>
      <th>${t("replay.won")}</th><th>${t("replay.points")}</th><th>${t("replay.scores")}</th></tr></thead>
      <tbody>${seats}</tbody></table></div>`;
}

async function show() {
  const id = decodeURIComponent(location.pathname.split("/")[2] || "");
  let record;
  try {
    record = await new Api().record(id);
  } catch (error) {
    app.innerHTML = `<p class="notice error" id="replay-error">${escapeHtml(error instanceof ApiError ? error.message : String(error))}</p>`;
    return;
  }
  const final = record.players
    .map((p, s) => `${playerName(record, s)} ${record.scores[s]}${record.winners.includes(s) ? " ★" : ""}`)
    .join(" · ");
  const head = `<h2>${t("replay.title")}</h2><p id="replay-final">${t("replay.final")}: ${final}</p>`;
  if (record.game !== "pocha") {
    app.innerHTML = `<section class="panel">${head}<p id="replay-only-pocha">${t("replay.onlyPocha")}</p></section>`;
    return;
  }
  const steps = stepsOf(record);
  let at = 0;
  app.innerHTML = `<section class="panel" id="replay">${head}
    <p class="replay-buttons"><button type="button" id="replay-prev">${t("replay.previous")}</button>
      <button type="button" class="primary" id="replay-next">${t("replay.next")}</button>
      <small class="muted">${t("replay.keys")}</small></p>
    <div id="replay-position"></div>
    <p class="muted small">${t("replay.standIn")}</p></section>`;
  const draw = () => {
    document.getElementById("replay-position").innerHTML = positionHtml(record, steps[at], at, steps.length);
    document.getElementById("replay-prev").disabled = at === 0;
    document.getElementById("replay-next").disabled = at === steps.length - 1;
  };
  const move = (by) => {
    at = Math.max(0, Math.min(steps.length - 1, at + by));
    draw();
  };
  document.getElementById("replay-prev").addEventListener("click", () => move(-1));
  document.getElementById("replay-next").addEventListener("click", () => move(1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") move(1);
    else if (event.key === "ArrowLeft") move(-1);
  });
  draw();
}

await startSheet();
document.title = `${t("replay.title")} · Pocha`;
await show();
