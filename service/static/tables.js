// Tables people gather at, drawn: the lobby's list of public tables, a table seen through
// its link before taking a seat, and the waiting room that fills as people sit down. Pure
// markup from what the API answers (GET /api/v1/tables, /tables/{code}, a seat's view);
// app.js wires the buttons. Names from the server are escaped.

import { escapeHtml } from "./html.js";
import { levelName, ruleLabel, t, tn } from "./i18n.js";

/** The address of a table's shareable link, where the view names none. */
export function tableLink(code) {
  return `${location.origin}/t/${encodeURIComponent(code)}`;
}

/** The classes of a seat's box at either game's table: whose turn (until the game is
 * `over`), this browser's seat, the `winner` being shown, a seat whose person is away. */
export function seatClasses(view, seat, { over, winner }) {
  const classes = ["seat"];
  if (seat === view.turn && !over) classes.push("turn");
  if (view.you && seat === view.you.seat) classes.push("me");
  if (winner === seat) classes.push("winner");
  if (view.players[seat].away) classes.push("away");
  return classes;
}

/** Whether a link reaches only the machine it is opened on (localhost, 127.x, ::1). */
export function onlyThisMachine(link) {
  let host;
  try {
    host = new URL(link).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1";
}

/** "Ana, Bea, 1 open seat" for a table's seats as the lobby gives them. */
function seatsLine(players) {
  const names = players.filter((p) => !p.open).map((p) => escapeHtml(p.bot ? `${p.name} (${levelName(p.bot)})` : p.name));
  const open = players.filter((p) => p.open).length;
  if (open) names.push(tn("lobby.openSeats", open));
  return names.join(", ");
}

/**
 * A line of a game's rules: players, the hands' cards (Poch: the chips, the ante and the
 * deals), the clock. A Poch game's rules are the ones with an `ante`.
 */
export function rulesLine(rules) {
  const parts = [t("rules.players", { n: rules.players })];
  if ("ante" in rules) {
    parts.unshift("Poch");
    parts.push(t("rules.chipsAnte", { chips: rules.chips, ante: rules.ante }));
    parts.push(tn("rules.deals", rules.deals));
    parts.push(rules.turn_seconds ? t("rules.clock", { n: rules.turn_seconds }) : t("rules.noClock"));
    return parts.join(" · ");
  }
  // A named schedule (classic, pyramid) in the page's language; card counts as they are.
  const schedule = Array.isArray(rules.schedule)
    ? rules.schedule.join(", ")
    : ruleLabel(rules.schedule, rules.schedule).toLowerCase();
  parts.push(t("rules.schedule", { schedule: escapeHtml(schedule) }));
  parts.push(rules.turn_seconds ? t("rules.clock", { n: rules.turn_seconds }) : t("rules.noClock"));
  return parts.join(" · ");
}

/** The lobby's list: each listed table still waiting, with a link to sit down. */
export function lobbyHtml(tables) {
  if (!tables.length) return `<p class="muted">${t("lobby.empty")}</p>`;
  const items = tables
    .map(
      (table) => `<li class="lobby-table" data-code="${escapeHtml(table.code)}">
      <div class="lobby-head"><strong class="code">${escapeHtml(table.code)}</strong>
        <a class="sit" data-code="${escapeHtml(table.code)}" href="/t/${encodeURIComponent(table.code)}">${t("lobby.sit")}</a></div>
      <div class="lobby-seats">${seatsLine(table.players)}</div>
      <small class="muted">${rulesLine(table.rules)}</small></li>`,
    )
    .join("");
  return `<ul class="lobby-list">${items}</ul>`;
}

/** A table through its link, for someone with no seat there: its seats and a name field. */
export function joinHtml(table, { name, message }) {
  const open = table.waiting && table.open_seats > 0;
  const seats = table.players
    .map(
      (p) => `<li class="${p.open ? "open" : ""}">${p.open ? `<em>${t("seat.open")}</em>` : escapeHtml(p.name)}
        ${p.bot ? `<span class="level">${escapeHtml(levelName(p.bot))}</span>` : ""}</li>`,
    )
    .join("");
  const form = open
    ? `<div class="grid"><label>${t("setup.name")} <input name="name" maxlength="40" required
          value="${escapeHtml(name)}"></label></div>
       <div class="join-bar"><button type="submit" class="primary" id="take-seat">${t("join.take")}</button></div>`
    : `<p class="notice error">${t(table.waiting ? "join.full" : "join.started")}</p>`;
  return `<form id="join" class="setup panel" autocomplete="off" data-code="${escapeHtml(table.code)}">
      <h2>${t("join.tableTitle", { code: escapeHtml(table.code) })}</h2>
      <p class="lead">${rulesLine(table.rules)}</p>
      ${seededNotice(table)}
      <ul class="waiting-seats">${seats}</ul>
      ${form}
      <p id="notice" class="notice ${message ? "error" : "info"}">${escapeHtml(message || "")}</p>
      <p><a href="/">${t("join.toLobby")}</a></p>
    </form>`;
}

/** A plain warning, before a seat is taken and while the table waits, that its host chose
 * the seed and so can rebuild every hand dealt at it. */
function seededNotice(tableOrView) {
  return tableOrView.seeded ? `<p class="notice warning" id="seeded-warning" role="alert">${t("join.seeded")}</p>` : "";
}

/** A presence dot: green while the person has been seen lately (`mine`: this page's seat,
 * here by definition, even before the server has written it down); never for a person who
 * left the table, however lately seen (their page was open until they left). */
export function presenceDot(player, mine = false) {
  if (player.bot || player.open) return "";
  const here = !player.left && (player.present || mine);
  return `<span class="dot ${here ? "here" : "gone"}" role="img"
    aria-label="${t(here ? "presence.here" : "presence.gone")}" title="${t(here ? "presence.here" : "presence.gone")}"></span>`;
}

/**
 * The waiting room: the code and the link to share, the seats as they fill, and the
 * host's controls (start now with bots of a level, a bot in an open seat, removing
 * whoever took a seat).
 */
export function waitingHtml(view, { me, host, levels, level, notice, noticeKind }) {
  const code = view.table?.code;
  // The service names the address a friend on another machine can open (this machine's
  // network address in place of localhost).
  const link = view.table?.link || (code ? tableLink(code) : "");
  const hereOnly = link && onlyThisMachine(link) ? t("waiting.linkHereOnly") : "";
  const seats = view.players
    .map((p, seat) => {
      const who = p.open
        ? `<em>${t("seat.open")}</em>`
        : `${escapeHtml(p.name)}${seat === me ? ` <span class="badge">${t("seat.you")}</span>` : ""}`;
      const bot = p.bot ? `<span class="level">${escapeHtml(levelName(p.bot))}</span>` : "";
      // The host gives an open seat to a bot, or removes whoever took a seat (a squatter).
      const give =
        host && p.open
          ? `<button type="button" class="quiet" data-action="seat-bot" data-seat="${seat}">${t("waiting.botHere")}</button>`
          : host && !p.bot && seat !== me
            ? `<button type="button" class="quiet" data-action="seat-remove" data-seat="${seat}">${t("waiting.remove")}</button>`
            : "";
      return `<li class="${p.open ? "open" : "taken"}" data-seat="${seat}">${presenceDot(p, seat === me)}
        <span class="who">${who}</span>${bot}${give}</li>`;
    })
    .join("");
  const options = levels
    .map((l) => `<option value="${escapeHtml(l)}" ${l === level ? "selected" : ""}>${escapeHtml(levelName(l))}</option>`)
    .join("");
  const open = view.table?.open_seats ?? 0;
  const hostTools = host
    ? `<div class="host-tools">
        <label>${t("waiting.botLevel")} <select id="start-level" name="start-level">${options}</select></label>
        <button type="button" class="primary" data-action="start" id="start">${t(open ? "waiting.startWithBots" : "waiting.start")}</button>
      </div>`
    : `<p class="muted">${t("waiting.hostStarts")}</p>`;
  return `<section id="waiting" class="waiting setup panel" data-open-seats="${open}" data-code="${escapeHtml(code || "")}">
      <h2 id="waiting-title" tabindex="-1">${t("join.tableTitle", { code: escapeHtml(code || "") })}</h2>
      <p class="lead">${tn("waiting.lead", open)}</p>
      ${seededNotice(view)}
      <div class="share">
        <input id="table-link" readonly value="${escapeHtml(link)}" aria-label="${t("waiting.link")}">
        <button type="button" class="quiet" data-action="copy">${t("waiting.copy")}</button>
      </div>
      ${hereOnly ? `<p id="link-here-only" class="muted">${hereOnly}</p>` : ""}
      <p class="muted">${rulesLine(view.rules)}</p>
      <ul class="waiting-seats">${seats}</ul>
      ${hostTools}
      <p id="notice" class="notice ${noticeKind}">${escapeHtml(notice)}</p>
      <div class="game-tools"><button type="button" data-action="leave" class="quiet">${t("game.leaveTable")}</button>
        <span class="game-id">${t("game.id", { id: escapeHtml(view.id) })}</span></div>
    </section>`;
}

/** Who won, as HTML: "You win!", "Bot 2 wins", "Ana and Bea share the win". */
export function finalTitle(view, winners, nameOf) {
  const iWon = view.you && winners.includes(view.you.seat);
  const names = winners.map((s) => nameOf(s));
  return iWon
    ? t(winners.length > 1 ? "final.youShare" : "final.youWin")
    : t(winners.length > 1 ? "final.theyShare" : "final.theyWin", {
        names: escapeHtml(names.join(t("final.and"))),
      });
}

/**
 * The panel at a game's end, for either game: who won, every seat ranked (`rank`) with its
 * `score(seat)` as HTML, and the rematch (at a table, each person takes their seat at it
 * with their own token) or a new game. Seats of equal `points(seat)` share a place ("2.",
 * "2.", "4."), as they would on paper.
 */
export function finalHtml(view, { winners, rank, nameOf, score, points, closeLabel }) {
  const title = finalTitle(view, winners, nameOf);
  const place = (s) => rank.findIndex((other) => points(other) === points(s)) + 1;
  const list = rank
    .map(
      (s) => `<li class="${winners.includes(s) ? "won" : ""}"><span>${place(s)}.</span>
        ${escapeHtml(nameOf(s))}<strong>${score(s)}</strong></li>`,
    )
    .join("");
  const rematch =
    view.table && view.you
      ? `<button class="primary" data-action="rematch" id="rematch">${t(view.table.rematch ? "final.joinRematch" : "final.rematch")}</button>`
      : "";
  return `<div class="final panel" role="dialog" aria-label="${t("final.label")}">
    <button class="close" data-action="close" aria-label="${closeLabel}">×</button>
    <h2>${title}</h2>
    <ol class="ranking">${list}</ol>
    <div class="final-actions">${rematch}<button class="${rematch ? "quiet" : "primary"}" data-action="new">${t("game.new")}</button></div></div>`;
}
