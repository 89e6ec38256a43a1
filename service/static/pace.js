// How long things stay on screen (ms), for both tables of the page: Pocha's (app.js) and
// Poch's (poch.js), so the page's pace is tuned in one place. A reader who asks for reduced
// motion waits for none of them (app.js's `sleep`).

// Pocha: a flying card, a won trick, a bid.
export const FLY_MS = 380;
export const TRICK_HOLD_MS = 900;
export const BID_MS = 250;
// Poch: chips paid, a bet, the sets shown, a card played, a finished deal, flying chips.
export const ANTE_MS = 600;
export const DEAL_MS = 500;
export const COLLECT_MS = 550;
export const BET_MS = 500;
export const SHOWDOWN_MS = 1800;
export const POT_MS = 900;
export const CARD_MS = 240;
export const DEAL_WON_MS = 1800;
export const CHIP_FLY_MS = 420;
