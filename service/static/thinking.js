// What a bot's search thought of a move, put into figures the same way wherever the page
// shows it: a hint's reason on the game page, and the advice beside each decision on the
// replay page (the bot's own as it played, or a level's asked for).

/** The share of the search's time a move had (0 to 1), as a whole percentage: 0.426 -> 43. */
export const percent = (share) => Math.round(share * 100);

/** A score the search expected, signed and to a tenth (+12.5, -3.0, 0.0); "" for none. */
export function expected(score) {
  if (score === null || score === undefined) return "";
  return (score > 0 ? "+" : "") + score.toFixed(1);
}
