// Cards in words, for display: the suit and rank of a code and a card's Spanish name. No
// rule of play is here: the view says what is legal, why the rest is refused
// (`you.refused`) and who is winning the trick (`winning`); it also sends hands sorted.

export const SUIT_NAMES = { O: "oros", C: "copas", E: "espadas", B: "bastos" };
const RANK_NAMES = { 1: "as", 10: "sota", 11: "caballo", 12: "rey" };

export function suitOf(code) {
  return code[0];
}

export function rankOf(code) {
  return Number(code.slice(1));
}

/** "O1" -> "as de oros", "C4" -> "4 de copas". */
export function cardName(code) {
  const rank = rankOf(code);
  return `${RANK_NAMES[rank] ?? rank} de ${SUIT_NAMES[suitOf(code)]}`;
}
