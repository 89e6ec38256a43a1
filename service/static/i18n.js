// Every sentence of the page, in English and Spanish, and `t(key, params)` to get one in the
// language chosen: from the browser's languages (navigator.languages) until the person picks
// one in the page, then as picked (remembered in localStorage). Both languages keep the
// game's own Spanish words: baza, triunfo, palo, mano, asistir, montar, fallar, pisar; and
// Poch's own German ones: the plates (Ass, König, ..., Mariage, Sequenz, Poch), the calls
// (Passe, Halte, Poche, Erhöhe), Pochen, Vorhand, Kasse, Trumpf, Ausspielen.
//
// The strings are keyed by stable names; their texts live in the service's Babel catalogues,
// one per language (service/locales/<lang>/LC_MESSAGES/messages.po, msgctxt "page"), the same
// ones the API's messages come from. `loadCatalogue` reads the language's at start
// (`GET /i18n/{lang}.json`). `{name}` in a text is replaced by `params.name`; params are put
// in as given (escape them before, for markup). A sentence about a count is `tn(key, n)`: its
// catalogue entry has plural forms (msgid_plural), which the server gives by the plural
// category `Intl.PluralRules` names for a count (service/i18n.py, `page_strings`).

import { onStorageChange } from "./storage.js";

const LANG_KEY = "pocha.lang";
// The same pick, for the server: the next document's first paint in it (service/web.py).
const LANG_COOKIE = "pocha_lang";

