/**
 * Plays one whole game against two bots with the typed client: `node build/play.js URL
 * pocha` (or `poch`). It creates the game, then on each of its seat's turns tells the view
 * apart by `game` and `phase` and sends an entry of `you.legal`, whose type the phase
 * already fixed, to that phase's endpoint; between turns it reads the view again. It prints
 * one JSON line: the game, its final phase, each phase this seat acted in, and the moves.
 */
import { connect, type Api, type Schemas, type View } from "./client.js";

type Game = "pocha" | "poch";
type Call = "pass" | "hold" | number;
type Suit = "C" | "S" | "H" | "D";

/** How long one wait for this seat's turn may last, in milliseconds. */
const TURN_WAIT_MS = 120_000;
/** How often a waiting seat reads its view again. */
const POLL_MS = 100;

interface Report {
  game: Game;
  phase: string;
  acted: string[];
  moves: number;
  winners: number[];
  /** The `seq` of the game's last event, from its JSON list of events. */
  events: number;
}

function fail(what: string, error: unknown): never {
  throw new Error(`${what}: ${JSON.stringify(error)}`);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An entry of `legal`, a different one from move to move. */
function pick<T>(legal: T[], move: number): T {
  const chosen = legal[move % legal.length];
  if (chosen === undefined) {
    throw new Error("nothing is legal");
  }
  return chosen;
}

async function create(api: Api, game: Game): Promise<{ id: string; token: string }> {
  const players: Schemas["Player"][] = [
    { name: "Ana" },
    { name: "B", bot: "easy" },
    { name: "C", bot: "random" },
  ];
  const { data, error } =
    game === "pocha"
      ? await api.POST("/api/v1/games", {
          body: { game, players, rules: { schedule: [1, 2] } },
        })
      : await api.POST("/api/v1/games", {
          body: { game, players, rules: { chips: 30, deals: 2 } },
        });
  if (data === undefined) {
    return fail("create", error);
  }
  const token = data.seats[0]?.token;
  if (token === undefined) {
    return fail("create: seat 0 has no token", data);
  }
  return { id: data.id, token };
}

/** The `seq` of the game's last event: the JSON list's, typed as events (no text). */
async function lastEvent(api: Api, id: string): Promise<number> {
  const { data, error } = await api.GET("/api/v1/games/{game_id}/events", {
    params: { path: { game_id: id } },
  });
  if (data === undefined) {
    return fail("events", error);
  }
  return data.at(-1)?.seq ?? 0;
}

async function see(api: Api, id: string): Promise<View> {
  const { data, error } = await api.GET("/api/v1/games/{game_id}", {
    params: { path: { game_id: id } },
  });
  if (data === undefined) {
    return fail("view", error);
  }
  return data;
}

/** The view once this seat has something to decide, or the game is over. */
async function awaitTurn(api: Api, id: string): Promise<View> {
  const deadline = Date.now() + TURN_WAIT_MS;
  for (;;) {
    const view = await see(api, id);
    const over = view.phase === "finished" || view.phase === "over";
    if (over || (view.you !== undefined && view.you.legal.length > 0)) {
      return view;
    }
    if (Date.now() > deadline) {
      return fail("no turn came", { phase: view.phase, turn: view.turn });
    }
    await pause(POLL_MS);
  }
}

const bid = (api: Api, id: string, bid: number) =>
  api.POST("/api/v1/games/{game_id}/bids", { params: { path: { game_id: id } }, body: { bid } });
const card = (api: Api, id: string, card: string) =>
  api.POST("/api/v1/games/{game_id}/plays", { params: { path: { game_id: id } }, body: { card } });
const bet = (api: Api, id: string, bet: Call) =>
  api.POST("/api/v1/games/{game_id}/bets", { params: { path: { game_id: id } }, body: { bet } });
const suit = (api: Api, id: string, suit: Suit) =>
  api.POST("/api/v1/games/{game_id}/suits", { params: { path: { game_id: id } }, body: { suit } });

/** This seat's one decision in `view` (a Pocha view), or the report once the game is over. */
async function decidePocha(api: Api, view: Schemas["GameView"], move: number): Promise<Report | null> {
  switch (view.phase) {
    case "bidding": {
      if (view.you === undefined) return fail("a spectator's view", view.phase);
      const bids: number[] = view.you.legal;
      const { error } = await bid(api, view.id, pick(bids, move));
      return error === undefined ? null : fail("bid", error);
    }
    case "playing": {
      if (view.you === undefined) return fail("a spectator's view", view.phase);
      const cards: string[] = view.you.legal;
      const { error } = await card(api, view.id, pick(cards, move));
      return error === undefined ? null : fail("play", error);
    }
    case "finished":
      return { game: view.game, phase: view.phase, acted: [], moves: move, winners: view.winners, events: 0 };
    case "waiting":
      return fail("the game waits for people", view.phase);
  }
}

/** The same for a Poch view, in each of its phases. */
async function decidePoch(api: Api, view: Schemas["PochGameView"], move: number): Promise<Report | null> {
  switch (view.phase) {
    case "betting": {
      if (view.you === undefined) return fail("a spectator's view", view.phase);
      const calls: Call[] = view.you.legal;
      const { error } = await bet(api, view.id, pick(calls, move));
      return error === undefined ? null : fail("bet", error);
    }
    case "starting": {
      if (view.you === undefined) return fail("a spectator's view", view.phase);
      const starts: string[] = view.you.legal;
      const { error } = await card(api, view.id, pick(starts, move));
      return error === undefined ? null : fail("start", error);
    }
    case "choosing": {
      if (view.you === undefined) return fail("a spectator's view", view.phase);
      const suits: Suit[] = view.you.legal;
      const { error } = await suit(api, view.id, pick(suits, move));
      return error === undefined ? null : fail("suit", error);
    }
    case "over": {
      const winners = view.result === null ? [] : view.result.winners;
      return { game: view.game, phase: view.phase, acted: [], moves: move, winners, events: 0 };
    }
    case "waiting":
      return fail("the game waits for people", view.phase);
  }
}

export async function play(baseUrl: string, game: Game): Promise<Report> {
  const created = await create(connect(baseUrl), game);
  const me = connect(baseUrl, created.token);
  const acted = new Set<string>();
  for (let move = 0; ; move++) {
    const view = await awaitTurn(me, created.id);
    const over =
      view.game === "pocha" ? await decidePocha(me, view, move) : await decidePoch(me, view, move);
    if (over !== null) {
      return { ...over, acted: [...acted], events: await lastEvent(me, created.id) };
    }
    acted.add(view.phase);
  }
}

const [baseUrl, game] = process.argv.slice(2);
if (baseUrl === undefined || (game !== "pocha" && game !== "poch")) {
  console.error("usage: node build/play.js URL pocha|poch");
  process.exit(2);
}
console.log(JSON.stringify(await play(baseUrl, game)));
