// The ladder page (/ladder/GAME?kind=person|bot): the rated accounts of one kind in one game,
// best first (GET /api/v1/ladder, a page of 50 at a time), each with its rating ± sigma
// (what those are is said in plain words under the title and on the column's heading),
// its rated games and when it was last seen, and a chart of the top accounts' ratings over
// time from their rating histories (chart.js, uPlot).

import { Api, errorText } from "./api.js";
import { drawCurves } from "./chart.js";
import { escapeHtml } from "./html.js";
import { named, t } from "./i18n.js";
import { ratingText, startSheet, when } from "./sheet.js";

const PAGE = 50;
// The accounts whose curves the chart draws: one history request each.
const CHARTED = 5;
const GAMES = ["pocha", "poch"];
const KINDS = ["person", "bot"];

const app = document.getElementById("app");

function place() {
  const game = location.pathname.split("/")[2] || "pocha";
  const query = new URLSearchParams(location.search);
  const kind = KINDS.includes(query.get("kind")) ? query.get("kind") : "person";
  const offset = Math.max(0, Number(query.get("offset")) || 0);
  return { game, kind, offset };
}

function link(game, kind, offset = 0) {
  return `/ladder/${game}?kind=${kind}${offset ? `&offset=${offset}` : ""}`;
}

function tabs(game, kind) {
  const gameLinks = GAMES.map(
    (g) => `<a href="${link(g, kind)}" class="tab ${g === game ? "current" : ""}" id="ladder-game-${g}">${named("ladder.game", g)}</a>`,
  ).join(" ");
  const kindLinks = KINDS.map(
    (k) => `<a href="${link(game, k)}" class="tab ${k === kind ? "current" : ""}" id="ladder-kind-${k}">${named("ladder.kind", k)}</a>`,
  ).join(" ");
  return `<p class="tabs">${gameLinks}</p><p class="tabs">${kindLinks}</p>`;
}

function rows(entries) {
  if (!entries.length) return `<p class="muted" id="ladder-empty">${t("ladder.empty")}</p>`;
  const body = entries
    .map(
      (e) => `<tr data-account="${escapeHtml(e.id)}"><td>${e.rank}</td>
        <td><a href="/accounts/${encodeURIComponent(e.id)}">${escapeHtml(e.name)}</a>${
          e.provisional ? ` <span class="muted small provisional">${t("ladder.provisional")}</span>` : ""
        }</td>
        <td class="num">${ratingText(e.rating, e.sigma)}</td><td class="num">${e.games}</td>
        <td class="seen">${when(e.last_seen)}</td></tr>`,
    )
    .join("");
  return `<div class="table-scroll"><table class="ladder" id="ladder-table"><thead><tr>
    <th>${t("ladder.rank")}</th><th>${t("ladder.name")}</th><th title="${t("ladder.ratingHelp")}">${t("ladder.rating")}</th>
    <th>${t("ladder.games")}</th><th class="seen">${t("ladder.lastSeen")}</th></tr></thead>
    <tbody>${body}</tbody></table></div>`;
}

async function show() {
  const { game, kind, offset } = place();
  let ladder;
  try {
    ladder = await new Api().ladder(game, kind, offset, PAGE);
  } catch (error) {
    app.innerHTML = `<p class="notice error">${escapeHtml(errorText(error))}</p>`;
    return;
  }
  const more = offset + PAGE < ladder.total;
  app.innerHTML = `<section class="panel">
    <h2>${t("ladder.title")}</h2>${tabs(game, kind)}
    <p class="muted small">${t("ladder.lead", { total: ladder.total })}</p>
    <p class="muted small" id="ladder-help">${t("ladder.ratingHelp")}</p>
    <figure class="chart"><figcaption>${t("ladder.chart")}</figcaption><div id="ladder-chart"></div></figure>
    ${rows(ladder.entries)}
    <p class="pager">${offset > 0 ? `<a href="${link(game, kind, Math.max(0, offset - PAGE))}">${t("ladder.previous")}</a>` : ""}
      ${more ? `<a href="${link(game, kind, offset + PAGE)}" id="ladder-next">${t("ladder.next")}</a>` : ""}</p></section>`;
  const top = ladder.entries.slice(0, CHARTED);
  const chart = document.getElementById("ladder-chart");
  if (!top.length) {
    chart.dataset.drawn = "0";
    return;
  }
  const histories = await Promise.all(top.map((e) => new Api().ratingHistory(e.id, game)));
  drawCurves(
    chart,
    top.map((e, i) => ({ label: e.name, points: histories[i].entries })),
    t("ladder.rating"),
    t("chart.when"),
  );
}

// The title is the document's (ladder.html), kept in the page's language by i18n.js.
await startSheet(show);
await show();
