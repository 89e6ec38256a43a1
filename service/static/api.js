// The page's client of the Pocha HTTP API: the same public endpoints as the Python client
// (client/api.py), through fetch. Every 4xx/5xx becomes an ApiError carrying the API's
// stable machine code (`error`) and its sentence for a person (`message`).

import { t } from "./i18n.js";

/**
 * Seconds to wait from a Retry-After header (a number of seconds, or an HTTP date), or null.
 */
function secondsToWait(retryAfter) {
  if (!retryAfter) return null;
  if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter);
  const at = Date.parse(retryAfter);
  return Number.isNaN(at) ? null : Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

/**
 * The page's own sentence for an answer with no message of the API's (a proxy's page, an
 * empty body): what a person can do about it, by the status, in the page's language.
 */
export function statusSentence(status, retryAfter = null) {
  if (status === 429) {
    const seconds = secondsToWait(retryAfter);
    return seconds === null ? t("error.busyLater") : t("error.busy", { seconds });
  }
  if (status === 502 || status === 503 || status === 504) return t("error.unavailable");
  if (status >= 500) return t("error.serverFault");
  if (status === 404) return t("error.missing");
  return t("error.refused", { status });
}

export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super(body?.message || statusSentence(status, retryAfter));
    this.status = status;
    this.error = body?.error || `http_${status}`;
    this.rule = body?.rule ?? null;
    this.body = body;
  }
}

/**
 * What to tell a person of `error`: the API's sentence (in the page's language, which the
 * request asked for), else the page's own for a request that got no answer (the browser's
 * words for it, "Failed to fetch", are English whatever the page's language).
 */
export function errorText(error) {
  return error instanceof ApiError ? error.message : t("error.offline");
}

export class Api {
  /** The language of the server's sentences (`message`), sent as Accept-Language. */
  static language = null;

  /**
   * The signed-in account's key (account.js), sent in X-Pocha-Account when making a game or
   * taking a seat, so that the account takes the seat; null when nobody signed up here.
   */
  static accountKey = null;

  static accountHeaders() {
    return Api.accountKey ? { "X-Pocha-Account": Api.accountKey } : {};
  }

  constructor(token = null, base = "") {
    this.token = token;
    this.base = base;
  }

  async request(method, path, body = undefined, extraHeaders = {}) {
    const headers = { Accept: "application/json", ...extraHeaders };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (Api.language) headers["Accept-Language"] = Api.language;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(this.base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      // Not the API's answer (a proxy's error page, cut short): its words are for nobody.
      if (response.ok) throw new ApiError(response.status, null);
    }
    if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
    return data;
  }

  rules() {
    return this.request("GET", "/api/v1/rules");
  }

  /**
   * `table`: {listed, stand_in_level} for a game with open seats or several people, and
   * `game` ("poch") for a game other than Pocha, the default.
   */
  createGame(players, rules, seed, table = {}) {
    const body = { players, ...table };
    if (rules) body.rules = rules;
    if (seed !== undefined && seed !== null) body.seed = seed;
    return this.request("POST", "/api/v1/games", body, Api.accountHeaders());
  }

  // -- tables: the lobby, a code, a seat; the host's and a person's changes of seats --

  lobby() {
    // Listed tables only (the default: `?listed=true` is refused by the API as a string).
    return this.request("GET", "/api/v1/tables");
  }

  table(code) {
    return this.request("GET", `/api/v1/tables/${encodeURIComponent(code)}`);
  }

  /** Take the first open seat: {game_id, seat, token, table_code}. */
  join(code, name) {
    return this.request(
      "POST",
      `/api/v1/tables/${encodeURIComponent(code)}/seats`,
      { name },
      Api.accountHeaders(),
    );
  }

