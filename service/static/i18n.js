// Every sentence of the page, in English and Spanish, and `t(key, params)` to get one in the
// language chosen: from the browser's languages (navigator.languages) until the person picks
// one in the page, then as picked (remembered in localStorage). Both languages keep the
// game's own Spanish words: baza, triunfo, palo, mano, asistir, montar, fallar, pisar.
//
// The strings are keyed by stable names. When the server serves the page's catalogue (a
// `<meta name="pocha-i18n" content="/i18n/">` in index.html says where: `{lang}.json`, an
// object of key -> text, from the Babel catalogues under msgctxt "page"), `loadCatalogue`
// fetches it and its texts take the place of the bundled ones; any key it lacks, or a
// catalogue that cannot be had, falls back to the strings below. `{name}` in a text is
// replaced by `params.name`; params are put in as given (escape them before, for markup).

const LANG_KEY = "pocha.lang";

/** The languages the page speaks, by code, each named in itself. */
export const LANGUAGES = { en: "English", es: "Español" };

const EN = {
  language: "Language",
  you: "You",
  "seat.n": "Seat {n}",
  "seat.open": "open seat",
  "seat.you": "you",
  "seat.total": "total points",
  "seat.bid": "bid",
  "seat.bidShort": "bid",
  "seat.won": "bazas won",
  "seat.wonShort": "won",
  "seat.cards": "{n} cards",
  "seats.label": "Players: bid, bazas won, total",
  "presence.here": "at the table",
  "presence.gone": "not seen lately",
  "badge.away": "away",
  "badge.left": "left",
  "badge.standIn": "stand-in",
  "role.dealer": "dealer",
  "role.mano": "mano",
  "clock.title": "Time left for this turn; then the stand-in bot plays it",
  "clock.seconds": "{n} s",
  "away.you": "You were away: the stand-in bot is playing your turns.",
  "away.back": "I'm back",
  "back.done": "Welcome back: your turns are yours again.",

  "setup.title": "New game",
  "setup.lead":
    "Against bots, or at a table with friends: bid how many bazas you will win, then win exactly that many.",
  "setup.name": "Your name",
  "setup.seed": "Seed",
  "setup.random": "random",
  "setup.seats": "Seats",
  "setup.seatsHelp": "A bot of a level, or a person who joins by the table's code or link.",
  "setup.allBots": "All bots",
  "setup.person": "a person",
  "setup.listed": "listed in the lobby",
  "setup.listedHelp": "Anyone can sit down from the list of public tables; otherwise only with the code.",
  "setup.standIn": "Stand-in bot",
  "setup.deal": "Deal",
  "setup.openTable": "Open the table",
  "setup.dealing": "Dealing…",
  "setup.opening": "Opening the table…",

  "rules.title": "Rules",
  "rules.short": "Short: 1, 2 and 3 cards",
  "rules.custom": "Custom…",
  "rules.cardsPerHand": "Cards per hand",
  "rules.countsError": "List the cards of each hand as whole numbers, such as 1,2,3.",
  "rules.players": "{n} players",
  "rules.schedule": "hands: {schedule}",
  "rules.clock": "{n} s a turn",
  "rules.noClock": "no clock",

  "join.byCode": "Join a table",
  "join.code": "Table code",
  "join.go": "Join",
  "join.tableTitle": "Table {code}",
  "join.take": "Take a seat",
  "join.full": "Every seat at this table is taken.",
  "join.started": "The game at this table has started: no seat is left.",
  "join.notFound": "No table has the code {code}.",
  "join.toLobby": "Back to the lobby",

  "lobby.title": "Public tables",
  "lobby.loading": "Looking for tables…",
  "lobby.empty": "No public table is waiting for players now. Open one!",
  "lobby.sit": "Sit down",
  "lobby.oneOpen": "1 open seat",
  "lobby.openSeats": "{n} open seats",

  "waiting.lead": "Waiting for {n} more players. Share the link or the code.",
  "waiting.leadOne": "Waiting for 1 more player. Share the link or the code.",
  "waiting.link": "The table's link",
  "waiting.copy": "Copy link",
  "waiting.copied": "Link copied.",
  "waiting.copyByHand": "The link is selected: copy it by hand.",
  "waiting.botLevel": "Bots",
  "waiting.startWithBots": "Start now, bots in the open seats",
  "waiting.start": "Start",
  "waiting.botHere": "Bot here",
  "waiting.hostStarts": "The game starts when every seat is taken, or when the host starts it.",

  "event.seatTaken": "{name} sat down.",
  "event.started": "The game starts!",
  "event.away": "{name} is away: the stand-in bot plays for them.",
  "event.youAway": "You are away: the stand-in bot plays your turns.",
  "event.back": "{name} is back.",
  "event.left": "{name} left: the stand-in bot plays their seat.",
  "event.standIn": "The stand-in played for {name}.",
  "event.scored": "Hand scored: {points}",

  "hand.title": "Hand {n} of {total}",
  "hand.tiebreak": "Tiebreak {n}",
  "hand.oneCard": "1 card each",
  "hand.cards": "{n} cards each",
  "hand.yours": "Your hand",
  "bids.label": "Your bid",
  "bids.yours": "Your bid:",
  "card.notPlayable": "not playable",
  "reasons.notBid": "Not {n}: {why}",
  "trump.label": "Triunfo",
  "trump.title": "Triunfo: {suit}",
  "trump.turnedUp": "turned up",
  "trump.heldBy": "held by {name}",
  "trick.winning": "winning",
  "trick.wins": "wins",
  "trick.last": "Last baza:",
  "table.bidding": "Bidding…",
  "table.youLead": "You lead",
  "table.leads": "{name} leads",
  "status.over": "Game over",
  "status.yourBid": "Your turn: bid",
  "status.yourCard": "Your turn: play a card",
  "status.bidding": "{name} is bidding…",
  "status.playing": "{name} is playing…",

  "hint.button": "Hint",
  "hint.asking": "Asking the bots…",
  "hint.says": "Hint: {what}.",
  "hint.bid": "bid {n}",
  "hint.play": "play the {card}",
  "hint.why": "The search spent {share}% of its time there, for {points} points on average.",
  "hint.none": "No hint: {message}",
  "refused.bid": "You may not bid {n}: {why}.",
  "refused.card": "The {card} is not playable: {why}.",

  "sheet.title": "Score sheet",
  "sheet.hand": "Hand",
  "sheet.cards": "Cards",
  "sheet.cardsTitle": "cards each",
  "sheet.trump": "Triunfo",
  "sheet.total": "Total",
  "sheet.legend": "bid/won · points · running total",

  "final.label": "Final result",
  "final.close": "Close: see the score sheet",
  "final.youWin": "You win!",
  "final.youShare": "You share the win!",
  "final.theyWin": "{names} wins",
  "final.theyShare": "{names} share the win",
  "final.and": " and ",
  "final.rematch": "Rematch",
  "final.joinRematch": "Take your seat at the rematch",

  "game.new": "New game",
  "game.leave": "Leave game",
  "game.leaveTable": "Leave the table",
  "game.id": "Game {id}",
  "game.table": "Table {code}",
  "leave.confirmSolo": "Leave this game? It will be deleted.",
  "leave.confirmWaiting": "Leave this table? Your seat opens again for someone else.",
  "leave.confirmPlaying": "Leave this game? The stand-in bot plays your seat to the end.",

  "error.noService": "The service does not answer: {message}",
  "error.network": "No answer from the service: {message}",
  "error.create": "Cannot create the game: {message}",
  "error.gone": "That game is no longer on the server (deleted or expired).",
  "error.notSeated": "This seat is no longer yours.",

  "level.random": "random",
  "level.heuristic": "heuristic",
  "level.easy": "easy",
  "level.medium": "medium",
  "level.hard": "hard",
  "level.expert": "expert",
};

