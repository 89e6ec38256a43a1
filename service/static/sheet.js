// What the ladder, account and replay pages share: the language (the catalogue read first,
// the header's menu, another tab's pick followed) and how a time and a rating are written.

import { Api } from "./api.js";
import { followLanguage, language, languageMenu, loadCatalogue } from "./i18n.js";

/**
 * Read the page's strings in its language and set up the header; `redraw`, when given,
 * draws the page again in the language picked in the header or in another tab (i18n.js,
 * `languageMenu` and `followLanguage`), where a page without one is reloaded.
 */
export async function startSheet(redraw = null) {
  Api.language = language();
  await loadCatalogue();
  document.documentElement.lang = language();
  const switched = redraw
    ? () => {
        Api.language = language();
        redraw();
      }
    : null;
  languageMenu(switched);
  if (switched) followLanguage(switched);
}

/** A Unix time as a date and time in the page's language. */
export function when(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  return new Date(seconds * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

/** A rating with its uncertainty: "12.3 ± 2.1". */
export function ratingText(rating, sigma) {
  return `${rating.toFixed(1)} ± ${sigma.toFixed(1)}`;
}
