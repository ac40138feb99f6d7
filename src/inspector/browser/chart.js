// @ts-check
// Lights the server machine's chart (laid out and drawn by the server, once) for the selected server.

/**
 * Marks the state the server is in, the frames that hold it, and the states it came through most recently.
 * @param {Element} svg
 * @param {string | null} state null when no server is selected
 * @param {readonly string[]} trail the states before it, newest first
 */
export function lightChart(svg, state, trail) {
  /** @type {Element[]} */
  const lit = [];
  for (const g of svg.querySelectorAll('g.n')) {
    const key = g.getAttribute('data-key') ?? '';
    const on = key === state;
    g.setAttribute('data-active', on ? 'true' : 'false');
    g.removeAttribute('data-contains-active');
    const step = on ? -1 : trail.indexOf(key);
    if (step >= 0) g.setAttribute('data-trail', String(step + 1));
    else g.removeAttribute('data-trail');
    if (on) lit.push(g);
  }
  // Frames are drawn behind their states, not around them: each state names the frames it is within.
  const within = new Set(lit.flatMap((g) => (g.getAttribute('data-within') ?? '').split(' ')));
  for (const f of svg.querySelectorAll('g.n.frame')) {
    if (within.has(f.getAttribute('data-key') ?? '')) f.setAttribute('data-contains-active', 'true');
  }
}
