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

/**
 * The API at `baseUrl`, acting with a seat's (or the host's) `token` when given, and as the
 * account whose `accountKey` is given (sent in `X-Pocha-Account`, a security scheme of the
 * document, so no operation's parameters name it): making games, challenges, webhooks.
 * An account's key is also its seats' bearer token: `connect(url, key, key)`.
 */
export function connect(baseUrl: string, token?: string, accountKey?: string): Api {
  const headers: Record<string, string> = {};
  if (token !== undefined) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (accountKey !== undefined) {
    headers["X-Pocha-Account"] = accountKey;
  }
  return createClient<paths, Read>({ baseUrl, headers });
}

