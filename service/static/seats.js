// The seats this browser holds, in localStorage: for each game its id, the seat, the seat's
// token, the host token (for whoever made the table) and the table's code, so that opening
// a table's link (`/t/CODE`) goes back to the seat held there, and a reload resumes the game
// last played (`pocha.game`, as before tables existed). A seat kept with no token (null) is
// one the signed-in account holds, opened by the account's key (account.js, `SeatApi`).
// Every tab of the browser shares them: a tab hears of another's changes (`followSeats`).
// A seat the host removed its person from is kept as such a while (`{id, removed: true}`,
// opening nothing), so that every tab showing it says why it went, whichever learnt it.

import { onStorageChange } from "./storage.js";

const CURRENT_KEY = "pocha.game";
const SEATS_KEY = "pocha.seats";
// The most seats remembered: the oldest go first.
const KEEP = 30;

/** "abcd efgh", "ABCD-EFGH" -> "ABCDEFGH": codes compared as the server reads them. */
export function plainCode(code) {
  return String(code || "").toUpperCase().replace(/[\s-]/g, "");
}

function allSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    return seats && typeof seats === "object" ? seats : {};
  } catch {
    return {};
  }
}

function keep(seats) {
  const entries = Object.entries(seats).sort((a, b) => (b[1].saved || 0) - (a[1].saved || 0));
  localStorage.setItem(SEATS_KEY, JSON.stringify(Object.fromEntries(entries.slice(0, KEEP))));
}

/** Remember `game` ({id, token, seat, hostToken, code}) and make it the current game. */
export function saveSeat(game) {
  const seats = allSeats();
  seats[game.id] = { ...game, saved: Date.now() };
  keep(seats);
  localStorage.setItem(CURRENT_KEY, JSON.stringify(game));
}

/** The game a reload resumes, or null. */
export function currentSeat() {
  try {
    return JSON.parse(localStorage.getItem(CURRENT_KEY) || "null");
  } catch {
    return null;
  }
}

/** The seat held in game `id`, or null. */
export function seatOf(id) {
  const seat = allSeats()[id];
  return seat && !seat.removed ? seat : null;
}

/** Whether the host removed this browser's person from game `id` (`forgetSeat`). */
export function removedFrom(id) {
  return allSeats()[id]?.removed === true;
}

/** The seat held at the table with this code (the latest, for a code seen twice), or null. */
export function seatAt(code) {
  const wanted = plainCode(code);
  const found = Object.values(allSeats())
    .filter((g) => !g.removed && g.code && plainCode(g.code) === wanted)
    .sort((a, b) => (b.saved || 0) - (a.saved || 0));
  return found[0] ?? null;
}

/**
 * Forget the seat of game `id` (and the current game, if it is that one); `removed`: the
 * host removed its person (`removedFrom` says so until the seat is taken again).
 */
export function forgetSeat(id, removed = false) {
  const seats = allSeats();
  delete seats[id];
  if (removed) seats[id] = { id, removed: true, saved: Date.now() };
  keep(seats);
  if (currentSeat()?.id === id) localStorage.removeItem(CURRENT_KEY);
}

/**
 * Follow the seats as another tab of this browser changes them (a seat taken or left, a
 * game made current): `changed()` runs on each change (the `storage` event).
 */
export function followSeats(changed) {
  onStorageChange([SEATS_KEY, CURRENT_KEY], changed);
}

/** Stop resuming the current game on reload (its seat stays known by its code). */
export function forgetCurrent() {
  localStorage.removeItem(CURRENT_KEY);
}
