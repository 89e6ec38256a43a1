/**
 * A stream bot on the typed client: `POCHA_KEY=pa_... node build/bot.js URL`. It holds its
 * account's event stream (`GET /api/v1/bot/events`), each `data:` line a `BotEvent` told
 * apart by `type`; it accepts every challenge made to it and plays the first legal action
 * of each of its turns in either game, the view told apart by `game` and `phase`. Its key
 * is sent as `X-Pocha-Account` and opens its seats as their bearer token. A stream ends
 * after a minute or so: it connects again, losing nothing. It prints one line per game it
 * finished (`finished GAME_ID`).
 */
import { connect, type Api, type Schemas, type View } from "./client.js";

type BotEvent = Schemas["BotEvent"];

/** How long it waits before connecting again after a lost stream, in milliseconds. */
const AGAIN_MS = 2_000;

function fail(what: string, error: unknown): never {
  throw new Error(`${what}: ${JSON.stringify(error)}`);
}

/** The first legal action of this seat's turn, sent to its phase's endpoint. */
async function move(api: Api, view: View): Promise<void> {
  const path = { game_id: view.id };
  const header = { "If-Match": `"${view.version}"` };
  const params = { path, header };
  if (view.you === undefined) return;
  let answer: { error?: unknown };
  if (view.game === "pocha") {
    if (view.phase === "bidding") {
      const bid = view.you.legal[0];
      if (bid === undefined) return;
      answer = await api.POST("/api/v1/games/{game_id}/bids", { params, body: { bid } });
    } else if (view.phase === "playing") {
      const card = view.you.legal[0];
      if (card === undefined) return;
      answer = await api.POST("/api/v1/games/{game_id}/plays", { params, body: { card } });
    } else return;
  } else if (view.phase === "betting") {
    const bet = view.you.legal[0];
    if (bet === undefined) return;
    answer = await api.POST("/api/v1/games/{game_id}/bets", { params, body: { bet } });
  } else if (view.phase === "starting") {
    const card = view.you.legal[0];
    if (card === undefined) return;
    answer = await api.POST("/api/v1/games/{game_id}/plays", { params, body: { card } });
  } else if (view.phase === "choosing") {
    const suit = view.you.legal[0];
    if (suit === undefined) return;
    answer = await api.POST("/api/v1/games/{game_id}/suits", { params, body: { suit } });
  } else return;
  // A refusal (a clock that ran out first, a stale version) leaves the turn to the next event.
  if (answer.error !== undefined) console.error(JSON.stringify(answer.error));
}

async function on(api: Api, me: string, event: BotEvent): Promise<boolean> {
  switch (event.type) {
    case "challenge": {
      const challenge = event.challenge;
      const named = challenge.seats.slice(1).map((seat) => seat.account);
      if (challenge.status === "open" && named.includes(me) && !challenge.accepted.includes(me)) {
        const path = { challenge_id: challenge.id };
        await api.POST("/api/v1/challenges/{challenge_id}/accept", { params: { path } });
      }
      return true;
    }
    case "your_turn": {
      const { data } = await api.GET("/api/v1/games/{game_id}", {
        params: { path: { game_id: event.game_id } },
      });
      // Not its turn any more: the stand-in played it (a clock ran out).
      if (data !== undefined && data.you !== undefined && data.turn === data.you.seat) {
        await move(api, data);
      }
      return true;
    }
    case "game_finished":
      console.log(`finished ${event.game_id}`);
      return true;
    case "replaced":
      console.error("another stream of this account took over");
      return false;
    case "closed": // a new key is the owner's to give it, a disabled account the operator's
      console.error(`the stream was closed: ${event.reason}`);
      return false;
    case "game_started":
      return true;
  }
}

/** Each event of one stream, until it ends; false when the bot should stop. */
async function follow(api: Api, me: string): Promise<boolean> {
  const { data, error, response } = await api.GET("/api/v1/bot/events", {
    parseAs: "stream",
    headers: { Accept: "text/event-stream" },
  });
  if (data === null || data === undefined) {
    // The service away or busy: connect again; the key refused: no use trying again.
    if (response.status >= 500 || response.status === 429) return fail("no stream", error);
    console.error(`the stream was refused: ${JSON.stringify(error)}`);
    return false;
  }
  const reader = data.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return true;
    pending += value;
    const said = pending.split("\n");
    pending = said.pop() ?? "";
    for (const line of said) {
      if (!line.startsWith("data: ")) continue;
      const event: BotEvent = JSON.parse(line.slice(6));
      if (!(await on(api, me, event))) return false;
    }
  }
}

const [baseUrl] = process.argv.slice(2);
const key = process.env.POCHA_KEY;
if (baseUrl === undefined || key === undefined) {
  console.error("usage: POCHA_KEY=pa_... node build/bot.js URL");
  process.exit(2);
}
const api = connect(baseUrl, key, { account: key });
const own = await api.GET("/api/v1/account");
if (own.data === undefined) fail("the key opens no account", own.error);
for (;;) {
  try {
    if (!(await follow(api, own.data.id))) break;
  } catch (lost) {
    console.error(`no stream (${String(lost)}): connecting again`);
    await new Promise((resolve) => setTimeout(resolve, AGAIN_MS));
  }
}
