// The person's account in this browser: signing up picks a name, the API makes the account
// and answers its key once; the page keeps {id, name, key} in localStorage and sends the key
// (X-Pocha-Account, api.js) when it makes a table or takes a seat, so the account sits there
// and a rated table can be made. The key is shown once, with a warning to keep it: it is
// the account's only way in, and the server keeps only its hash.

import { Api, ApiError, errorText } from "./api.js";
import { escapeHtml } from "./html.js";
import { t } from "./i18n.js";
import { onStorageChange } from "./storage.js";

const ACCOUNT_KEY = "pocha.account";

/** The account signed up in this browser, {id, name, key}, or null. */
export function signedIn() {
  try {
    const saved = JSON.parse(localStorage.getItem(ACCOUNT_KEY) || "null");
    return saved && saved.id && saved.key ? saved : null;
  } catch {
    return null;
  }
}

/** Keep `account`, {id, name, key}, as the one signed up in this browser. */
export function remember(account) {
  localStorage.setItem(ACCOUNT_KEY, JSON.stringify({ id: account.id, name: account.name, key: account.key }));
}

/** Send the account's key with the page's tables from now on (when there is one). */
export function useAccount() {
  Api.accountKey = signedIn()?.key ?? null;
}

/**
 * Follow the account as another tab of this browser changes it (signs up, makes a new key
 * on the account's page): the `storage` event, fired in every other tab of the page's
 * origin, brings the change; the key this tab sends becomes the stored one, then
 * `changed()` runs (the tab shows who is signed in now).
 */
export function followAccount(changed) {
  onStorageChange([ACCOUNT_KEY], () => {
    useAccount();
    changed();
  });
}

/**
 * The requests of a seat this browser holds (`game`, as seats.js keeps it): with the seat's
 * token, or with the signed-in account's key once the seat is kept without one. A seat's
 * token opens nothing once its account's key was replaced (docs/api.md), while the
 * account's key opens every seat the account holds: a request refused as unknown (401)
 * goes again with the key signed in here, and when that opens the seat, the page goes on
 * with the key (`onKey(game)`, the seat now kept without its token) and nobody sees an
 * error. A refused request changed nothing, so sending it again is safe, a move too.
 */
export class SeatApi extends Api {
  constructor(game, onKey = () => {}) {
    super(game.token ?? signedIn()?.key ?? null);
    this.game = game;
    this.onKey = onKey;
  }

  async request(method, path, body = undefined, extraHeaders = {}) {
    try {
      return await super.request(method, path, body, extraHeaders);
    } catch (error) {
      const account = signedIn();
      if (!(error instanceof ApiError) || error.status !== 401 || !account || account.key === this.token) {
        throw error;
      }
      let answer;
      try {
        answer = await new Api(account.key, this.base).request(method, path, body, extraHeaders);
      } catch (again) {
        // The key opens no such seat either (it was never the account's): the first refusal.
        throw again instanceof ApiError && again.status === 401 ? error : again;
      }
      this.token = account.key;
      this.game.token = null;
      this.onKey(this.game);
      return answer;
    }
  }
}

/** The panel: a name field to sign up, or who is signed in and a link to their page. */
export function accountPanelHtml() {
  const account = signedIn();
  if (account) {
    return `<section class="panel account-panel" id="account-panel"><h2>${t("account.title")}</h2>
      <p>${t("account.signedIn", { name: `<a href="/accounts/${encodeURIComponent(account.id)}" id="account-link">${escapeHtml(account.name)}</a>` })}</p>
      <p class="muted small"><a href="/ladder">${t("ladder.link")}</a></p></section>`;
  }
  return `<section class="panel account-panel" id="account-panel"><h2>${t("account.title")}</h2>
    <p class="muted small">${t("account.lead")}</p>
    <form id="signup" class="row" autocomplete="off">
      <input name="name" maxlength="32" required aria-label="${t("account.name")}" placeholder="${t("account.name")}">
      <button type="submit" class="primary" id="signup-go">${t("account.signUp")}</button></form>
    <p id="signup-notice" class="notice"></p>
    <p class="muted small"><a href="/ladder">${t("ladder.link")}</a></p></section>`;
}

/** Wire the panel's form; `done` runs once the key has been shown and acknowledged. */
export function wireAccountPanel(done) {
  const form = document.getElementById("signup");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = form.name.value.trim();
    if (!name) return;
    form.querySelector("button").disabled = true;
    const notice = document.getElementById("signup-notice");
    try {
      const made = await new Api().createAccount(name);
      remember(made);
      useAccount();
      const panel = document.getElementById("account-panel");
      panel.innerHTML = `<h2>${t("account.title")}</h2>
        <p>${t("account.made", { name: escapeHtml(made.name) })}</p>
        <p class="notice error" id="key-warning">${t("account.keyWarning")}</p>
        <p><code id="account-key" class="account-key">${escapeHtml(made.key)}</code></p>
        <button type="button" class="primary" id="key-kept">${t("account.keyKept")}</button>`;
      document.getElementById("key-kept").addEventListener("click", done);
    } catch (error) {
      form.querySelector("button").disabled = false;
      notice.className = "notice error";
      notice.textContent = errorText(error);
    }
  });
}
