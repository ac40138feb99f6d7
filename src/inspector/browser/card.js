// @ts-check
// One server's card: its state, numbers, last exit with the stderr tail, and its lit statechart.

import { drawChart, lightChart } from './chart.js';
import { el } from './dom.js';
import { clock, duration, identityText, lastExitText } from './format.js';

/** @import { PageRow } from '../page-data.js' */
/** @import { StatechartGraph } from '../statechart.js' */

/** @typedef {'pid' | 'restarts' | 'uptime' | 'tools' | 'containment'} Field */

/**
 * A card's elements, and the row it last painted.
 * @typedef {object} Card
 * @property {string} id
 * @property {HTMLElement} root
 * @property {HTMLElement} pill
 * @property {Record<Field, HTMLElement>} f
 * @property {HTMLElement} uptimeLabel
 * @property {HTMLElement} ex
 * @property {HTMLElement} exWhat
 * @property {HTMLElement} exReason
 * @property {HTMLElement} tail
 * @property {HTMLElement} info what the server said of itself (serverInfo, protocol, capabilities)
 * @property {HTMLDetailsElement} instr its instructions, folded
 * @property {HTMLElement} instrText
 * @property {HTMLElement} chart
 * @property {SVGSVGElement | null} svg
 * @property {PageRow | null} s
 */

/** @type {ReadonlyArray<[Field, string]>} */
const FIELDS = [
  ['pid', 'pid'],
  ['restarts', 'restarts'],
  ['uptime', 'in state'],
  ['tools', 'tools'],
  ['containment', 'contained by'],
];

/**
 * @param {string} id
 * @returns {Card}
 */
export function makeCard(id) {
  const root = el('section', { class: 'card', 'data-testid': `server-card-${id}` });
  const head = root.appendChild(el('div', { class: 'head' }));
  head.appendChild(el('span', { class: 'id' }, id));
  const pill = head.appendChild(el('span', { class: 'pill', 'data-testid': `server-state-${id}` }));
  const dl = root.appendChild(el('dl'));
  /** @type {Map<string, HTMLElement>} */
  const labels = new Map();
  /** @type {Partial<Record<Field, HTMLElement>>} */
  const f = {};
  for (const [key, label] of FIELDS) {
    labels.set(key, dl.appendChild(el('dt', {}, label)));
    f[key] = dl.appendChild(el('dd', { 'data-testid': `server-${key}-${id}` }));
  }
  const ex = root.appendChild(el('div', { class: 'lastexit', 'data-testid': `server-exit-${id}` }));
  ex.hidden = true;
  const what = ex.appendChild(el('div'));
  const exWhat = what.appendChild(el('span', { class: 'what' }));
  what.appendChild(document.createTextNode(' '));
  const exReason = what.appendChild(el('span', { class: 'reason' }));
  const tail = ex.appendChild(el('pre', { 'data-testid': `server-stderr-${id}` }));
  const info = root.appendChild(el('div', { class: 'info', 'data-testid': `server-info-${id}` }));
  const instr = /** @type {HTMLDetailsElement} */ (
    root.appendChild(el('details', { 'data-testid': `server-instructions-${id}` }))
  );
  instr.appendChild(el('summary', {}, 'instructions'));
  const instrText = instr.appendChild(el('pre'));
  instr.hidden = true;
  const chart = root.appendChild(el('div', { class: 'chart' }));
  return {
    id,
    root,
    pill,
    f: /** @type {Record<Field, HTMLElement>} */ (f),
    uptimeLabel: /** @type {HTMLElement} */ (labels.get('uptime')),
    ex,
    exWhat,
    exReason,
    tail,
    info,
    instr,
    instrText,
    chart,
    svg: null,
    s: null,
  };
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
 * Paints the card's row; draws its chart once the graph is known.
 * @param {Card} c
 * @param {StatechartGraph | null} graph
 * @param {number} skew
 */
export function paintCard(c, graph, skew) {
  const s = c.s;
  if (!s) return;
  c.root.className = `${c.root.className.replace(/\bst-[a-z]+\b/g, '').trim()} st-${s.state}`;
  c.pill.textContent = s.state;
  c.f.pid.textContent = s.pid === undefined ? '\u2014' : String(s.pid);
  c.f.restarts.textContent = String(s.restarts);
  c.f.tools.textContent = String(s.tools);
  c.f.containment.textContent = s.containment ?? '\u2014';
  c.uptimeLabel.textContent = s.state === 'ready' ? 'uptime' : 'in state';
  tick(c, skew);
  const x = s.lastExit;
  c.ex.hidden = !x;
  if (x) {
    c.exWhat.textContent = lastExitText(x);
    c.exReason.textContent = (x.reason ? `\u2014 ${x.reason}` : '') + (x.at ? ` at ${clock(x.at)}` : '');
    c.tail.textContent = x.stderrTail || '(no stderr)';
  }
  c.info.textContent = identityText(s.server);
  // Server text, set as text: a server's instructions never become markup.
  c.instr.hidden = !s.server?.instructions;
  c.instrText.textContent = s.server?.instructions ?? '';
  if (!c.svg && graph) c.svg = c.chart.appendChild(drawChart(c.id, graph));
  if (c.svg) lightChart(c.svg, s.state);
}
