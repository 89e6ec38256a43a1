// Text put into the page's markup: anything from the server or from a person is escaped,
// so that a name such as "<b>Ana" shows as typed.

export function escapeHtml(text) {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}
