import { connect } from "./client.js";

const url = "http://localhost:8000";
const { data: game } = await connect(url).POST("/api/v1/games", {
  body: { game: "poch", players: [{ name: "Ana" }, { name: "B", bot: "easy" }, { name: "C", bot: "easy" }] },
});
const token = game?.seats[0]?.token;
if (game === undefined || token === undefined) throw new Error("no game");
const ana = connect(url, token);
const path = { game_id: game.id };
const { data: view } = await ana.GET("/api/v1/games/{game_id}", { params: { path } });
if (view?.game === "poch" && view.phase === "betting" && view.you !== undefined) {
  const calls: ("pass" | "hold" | number)[] = view.you.legal; // the phase typed it: no cast
  await ana.POST("/api/v1/games/{game_id}/bets", { params: { path }, body: { bet: calls[0] ?? "pass" } });
}