const ES = {
  language: "Idioma",
  you: "Tú",
  "seat.n": "Asiento {n}",
  "seat.open": "asiento libre",
  "seat.you": "tú",
  "seat.total": "puntos en total",
  "seat.bid": "apuesta",
  "seat.bidShort": "apuesta",
  "seat.won": "bazas ganadas",
  "seat.wonShort": "bazas",
  "seat.cards": "{n} cartas",
  "seats.label": "Jugadores: apuesta, bazas ganadas, total",
  "presence.here": "en la mesa",
  "presence.gone": "sin verse hace rato",
  "badge.away": "ausente",
  "badge.left": "se fue",
  "badge.standIn": "suplente",
  "role.dealer": "reparte",
  "role.mano": "mano",
  "clock.title": "Tiempo que queda para este turno; luego lo juega el bot suplente",
  "clock.seconds": "{n} s",
  "away.you": "Estabas ausente: el bot suplente juega tus turnos.",
  "away.back": "Ya estoy",
  "back.done": "Bienvenido de nuevo: vuelves a jugar tú.",

  "setup.title": "Partida nueva",
  "setup.lead":
    "Contra bots, o en una mesa con amigos: apuesta cuántas bazas ganarás y gana exactamente esas.",
  "setup.name": "Tu nombre",
  "setup.seed": "Semilla",
  "setup.random": "al azar",
  "setup.seats": "Asientos",
  "setup.seatsHelp": "Un bot de un nivel, o una persona que entra con el código o el enlace de la mesa.",
  "setup.allBots": "Todos los bots",
  "setup.person": "una persona",
  "setup.listed": "en la lista de mesas",
  "setup.listedHelp": "Cualquiera puede sentarse desde la lista de mesas públicas; si no, solo con el código.",
  "setup.standIn": "Bot suplente",
  "setup.deal": "Repartir",
  "setup.openTable": "Abrir la mesa",
  "setup.dealing": "Repartiendo…",
  "setup.opening": "Abriendo la mesa…",

  "rules.title": "Reglas",
  "rules.short": "Corta: 1, 2 y 3 cartas",
  "rules.custom": "A medida…",
  "rules.cardsPerHand": "Cartas por mano",
  "rules.countsError": "Escribe las cartas de cada mano como números enteros, por ejemplo 1,2,3.",
  "rules.players": "{n} jugadores",
  "rules.schedule": "manos: {schedule}",
  "rules.clock": "{n} s por turno",
  "rules.noClock": "sin reloj",

  "join.byCode": "Entrar en una mesa",
  "join.code": "Código de la mesa",
  "join.go": "Entrar",
  "join.tableTitle": "Mesa {code}",
  "join.take": "Sentarme",
  "join.full": "Todos los asientos de esta mesa están ocupados.",
  "join.started": "La partida de esta mesa ya ha empezado: no queda asiento.",
  "join.notFound": "Ninguna mesa tiene el código {code}.",
  "join.toLobby": "Volver a las mesas",

  "lobby.title": "Mesas públicas",
  "lobby.loading": "Buscando mesas…",
  "lobby.empty": "Ahora no hay mesas públicas esperando jugadores. ¡Abre una!",
  "lobby.sit": "Sentarme",
  "lobby.oneOpen": "1 asiento libre",
  "lobby.openSeats": "{n} asientos libres",

  "waiting.lead": "Faltan {n} jugadores. Comparte el enlace o el código.",
  "waiting.leadOne": "Falta 1 jugador. Comparte el enlace o el código.",
  "waiting.link": "El enlace de la mesa",
  "waiting.copy": "Copiar enlace",
  "waiting.copied": "Enlace copiado.",
  "waiting.copyByHand": "El enlace está seleccionado: cópialo a mano.",
  "waiting.botLevel": "Bots",
  "waiting.startWithBots": "Empezar ya, con bots en los asientos libres",
  "waiting.start": "Empezar",
  "waiting.botHere": "Bot aquí",
  "waiting.hostStarts": "La partida empieza cuando se ocupan todos los asientos, o cuando la empieza el anfitrión.",

  "event.seatTaken": "{name} se ha sentado.",
  "event.started": "¡Empieza la partida!",
  "event.away": "{name} está ausente: juega por él el bot suplente.",
  "event.youAway": "Estás ausente: el bot suplente juega tus turnos.",
  "event.back": "{name} ha vuelto.",
  "event.left": "{name} se ha ido: el bot suplente juega su asiento.",
  "event.standIn": "El suplente ha jugado por {name}.",
  "event.scored": "Mano puntuada: {points}",

  "hand.title": "Mano {n} de {total}",
  "hand.tiebreak": "Desempate {n}",
  "hand.oneCard": "1 carta cada uno",
  "hand.cards": "{n} cartas cada uno",
  "hand.yours": "Tus cartas",
  "bids.label": "Tu apuesta",
  "bids.yours": "Tu apuesta:",
  "card.notPlayable": "no se puede jugar",
  "reasons.notBid": "{n} no: {why}",
  "trump.label": "Triunfo",
  "trump.title": "Triunfo: {suit}",
  "trump.turnedUp": "vuelto boca arriba",
  "trump.heldBy": "lo tiene {name}",
  "trick.winning": "gana",
  "trick.wins": "se la lleva",
  "trick.last": "Última baza:",
  "table.bidding": "Apuestas…",
  "table.youLead": "Sales tú",
  "table.leads": "Sale {name}",
  "status.over": "Fin de la partida",
  "status.yourBid": "Te toca: apuesta",
  "status.yourCard": "Te toca: juega una carta",
  "status.bidding": "{name} está apostando…",
  "status.playing": "{name} está jugando…",

  "hint.button": "Pista",
  "hint.asking": "Preguntando a los bots…",
  "hint.says": "Pista: {what}.",
  "hint.bid": "apuesta {n}",
  "hint.play": "juega el {card}",
  "hint.why": "La búsqueda pasó ahí el {share}% de su tiempo, para {points} puntos de media.",
  "hint.none": "Sin pista: {message}",
  "refused.bid": "No puedes apostar {n}: {why}.",
  "refused.card": "El {card} no se puede jugar: {why}.",

  "sheet.title": "Hoja de puntos",
  "sheet.hand": "Mano",
  "sheet.cards": "Cartas",
  "sheet.cardsTitle": "cartas cada uno",
  "sheet.trump": "Triunfo",
  "sheet.total": "Total",
  "sheet.legend": "apuesta/bazas · puntos · total",

  "final.label": "Resultado final",
  "final.close": "Cerrar: ver la hoja de puntos",
  "final.youWin": "¡Has ganado!",
  "final.youShare": "¡Compartes la victoria!",
  "final.theyWin": "Gana {names}",
  "final.theyShare": "Comparten la victoria {names}",
  "final.and": " y ",
  "final.rematch": "Revancha",
  "final.joinRematch": "Sentarme en la revancha",

  "game.new": "Partida nueva",
  "game.leave": "Dejar la partida",
  "game.leaveTable": "Dejar la mesa",
  "game.id": "Partida {id}",
  "game.table": "Mesa {code}",
  "leave.confirmSolo": "¿Dejar esta partida? Se borrará.",
  "leave.confirmWaiting": "¿Dejar esta mesa? Tu asiento queda libre para otra persona.",
  "leave.confirmPlaying": "¿Dejar esta partida? El bot suplente jugará tu asiento hasta el final.",

  "error.noService": "El servicio no responde: {message}",
  "error.network": "El servicio no responde: {message}",
  "error.create": "No se pudo crear la partida: {message}",
  "error.gone": "Esa partida ya no está en el servidor (borrada o caducada).",
  "error.notSeated": "Este asiento ya no es tuyo.",

  "level.random": "al azar",
  "level.heuristic": "reglas",
  "level.easy": "fácil",
  "level.medium": "medio",
  "level.hard": "difícil",
  "level.expert": "experto",

  "rule.players": "Jugadores",
  "rule.dealer_restriction": "restricción del que da",
  "rule.exact_bonus": "Premio por acertar",
  "rule.tiebreak": "desempate",
  "rule.schedule": "Manos",
  "rule.turn_seconds": "Segundos por turno",
  "rule.per_trick": "Puntos por baza",
  "rule.penalty": "Penalización",
};

