// @ts-check
// Draws a laid-out statechart as SVG, and lights the node of a server's current state.

import { CHART_WIDTH, layoutChart } from './chart-layout.js';

/** @import { StatechartGraph } from '../statechart.js' */
/** @import { ChartBox, ChartLine } from './chart-layout.js' */

const SVGNS = 'http://www.w3.org/2000/svg';

/**
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function svgEl(name, attrs, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * @param {string} cls
 * @param {ChartLine} line
 * @param {Record<string, string>} [extra]
 */
function textEl(cls, line, extra = {}) {
  return svgEl('text', { class: cls, x: line.x, y: line.y, ...extra }, line.text);
}

/**
 * @param {Element} parent
 * @param {ChartBox} box
 * @param {string} serverId
 */
function drawBox(parent, box, serverId) {
  const g = svgEl('g', {
    class: `n ${box.node.type}`,
    'data-testid': `chart-node-${serverId}-${box.node.key}`,
    'data-key': box.node.key,
    'data-active': 'false',
  });
  if (box.root) g.setAttribute('data-root', 'true');
  parent.appendChild(g);
  g.appendChild(svgEl('rect', { x: box.x, y: box.y, width: box.width, height: box.height, rx: 5 }));
  g.appendChild(svgEl('title', {}, box.node.id));
  g.appendChild(textEl('k', box.label));
  if (box.kind) g.appendChild(textEl('m', box.kind, { 'text-anchor': 'end' }));
  for (const row of box.rows) {
    // Rows are often clipped: the full transition shows on hover.
    const t = g.appendChild(textEl('t', row));
    t.appendChild(svgEl('title', {}, row.full));
  }
  for (const child of box.children) drawBox(g, child, serverId);
}

/**
 * The chart of the server machine, for one server's card.
 * @param {string} serverId
 * @param {StatechartGraph} graph
 * @returns {SVGSVGElement}
 */
export function drawChart(serverId, graph) {
  const { box, height } = layoutChart(graph, CHART_WIDTH);
  const svg = /** @type {SVGSVGElement} */ (
    svgEl('svg', {
      'data-testid': `chart-${serverId}`,
      role: 'img',
      viewBox: `0 0 ${CHART_WIDTH} ${height}`,
      width: CHART_WIDTH,
      height,
    })
  );
  svg.appendChild(svgEl('title', {}, `statechart of ${serverId}`));
  drawBox(svg, box, serverId);
  return svg;
}

/**
 * Marks the node whose key is `state` active and its ancestors as containing it.
 * @param {SVGSVGElement} svg
 * @param {string} state
 */
export function lightChart(svg, state) {
  /** @type {Element[]} */
  const lit = [];
  for (const g of svg.querySelectorAll('g.n')) {
    const on = g.getAttribute('data-key') === state && !g.hasAttribute('data-root');
    g.setAttribute('data-active', on ? 'true' : 'false');
    g.removeAttribute('data-contains-active');
    if (on) lit.push(g);
  }
  for (const g of lit) {
    for (let p = g.parentElement; p?.classList.contains('n'); p = p.parentElement) {
      p.setAttribute('data-contains-active', 'true');
    }
  }
}