  /** (host) Start now, bots of `level` in the seats still open. */
  start(gameId, level) {
    return this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/start`, { bots: level });
  }

  /** (host) A bot of `level` in an open seat. */
  seatBot(gameId, seat, level) {
    return this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/seats/${seat}/bot`, { level });
  }

  /** (host) Remove whoever took `seat` before the start: it opens again. */
  removeSeat(gameId, seat) {
    return this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/seats/${seat}/remove`);
  }

  comeBack(gameId, seat) {
    return this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/seats/${seat}/return`);
  }

  leaveSeat(gameId, seat) {
    return this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/seats/${seat}/leave`);
  }

  /** Your seat at the rematch of a finished game: {game_id, seat, token, table_code, host_token?}. */
  rematch(gameId) {
    return this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/rematch`);
  }

  view(gameId) {
    return this.request("GET", `/api/v1/games/${encodeURIComponent(gameId)}`);
  }

  /** A bid (number) or a card (code), refused with 412 if the game left `version`. */
  act(gameId, action, version) {
    const path = typeof action === "number" ? "bids" : "plays";
    const body = typeof action === "number" ? { bid: action } : { card: action };
    const headers = version === undefined ? {} : { "If-Match": `"${version}"` };
    return this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/${path}`, body, headers);
  }

  /**
   * A Poch decision in its wire form, refused with 412 if the game left `version`: "pass",
   * "hold" or an amount (a bet or a raise) to /bets, a suit letter to /suits, a card code
   * (the start card) to /plays.
   */
  decide(gameId, action, version) {
    let path;
    let body;
    if (action === "pass" || action === "hold" || typeof action === "number") {
      [path, body] = ["bets", { bet: action }];
    } else if (action.length === 1) {
      [path, body] = ["suits", { suit: action }];
    } else {
      [path, body] = ["plays", { card: action }];
    }
    const headers = version === undefined ? {} : { "If-Match": `"${version}"` };
    return this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/${path}`, body, headers);
  }

  events(gameId, after = 0) {
    return this.request("GET", `/api/v1/games/${encodeURIComponent(gameId)}/events?after=${after}`);
  }

  /** The events as Server-Sent Events (EventSource sends Accept: text/event-stream). */
  eventSource(gameId, after = 0) {
    return new EventSource(
      `${this.base}/api/v1/games/${encodeURIComponent(gameId)}/events?after=${after}`,
    );
  }

  // -- accounts, the ladder, records ----------------------------------------------------------

  /** A person's account: {id, name, kind, key}; the key is shown only in this answer. */
  createAccount(name) {
    return this.request("POST", "/api/v1/accounts", { name, kind: "person" });
  }

  account(accountId) {
    return this.request("GET", `/api/v1/accounts/${encodeURIComponent(accountId)}`);
  }

  /** A new key for the account whose `key` this is: {id, key}; the key before opens nothing. */
  replaceAccountKey(accountId, key) {
    return this.request("POST", `/api/v1/accounts/${encodeURIComponent(accountId)}/key`, undefined, {
      "X-Pocha-Account": key,
    });
  }

  /** The games not finished of the account whose `key` this is: {games}, newest first. */
  accountGames(accountId, key) {
    return this.request("GET", `/api/v1/accounts/${encodeURIComponent(accountId)}/games`, undefined, {
      "X-Pocha-Account": key,
    });
  }

  /** The account's rating after each of its latest rated games in `game`, newest first. */
  ratingHistory(accountId, game) {
    return this.request(
      "GET",
      `/api/v1/accounts/${encodeURIComponent(accountId)}/history?game=${encodeURIComponent(game)}`,
    );
  }

  ladder(game, kind, offset = 0, limit = 50) {
    const query = new URLSearchParams({ game, kind, offset: String(offset), limit: String(limit) });
    return this.request("GET", `/api/v1/ladder?${query}`);
  }

  /** A finished game's record (docs/records.md). */
  record(gameId) {
    return this.request("GET", `/api/v1/games/${encodeURIComponent(gameId)}/record`);
  }

  history(gameId) {
    return this.request("GET", `/api/v1/games/${encodeURIComponent(gameId)}/history`);
  }

  remove(gameId) {
    return this.request("DELETE", `/api/v1/games/${encodeURIComponent(gameId)}`);
  }

  /** A hint for this seat's turn: the finished job (its `result`), waiting up to `seconds`. */
  async hint(gameId, seconds = 60) {
    const job = await this.request("POST", `/api/v1/games/${encodeURIComponent(gameId)}/hint`, {});
    return this.waitJob(job, seconds);
  }

  async waitJob(job, seconds = 60) {
    const deadline = Date.now() + seconds * 1000;
    while (job.status !== "finished" && job.status !== "failed") {
      const left = (deadline - Date.now()) / 1000;
      if (left <= 0) throw new ApiError(504, { error: "timeout", message: t("error.noAnswer") });
      // The server long-polls (capped at 30 s), so this loop is not a busy one.
      job = await this.request("GET", `/api/v1/jobs/${job.id}?wait=${Math.min(20, Math.ceil(left))}`);
    }
    if (job.status === "failed") throw new ApiError(500, { error: "job_failed", message: job.error });
    return job;
  }
}
