import { connect } from "./client.js";

const url = process.argv[2] ?? "http://localhost:8000";
const created = await connect(url).POST("/api/v1/games", {
  body: { game: "poch", players: [{ name: "Ana" }, { name: "B", bot: "easy" }, { name: "C", bot: "easy" }] },
});
const game = created.data; // openapi-fetch answers a refusal in `error`, it does not throw it
const token = game?.seats[0]?.token;
if (game === undefined || token === undefined) throw new Error(`no game: ${JSON.stringify(created.error)}`);
const ana = connect(url, token);
const path = { game_id: game.id };
async function see() {
  const { data, error } = await ana.GET("/api/v1/games/{game_id}", { params: { path } });
  if (data === undefined) throw new Error(`no view: ${JSON.stringify(error)}`);
  return data;
}
let view = await see();
while (view.turn !== 0 && view.phase !== "over") { // the bots before Ana bet first: wait for her turn
  await new Promise((resolve) => setTimeout(resolve, 200));
  view = await see();
}
if (view.game === "poch" && view.phase === "betting" && view.you !== undefined) {
  const calls: ("pass" | "hold" | number)[] = view.you.legal; // the phase typed it: no cast
  const bet = calls[0] ?? "pass";
  const { error } = await ana.POST("/api/v1/games/{game_id}/bets", { params: { path }, body: { bet } });
  if (error !== undefined) throw new Error(`bet ${bet} refused: ${JSON.stringify(error)}`);
  console.log(`game ${game.id}: Ana bet ${bet}`);
}