function tellServer(code) {
  document.cookie = `${LANG_COOKIE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
}

/** The languages the page speaks, by code, each named in itself. */
export const LANGUAGES = { en: "English", es: "Español" };

/**
 * Marks a key that the page looks up by a name made at run time (a level's, a rule's, one of
 * two sentences chosen by a count): the catalogues' extraction (`scripts/i18n`) finds the
 * page's keys in `t("...")` and `N_("...")` calls only.
 */
export function N_(key) {
  return key;
}

/** `N_` for a key of a sentence about a count (looked up with `tn`). */
export function Nn_(key) {
  return key;
}

/**
 * The keys the page looks up by a name made at run time, and those it uses only inside a
 * template string nested in another (Babel's extraction does not look that deep).
 */
export const KEYS_BY_NAME = [
  N_("chart.when"),
  N_("account.bot.clocksRanOut"),
  N_("account.bot.decision"),
  N_("account.bot.failures"),
  N_("account.bot.paused"),
  N_("account.bot.turnTime"),
  N_("account.disabled"),
  N_("account.exactBids"),
  Nn_("account.games"),
  N_("account.keyKept"),
  N_("account.keyReplaced"),
  N_("account.keyWarning"),
  N_("account.lead"),
  N_("account.inPlay.left"),
  N_("account.inPlay.none"),
  N_("account.inPlay.others"),
  N_("account.inPlay.seen"),
  N_("account.inPlay.title"),
  N_("account.inPlay.waiting"),
  N_("account.inPlay.yourTurn"),
  N_("account.level"),
  N_("account.made"),
  N_("account.notCounted"),
  N_("account.name"),
  N_("account.newKey"),
  N_("account.newKeyConfirm"),
  N_("account.no"),
  N_("account.place"),
  N_("account.recent"),
  N_("account.signUp"),
  N_("account.signedIn"),
  N_("account.since"),
  N_("account.title"),
  N_("account.unrated"),
  N_("account.yes"),
  N_("play.signIn"),
  N_("ladder.chart"),
  N_("ladder.empty"),
  N_("ladder.game.poch"),
  N_("ladder.game.pocha"),
  N_("ladder.games"),
  N_("ladder.kind.bot"),
  N_("ladder.kind.person"),
  N_("ladder.lastSeen"),
  N_("ladder.lead"),
  N_("ladder.provisional"),
  N_("ladder.link"),
  N_("ladder.name"),
  N_("ladder.next"),
  N_("ladder.previous"),
  N_("ladder.rank"),
  N_("ladder.rating"),
  N_("ladder.title"),
  N_("replay.analysis.queued"),
  N_("replay.analysis.started"),
  N_("replay.analysisDone"),
  N_("replay.poch.bluff"),
  N_("replay.poch.pot"),
  N_("replay.poch.start.up"),
  N_("replay.poch.start.down"),
  // The replay page's match and arena records, their sentences mostly in templates nested in
  // others.
  N_("replay.arena.aboutItem"),
  N_("replay.arena.aboutLine"),
  N_("replay.arena.chooseItem"),
  N_("replay.arena.chooseLine"),
  N_("replay.arena.deal"),
  N_("replay.arena.noCards"),
  N_("replay.arena.pochDeal"),
  N_("replay.arena.say"),
  N_("replay.file.badLine"),
  N_("replay.file.incomplete"),
  N_("replay.file.incompleteGame"),
  N_("replay.file.item"),
  N_("replay.file.line"),
  N_("replay.file.mixed"),
  N_("replay.file.notAGame"),
  N_("replay.file.notJson"),
  N_("replay.file.points"),
  N_("replay.match.about"),
  N_("replay.match.account"),
  N_("replay.match.another"),
  N_("replay.match.back"),
  N_("replay.match.caption"),
  N_("replay.match.chipsWon"),
  N_("replay.match.chooseItem"),
  N_("replay.match.chooseLine"),
  N_("replay.match.decisions"),
  N_("replay.match.game"),
  N_("replay.match.item"),
  N_("replay.match.kind"),
  N_("replay.match.line"),
  N_("replay.match.match"),
  N_("replay.match.nextHand"),
  N_("replay.match.noCards"),
  N_("replay.match.nobody"),
  N_("replay.match.open"),
  N_("replay.match.outFirst"),
  N_("replay.match.pochDeal"),
  N_("replay.match.say"),
  N_("replay.match.several"),
  N_("replay.match.table"),
  N_("replay.match.tableLink"),
  Nn_("replay.match.where"),
  N_("replay.pages.first"),
  N_("replay.pages.label"),
  N_("replay.pages.last"),
  N_("replay.pages.next"),
  N_("replay.pages.previous"),
  N_("replay.pages.shown"),
  N_("replay.bid"),
  N_("replay.dealer"),
  N_("replay.dealt"),
  N_("replay.final"),
  N_("replay.hand"),
  N_("replay.keys"),
  N_("replay.next"),
  N_("replay.points"),
  N_("replay.previous"),
  N_("replay.scores"),
  N_("replay.standIn"),
  N_("replay.title"),
  N_("replay.trick"),
  N_("replay.trump"),
  N_("replay.where"),
  N_("replay.won"),
  N_("replay.wonBy"),
  N_("setup.rated"),
  N_("setup.ratedHelp"),
  N_("bids.label"),
  N_("clock.title"),
  N_("event.scored"),
  N_("said.bid"),
  N_("said.bid.you"),
  N_("said.card"),
  N_("said.card.you"),
  N_("said.trick"),
  N_("said.trick.you"),
  N_("final.and"),
  N_("final.close"),
  N_("final.label"),
  N_("hand.title"),
  N_("hand.yours"),
  N_("hint.why"),
  N_("join.code"),
  N_("refused.card"),
  N_("seat.bid"),
  N_("seat.bidShort"),
  Nn_("seat.cards"),
  N_("seat.total"),
  N_("seat.won"),
  N_("seat.wonShort"),
  N_("seats.label"),
  N_("setup.random"),
  N_("sheet.cardsTitle"),
  N_("trump.title"),
  N_("waiting.link"),
  N_("final.joinRematch"),
  N_("final.rematch"),
  N_("final.theyShare"),
  N_("final.theyWin"),
  N_("final.youShare"),
  N_("final.youWin"),
  Nn_("hand.cards"),
  N_("join.full"),
  N_("join.started"),
  N_("leave.confirmPlaying"),
  N_("leave.confirmWaiting"),
  N_("level.easy"),
  N_("level.expert"),
  N_("level.hard"),
  N_("level.heuristic"),
  N_("level.master"),
  N_("level.medium"),
  N_("level.random"),
  Nn_("lobby.openSeats"),
  N_("presence.gone"),
  N_("presence.here"),
  N_("rule.classic"),
  N_("rule.dealer_restriction"),
  N_("rule.exact_bonus"),
  N_("rule.penalty"),
  N_("rule.per_trick"),
  N_("rule.players"),
  N_("rule.pyramid"),
  N_("rule.schedule"),
  N_("rule.tiebreak"),
  N_("rule.turn_seconds"),
  N_("status.bidding"),
  N_("status.playing"),
  Nn_("waiting.lead"),
  N_("waiting.start"),
  N_("waiting.startWithBots"),
  // The Poch table's keys in calls Babel reads wrong (it takes a second `name: a.b` of the
  // params for another argument) or nests too deep, and below, by a name made at run time.
  N_("poch.amount"),
  N_("poch.betLabel"),
  N_("poch.betShort"),
  N_("poch.betTitle"),
  N_("poch.board"),
  N_("poch.cardName"),
  N_("poch.chipsTitle"),
  N_("poch.dealTitle"),
  N_("poch.ev.ante"),
  N_("poch.ev.bluff"),
  N_("poch.ev.choose"),
  N_("poch.ev.collect"),
  Nn_("poch.ev.dealWon"),
  Nn_("poch.ev.leave"),
  N_("poch.ev.takePot"),
  N_("poch.finalClose"),
  N_("poch.hint.bet"),
  N_("poch.potLine"),
  N_("poch.seatsLabel"),
  N_("poch.trumpTitle"),
  N_("rules.chipsAnte"),
  N_("poch.call.pass"),
  N_("poch.call.hold"),
  N_("poch.call.bet"),
  N_("poch.call.raise"),
  N_("poch.callHelp.bet"),
  N_("poch.callHelp.raise"),
  N_("poch.direction.up"),
  N_("poch.direction.down"),
  N_("poch.ev.pass"),
  N_("poch.ev.hold"),
  N_("poch.ev.bet"),
  N_("poch.ev.raise"),
  N_("poch.ev.start.up"),
  N_("poch.ev.start.down"),
  N_("poch.plate.ace"),
  N_("poch.plate.king"),
  N_("poch.plate.queen"),
  N_("poch.plate.jack"),
  N_("poch.plate.ten"),
  N_("poch.plate.marriage"),
  N_("poch.plate.sequence"),
  N_("poch.plate.pocher"),
  N_("poch.plateTitle.ace"),
  N_("poch.plateTitle.king"),
  N_("poch.plateTitle.queen"),
  N_("poch.plateTitle.jack"),
  N_("poch.plateTitle.ten"),
  N_("poch.plateTitle.marriage"),
  N_("poch.plateTitle.sequence"),
  N_("poch.plateTitle.pocher"),
  N_("poch.rank.J"),
  N_("poch.rank.Q"),
  N_("poch.rank.K"),
  N_("poch.rank.A"),
  N_("poch.status.betting"),
  N_("poch.status.starting"),
  N_("poch.status.choosing"),
  N_("poch.suit.C"),
  N_("poch.suit.S"),
  N_("poch.suit.H"),
  N_("poch.suit.D"),
  N_("rule.ante"),
  N_("rule.chips"),
  N_("rule.deals"),
  N_("setup.leadPoch"),
  // The documents' marked words (data-i18n), put in by `translateMarked` and, for the first
  // paint, by the server (service/web.py, `document`).
  N_("header.howto"),
  N_("howto.play"),
  N_("page.title"),
  N_("page.title.account"),
  N_("page.title.ladder"),
  N_("page.title.replay"),
  N_("page.description"),
  N_("page.description.account"),
  N_("page.description.ladder"),
  N_("page.description.replay"),
  N_("howto.description"),
  N_("page.loading"),
  N_("page.noscript"),
  // The page of an address that names none (notfound.html), drawn by the server alone.
  N_("page.title.notFound"),
  N_("notFound.heading"),
  N_("notFound.text"),
  N_("notFound.home"),
  // The page of a page's address sent something instead of opened (notallowed.html), drawn
  // by the server alone; its link home is notFound.home.
  N_("page.title.notAllowed"),
  N_("notAllowed.heading"),
  N_("notAllowed.text"),
  // howto.js' keys in nested templates and chosen by the game.
  N_("howto.exact"),
  N_("howto.missed"),
  N_("howto.games"),
  N_("howto.poch.tab"),
  // The Poch log's sentences about this page's own seat, in the second person (poch.js,
  // `told`), and the betting status by the calls offered (poch.js, `callsOffered`).
  N_("poch.ev.bet.you"),
  N_("poch.ev.bluff.you"),
  N_("poch.ev.choose.you"),
  N_("poch.ev.collect.you"),
  Nn_("poch.ev.dealWon.you"),
  N_("poch.ev.hold.you"),
  Nn_("poch.ev.leave.you"),
  N_("poch.ev.pass.you"),
  N_("poch.ev.raise.you"),
  N_("poch.ev.start.down.you"),
  N_("poch.ev.start.up.you"),
  N_("poch.ev.takePot.you"),
  N_("poch.status.yourBet.pass"),
  N_("poch.status.yourBet.passHold"),
  N_("poch.status.yourBet.passBet"),
  N_("poch.status.yourBet.passRaise"),
  N_("poch.status.yourBet.passHoldRaise"),
];

// The page's texts in its language, key -> text, from the server's catalogue.
let STRINGS = {};

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
  if (saved in LANGUAGES) {
    // A pick made before the cookie was kept, or whose cookie expired.
    if (!document.cookie.includes(`${LANG_COOKIE}=${saved}`)) tellServer(saved);
    current = saved;
  } else current = fromBrowser();
  return current;
}

/** Pick the page's language (remembered in this browser). */
export function setLanguage(code) {
  if (!(code in LANGUAGES)) return;
  current = code;
  localStorage.setItem(LANG_KEY, code);
  tellServer(code);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The text of `key` in the page's language, with `{name}` replaced by `params.name`. */
export function t(key, params = {}) {
  const text = STRINGS[key] ?? key;
  return fill(typeof text === "string" ? text : (text.other ?? key), params);
}

/**
 * The text of the sentence `key` about `n` things in the page's language, in the form the
 * language gives `n` (1 card, 2 cards; 0 cartas), with `{n}` and `params` put in.
 */
export function tn(key, n, params = {}) {
  const forms = STRINGS[key] ?? key;
  let text = forms;
  if (typeof forms !== "string") {
    let category = "other";
    try {
      category = new Intl.PluralRules(language()).select(n);
    } catch {
      // A browser without the language's rules: the general form.
    }
    text = forms[category] ?? forms.other ?? key;
  }
  return fill(text, { n, ...params });
}

/**
 * The text of the key `prefix.name`, for a key named at run time (each is marked in
 * KEYS_BY_NAME: a key in a call is found by the extraction only as a plain string).
 */
export function named(prefix, name, params = {}) {
  const key = `${prefix}.${name}`;
  return t(key, params);
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
  const text = STRINGS[key];
  return text && text !== key ? text : fallback;
}

/**
 * The header's language menu (`#lang`): the page in that language from now on, remembered.
 * A page that can draw itself again in it (`changed`) does so in place, as for another
 * tab's pick; any other is reloaded.
 */
export function languageMenu(changed = null) {
  const menu = document.getElementById("lang");
  if (!menu) return;
  menu.innerHTML = Object.entries(LANGUAGES)
    .map(([code, name]) => `<option value="${code}" ${code === language() ? "selected" : ""}>${name}</option>`)
    .join("");
  menu.setAttribute("aria-label", t("language"));
  menu.addEventListener("change", () => {
    setLanguage(menu.value);
    if (changed) switchTo(language(), changed);
    else location.reload();
  });
}

/**
 * Follow the language as another tab of this browser picks it (the `storage` event): the
 * page switches to it (`switchTo`).
 */
export function followLanguage(changed) {
  onStorageChange([LANG_KEY], () => {
    const before = language();
    current = null;
    const asked = language();
    if (asked !== before) switchTo(asked, changed);
  });
}

/**
 * The page in language `asked`: the catalogue read again in it, the header's words and
 * menu with it, then `changed()` draws what the page shows in it; nothing more when
 * another language was picked meanwhile (that one's switch has the last word).
 */
async function switchTo(asked, changed) {
  await loadCatalogue();
  if (language() !== asked) return;
  document.documentElement.lang = asked;
  const menu = document.getElementById("lang");
  if (menu) {
    menu.value = asked;
    menu.setAttribute("aria-label", t("language"));
  }
  changed();
}

/**
 * The document's own words (its title, the header's, the description): each element marked
 * `data-i18n="key"` gets its key's text, each marked `data-i18n-content="key"` its content.
 */
function translateMarked() {
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of document.querySelectorAll("[data-i18n-content]")) {
    element.setAttribute("content", t(element.dataset.i18nContent));
  }
}

/**
 * A title of the page's own (an account's name), in place of the document's: no longer
 * its key's text, so that a switch of language leaves it as it is.
 */
export function ownTitle(text) {
  document.querySelector("title")?.removeAttribute("data-i18n");
  document.title = text;
}

/**
 * Read the page's strings in its language from the server's catalogue (the Babel catalogues
 * of the API, msgctxt "page"), before anything is shown. English when the language's cannot
 * be had; a key stands for its text only if neither can.
 */
export async function loadCatalogue() {
  const asked = language();
  for (const lang of [...new Set([asked, "en"])]) {
    try {
      const response = await fetch(`/i18n/${lang}.json`, { headers: { Accept: "application/json" } });
      if (!response.ok) continue;
      const strings = await response.json();
      // Another language picked meanwhile (another tab's) has its own load: the last word.
      if (language() !== asked) return;
      STRINGS = strings;
      translateMarked();
      return;
    } catch {
      // The next language, or the keys themselves.
    }
  }
}