// The bundled texts; a catalogue from the server is laid over them.
const STRINGS = { en: { ...EN }, es: { ...ES } };

function fromBrowser() {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = String(tag || "").slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return "en";
}

let current = null;

/** The page's language: as picked in the page, else the browser's first we speak. */
export function language() {
  if (current) return current;
  let saved = null;
  try {
    saved = localStorage.getItem(LANG_KEY);
  } catch {
    // No storage (a private window may refuse it): the browser's language.
  }
  current = saved in LANGUAGES ? saved : fromBrowser();
  return current;
}

/** Pick the page's language (remembered in this browser). */
export function setLanguage(code) {
  if (!(code in LANGUAGES)) return;
  current = code;
  localStorage.setItem(LANG_KEY, code);
}

/** The text of `key` in the page's language, with `{name}` replaced by `params.name`. */
export function t(key, params = {}) {
  const text = STRINGS[language()]?.[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A bot level's name in the page's language (the level's own name when not known). */
export function levelName(level) {
  const key = `level.${level}`;
  const text = t(key);
  return text === key ? level : text;
}

/** A rule option's label: the page's own for the language, else `fallback`. */
export function ruleLabel(name, fallback) {
  const key = `rule.${name}`;
  const text = STRINGS[language()]?.[key];
  return text ?? fallback;
}

/**
 * The server's catalogue of the page's strings for the language, if index.html says where
 * it is: its texts replace the bundled ones. Without one, or when it cannot be read, the
 * bundled strings stay (never an error for the person).
 */
export async function loadCatalogue() {
  const where = document.querySelector('meta[name="pocha-i18n"]')?.getAttribute("content");
  if (!where) return;
  const lang = language();
  try {
    const response = await fetch(`${where}${lang}.json`, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const texts = await response.json();
    for (const [key, text] of Object.entries(texts)) {
      if (typeof text === "string" && text) STRINGS[lang][key] = text;
    }
  } catch {
    // The bundled strings serve.
  }
}
