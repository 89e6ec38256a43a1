// The rules a front end needs to explain itself: card names, trick state, and why a card
// or a bid is not playable now. The server stays the judge of what is legal (`you.legal`
// in the view); this module only puts the reason into words, with the same obligations
// and the same sentences as the engine's `engine/legality.py` (a test compares the two).

export const SUIT_CODES = ["O", "C", "E", "B"];
export const SUIT_NAMES = { O: "oros", C: "copas", E: "espadas", B: "bastos" };
const RANK_NAMES = { 1: "as", 10: "sota", 11: "caballo", 12: "rey" };
// Ranks from weakest to strongest, as in engine/cards.py.
const RANKS_BY_STRENGTH = [2, 4, 5, 6, 7, 10, 11, 12, 3, 1];

export function suitOf(code) {
  return code[0];
}

export function rankOf(code) {
  return Number(code.slice(1));
}

export function strength(code) {
  return RANKS_BY_STRENGTH.indexOf(rankOf(code));
}

/** "O1" -> "as de oros", "C4" -> "4 de copas". */
export function cardName(code) {
  const rank = rankOf(code);
  return `${RANK_NAMES[rank] ?? rank} de ${SUIT_NAMES[suitOf(code)]}`;
}

/** Cards grouped by suit (O, C, E, B), strongest first: the engine's order. */
export function sortCards(cards) {
  return [...cards].sort(
    (a, b) =>
      SUIT_CODES.indexOf(suitOf(a)) - SUIT_CODES.indexOf(suitOf(b)) || strength(b) - strength(a),
  );
}

/** Whether `card` beats `best` (the card winning so far) given the trump suit. */
function beats(card, best, trump) {
  if (suitOf(card) === suitOf(best)) return strength(card) > strength(best);
  return suitOf(card) === trump;
}

/** The trick on the table summed up: its lead suit and the card winning it (or nulls). */
export function trickState(trick, trump) {
  if (!trick.length) return { lead: null, win: null };
  let win = trick[0].card;
  for (const { card } of trick.slice(1)) if (beats(card, win, trump)) win = card;
  return { lead: suitOf(trick[0].card), win };
}

/** The cards of `hand` that may be played on `trick`: engine.legality.legal_cards. */
export function legalCards(hand, trick, trump, rules) {
  const { lead, win } = trickState(trick, trump);
  if (lead === null) return [...hand];
  const follow = hand.filter((c) => suitOf(c) === lead);
  if (follow.length) {
    if (rules.montar && suitOf(win) === lead) {
      const higher = follow.filter((c) => strength(c) > strength(win));
      if (higher.length) return higher;
    }
    return follow;
  }
  if (rules.fallar) {
    const trumps = hand.filter((c) => suitOf(c) === trump);
    if (trumps.length) {
      if (suitOf(win) === trump && rules.pisar) {
        const higher = trumps.filter((c) => strength(c) > strength(win));
        return higher.length ? higher : [...hand];
      }
      return trumps;
    }
  }
  return [...hand];
}

const list = (cards) => sortCards(cards).join(", ");

/** Why `card` may not be played now, as the engine says it (null if it may). */
export function illegalReason(card, hand, trick, trump, rules) {
  if (!hand.includes(card)) return `you do not hold ${card}: you hold ${list(hand)}`;
  const legal = legalCards(hand, trick, trump, rules);
  if (legal.includes(card)) return null;
  const { lead, win } = trickState(trick, trump);
  const follow = hand.filter((c) => suitOf(c) === lead);
  if (follow.length) {
    if (suitOf(card) !== lead) {
      return `you must follow ${SUIT_NAMES[lead]}: you hold ${list(follow)}`;
    }
    return `you must beat the ${win}: you hold ${list(legal)}`;
  }
  const trumps = hand.filter((c) => suitOf(c) === trump);
  if (suitOf(win) === trump && rules.pisar && suitOf(card) === trump) {
    return `you must beat the ${win} with a higher trump: you hold ${list(legal)}`;
  }
  if (suitOf(win) === trump && rules.pisar) {
    return (
      `you have no ${SUIT_NAMES[lead]}, so you must beat the trump ${win}: ` +
      `you hold ${list(legal)}`
    );
  }
  return (
    `you have no ${SUIT_NAMES[lead]}, so you must play a trump ` +
    `(${SUIT_NAMES[trump]}): you hold ${list(trumps)}`
  );
}

/**
 * Why each card of the seat's hand is not playable now: {code: sentence}. Which cards
 * are playable is the server's `legal` list; a card it refuses that these rules would
 * allow (they should never disagree) still gets a sentence.
 */
export function handReasons(view) {
  const reasons = {};
  const you = view.you;
  if (!you) return reasons;
  const myTurn = view.turn === you.seat;
  for (const card of you.hand) {
    if (view.phase !== "playing" || !myTurn) continue;
    if (you.legal.includes(card)) continue;
    const trump = suitOf(view.trump.card);
    reasons[card] =
      illegalReason(card, you.hand, view.trick, trump, view.rules) ?? "not playable now";
  }
  return reasons;
}

/** Why a bid is not allowed now (null if it is): the range, or the dealer's restriction. */
export function bidReason(bid, view) {
  const legal = view.you?.legal ?? [];
  if (legal.includes(bid)) return null;
  const cards = view.cards_per_player;
  if (bid < 0 || bid > cards) return `a bid is from 0 to ${cards}`;
  const others = view.bids.reduce((sum, b) => sum + (b ?? 0), 0);
  if (view.rules.dealer_restriction && view.dealer === view.you.seat && others + bid === cards) {
    const noun = cards === 1 ? "card" : "cards";
    return `as dealer you may not bid ${bid}: the bids would add up to the ${cards} ${noun} in play`;
  }
  return "not allowed now";
}
