// @ts-check
// One server's compact card: id, state, pid, restarts, uptime, tools and its last exit on one line.

import { el } from './dom.js';
import { duration, lastExitText } from './format.js';

/** @import { PageRow } from '../page-data.js' */

/** @typedef {'pid' | 'restarts' | 'uptime' | 'tools'} Field */

/**
 * A card's elements, and the row it last painted.
 * @typedef {object} Card
 * @property {string} id
 * @property {HTMLElement} root
 * @property {HTMLElement} pill
 * @property {Record<Field, HTMLElement>} f
 * @property {HTMLElement} ex
 * @property {PageRow | null} s
 */

/** @type {ReadonlyArray<[Field, string]>} */
const FIELDS = [
  ['pid', 'pid'],
  ['restarts', 'restarts'],
  ['uptime', 'up'],
  ['tools', 'tools'],
];

/**
 * @param {string} id
 * @param {(id: string) => void} onSelect
 * @returns {Card}
 */
export function makeCard(id, onSelect) {
  const root = el('section', {
    class: 'card',
    role: 'button',
    tabindex: '0',
    'aria-selected': 'false',
    'data-testid': `server-card-${id}`,
  });
  root.addEventListener('click', () => onSelect(id));
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') onSelect(id);
  });
  const head = root.appendChild(el('div', { class: 'head' }));
  head.appendChild(el('span', { class: 'id', title: id }, id));
  const pill = head.appendChild(el('span', { class: 'pill', 'data-testid': `server-state-${id}` }));
  const nums = root.appendChild(el('div', { class: 'nums' }));
  /** @type {Partial<Record<Field, HTMLElement>>} */
  const f = {};
  for (const [key, label] of FIELDS) {
    const span = nums.appendChild(el('span', { title: key }, `${label} `));
    f[key] = span.appendChild(el('span', { class: 'v', 'data-testid': `server-${key}-${id}` }));
  }
  const ex = root.appendChild(el('div', { class: 'exit', 'data-testid': `server-exit-${id}` }));
  return { id, root, pill, f: /** @type {Record<Field, HTMLElement>} */ (f), ex, s: null };
}

/**
 * Refreshes the time in state.
 * @param {Card} c
 * @param {number} skew the server's clock minus the browser's
 */
export function tick(c, skew) {
  if (c.s) c.f.uptime.textContent = duration(Date.now() + skew - c.s.since);
}

/**
 * Paints the card's row.
 * @param {Card} c
 * @param {number} skew
 */
export function paintCard(c, skew) {
  const s = c.s;
  if (!s) return;
  c.root.className = `card st-${s.state}`;
  c.pill.textContent = s.state;
  c.f.pid.textContent = s.container
    ? s.container.id.slice(0, 12)
    : s.pid === undefined
      ? '\u2014'
      : String(s.pid);
  c.f.restarts.textContent = String(s.restarts);
  c.f.tools.textContent = String(s.tools);
  c.f.uptime.parentElement?.setAttribute('title', s.state === 'ready' ? 'uptime' : `in ${s.state}`);
  tick(c, skew);
  const x = s.lastExit;
  const text = x ? lastExitText(x) + (x.reason ? ` \u2014 ${x.reason}` : '') : '';
  c.ex.textContent = text;
  c.ex.title = text;
}
