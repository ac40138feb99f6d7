// @ts-check
// Where each box and line of a statechart goes: nested boxes, one row per transition. Pure (no DOM), so the
// geometry is unit-tested in Node; chart.js turns it into SVG.

/** @import { StatechartNode, StatechartTransition } from '../statechart.js' */

/**
 * A line of text at its baseline; `full` is the unclipped text, for a tooltip.
 * @typedef {{ x: number, y: number, text: string, full: string }} ChartLine
 */

/**
 * One state's box, its children nested inside it.
 * @typedef {object} ChartBox
 * @property {StatechartNode} node
 * @property {number} x
 * @property {number} y
 * @property {number} width
 * @property {number} height
 * @property {boolean} root
 * @property {ChartLine} label the key (● when initial, ◎ when final)
 * @property {ChartLine | null} kind `compound` / `parallel`, right-aligned; null for other types
 * @property {ChartLine[]} rows one per transition
 * @property {ChartBox[]} children
 */

/** The chart's width in SVG units; the height follows from the content. */
export const CHART_WIDTH = 290;

// The font metrics the layout assumes (11px keys, 10px rows): an average glyph width and the line steps.
const GLYPH = 5.6;
const HEAD = 15;
const ROW = 12;
const INSET = 8;
const GAP = 5;

/**
 * Cuts a text to `n` characters, the last of them an ellipsis.
 * @param {string} s
 * @param {number} n
 */
export function clip(s, n) {
  return s.length > n ? `${s.slice(0, Math.max(1, n - 1))}\u2026` : s;
}

/**
 * Every node of the chart by its id.
 * @param {StatechartNode} root
 * @returns {Map<string, StatechartNode>}
 */
export function indexNodes(root) {
  /** @type {Map<string, StatechartNode>} */
  const map = new Map();
  /** @param {StatechartNode} node */
  const walk = (node) => {
    map.set(node.id, node);
    for (const c of node.children) walk(c);
  };
  walk(root);
  return map;
}

/**
 * `EVENT [guard] → target`, a self-transition marked ↺, a targetless one `(stays)`.
 * @param {StatechartTransition} t
 * @param {StatechartNode} node the state the transition leaves
 * @param {Map<string, StatechartNode>} byId
 */
export function transitionLabel(t, node, byId) {
  const targets = t.targets.map((id) => {
    const key = byId.get(id)?.key ?? id;
    return id === node.id ? `\u21ba ${key}` : key;
  });
  const guard = t.guard ? ` [${t.guard}]` : '';
  return `${t.event}${guard} \u2192 ${targets.length ? targets.join(', ') : '(stays)'}`;
}

/**
 * Lays out the whole chart: the root box at (1, 1), and the total height.
 * @param {StatechartNode} graph
 * @param {number} [width]
 * @returns {{ box: ChartBox, height: number }}
 */
export function layoutChart(graph, width = CHART_WIDTH) {
  const byId = indexNodes(graph);
  const box = layoutNode(graph, 1, 1, width - 2, byId, false, true);
  return { box, height: box.y + box.height + 1 };
}

/**
 * @param {StatechartNode} node
 * @param {number} x
 * @param {number} y
 * @param {number} width
 * @param {Map<string, StatechartNode>} byId
 * @param {boolean} initial
 * @param {boolean} root
 * @returns {ChartBox}
 */
function layoutNode(node, x, y, width, byId, initial, root) {
  const maxChars = Math.floor((width - 22) / GLYPH);
  const line = (/** @type {number} */ lx, /** @type {number} */ ly, /** @type {string} */ full) => ({
    x: lx,
    y: ly,
    text: clip(full, maxChars),
    full,
  });
  let cy = y + HEAD;
  const key = `${initial ? '\u25cf ' : ''}${node.key}${node.type === 'final' ? ' \u25ce' : ''}`;
  const label = line(x + INSET, cy, key);
  const kind =
    node.type === 'compound' || node.type === 'parallel'
      ? { x: x + width - INSET, y: cy, text: node.type, full: node.type }
      : null;
  cy += 3;
  /** @type {ChartLine[]} */
  const rows = [];
  for (const t of node.transitions) {
    cy += ROW;
    rows.push(line(x + 14, cy, transitionLabel(t, node, byId)));
  }
  cy += 7;
  /** @type {ChartBox[]} */
  const children = [];
  if (node.children.length) {
    for (const c of node.children) {
      const child = layoutNode(c, x + INSET, cy, width - 2 * INSET, byId, c.key === node.initial, false);
      children.push(child);
      cy = child.y + child.height + GAP;
    }
    cy += 2;
  }
  return { node, x, y, width, height: cy - y, root, label, kind, rows, children };
}
