// @ts-check
// The two DOM helpers the page's modules share.

/**
 * An element with attributes and, given, its text (set as text, never parsed as HTML).
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {string} [text]
 */
export function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * An element of the page's fixed skeleton (page.ts writes it).
 * @param {string} id
 */
export function byId(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e;
}
