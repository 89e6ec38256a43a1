// What another tab of this browser changes in localStorage: the `storage` event, fired in
// every other tab of the page's origin (never in the tab that wrote), one key at a time,
// or with no key when storage was cleared.

/** Run `changed()` when another tab changes one of `keys` (or clears the storage). */
export function onStorageChange(keys, changed) {
  window.addEventListener("storage", (event) => {
    if (event.storageArea === localStorage && (event.key === null || keys.includes(event.key))) changed();
  });
}
