/**
 * The Pocha API for TypeScript: every path, body and answer typed from the committed
 * OpenAPI document (`src/schema.d.ts`, written by `npm run generate`), every request made
 * by openapi-fetch. A view is a union told apart by `game`, then by `phase`; once both are
 * known, `you.legal` has that phase's own type.
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type Schemas = components["schemas"];
/**
 * The media types whose answers the client reads as data: every one but the event
 * streams' `text/event-stream` (read a stream with `parseAs: "stream"` or an EventSource).
 * Left in, its text would widen the type of the JSON answer beside it: the events of
 * `GET .../events` would read as `string | Event[]`.
 */
export type Read = "application/json" | "application/schema+json" | "application/x-ndjson";
/** The API's client, as openapi-fetch types it from the document's paths. */
export type Api = Client<paths, Read>;
/** Either game's view, as every view and move answers. */
export type View = Schemas["GameView"] | Schemas["PochGameView"];

/** The keys a client may carry beside a seat's token. */
export interface Keys {
  /** An account's key (`pa_...`), sent in `X-Pocha-Account`: making games, challenges, webhooks. */
  account?: string;
  /** A server-side integrator's key (`pk_...`), sent in `X-Pocha-Key`: its limits, not the address's. */
  integrator?: string;
}

/**
 * The API at `baseUrl`, acting with a seat's (or the host's) `token` when given, and with
 * the `keys` given. The document names both keys as security schemes, so no operation's
 * parameters carry them: they go on every request. An account's key is also its seats'
 * bearer token: `connect(url, key, { account: key })`.
 */
export function connect(baseUrl: string, token?: string, keys: Keys = {}): Api {
  const headers: Record<string, string> = {};
  if (token !== undefined) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (keys.account !== undefined) {
    headers["X-Pocha-Account"] = keys.account;
  }
  if (keys.integrator !== undefined) {
    headers["X-Pocha-Key"] = keys.integrator;
  }
  return createClient<paths, Read>({ baseUrl, headers });
}
