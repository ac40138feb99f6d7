// @ts-check
// The inspector page's entry: the event stream, the cards, the timeline. Every value from the fleet goes in
// through textContent, never as HTML.

import { makeCard, paintCard, tick } from './card.js';
import { byId, el } from './dom.js';
import { clock, describeEvent, summary } from './format.js';

/** @import { PageEvent, PageStatus } from '../page-data.js' */
/** @import { StatechartGraph } from '../statechart.js' */
/** @import { Card } from './card.js' */

const MAX_ROWS = 200;

const ui = {
  /** @type {StatechartGraph | null} */
  graph: null,
  graphText: '',
  /** @type {Map<string, Card>} */
  cards: new Map(),
  /** The server's clock minus the browser's, so durations are the server's. */
  skew: 0,
  /** The event ids' boot prefix and the last sequence number shown: a replay never shows a row twice. */
  boot: '',
  seq: 0,
  retryMs: 1000,
};

// The per-run token the page was opened with; every request of the page carries it, or the server answers 403.
const TOKEN = new URLSearchParams(location.search).get('token') ?? '';

/** @param {string} path */
function authed(path) {
  return `${path}?token=${encodeURIComponent(TOKEN)}`;
}

/** @param {PageStatus} data */
function applyStatus(data) {
  ui.skew = data.now - Date.now();
  const fleet = byId('fleet');
  const seen = new Set();
  data.servers.forEach((s, i) => {
    seen.add(s.id);
    let c = ui.cards.get(s.id);
    if (!c) {
      c = makeCard(s.id);
      ui.cards.set(s.id, c);
    }
    // Moved only when out of place, so a scrolled stderr tail keeps its position across updates.
    if (fleet.children[i] !== c.root) fleet.insertBefore(c.root, fleet.children[i] ?? null);
    c.s = s;
    paintCard(c, ui.graph, ui.skew);
  });
  for (const [id, c] of ui.cards) {
    if (seen.has(id)) continue;
    c.root.remove();
    ui.cards.delete(id);
  }
  byId('empty').hidden = data.servers.length > 0;
  byId('summary').textContent = summary(data.servers);
}

/** @param {PageEvent} e */
function addRow(e) {
  const tr = el('tr', { 'data-testid': 'timeline-row', 'data-type': e.type, class: e.type });
  tr.appendChild(el('td', { class: 'time' }, clock(e.at)));
  tr.appendChild(el('td', { class: 'srv' }, 'server' in e && e.server !== null ? e.server : 'supervisor'));
  const what = tr.appendChild(el('td', { class: 'what' }));
  if (e.type === 'state') {
    what.appendChild(document.createTextNode(`${e.from ?? 'start'} \u2192 `));
    what.appendChild(el('span', { class: `to st-${e.to}` }, e.to));
  } else {
    what.textContent = describeEvent(e);
  }
  const body = byId('timeline-body');
  body.insertBefore(tr, body.firstChild);
  while (body.childNodes.length > MAX_ROWS && body.lastChild) body.removeChild(body.lastChild);
}

/** @param {MessageEvent<string>} msg */
function onSupervisor(msg) {
  const [boot = '', seqText] = msg.lastEventId.split(':');
  const seq = Number(seqText);
  if (boot !== ui.boot) {
    ui.boot = boot;
    ui.seq = 0;
  }
  if (seq <= ui.seq) return;
  ui.seq = seq;
  const e = /** @type {PageEvent} */ (JSON.parse(msg.data));
  addRow(e);
  if (e.type !== 'state') return;
  // A live state change shows at once; an old one replayed on connect is older than the status and is ignored.
  const c = ui.cards.get(e.server);
  if (c?.s && e.at >= c.s.since) {
    c.s = { ...c.s, state: e.to, since: e.at };
    paintCard(c, ui.graph, ui.skew);
  }
}

/** @param {StatechartGraph} graph */
function setGraph(graph) {
  const text = JSON.stringify(graph);
  if (text === ui.graphText) return;
  ui.graph = graph;
  ui.graphText = text;
  for (const c of ui.cards.values()) {
    c.svg?.remove();
    c.svg = null;
    paintCard(c, ui.graph, ui.skew);
  }
}

async function loadGraph() {
  try {
    const r = await fetch(authed('/api/statechart'), { cache: 'no-store' });
    if (r.ok) setGraph(/** @type {StatechartGraph} */ (await r.json()));
  } catch {
    // Unreachable for now: the chart comes with the next successful connect.
  }
}

/**
 * @param {'connecting' | 'live' | 'down'} state
 * @param {string} text
 */
function setConn(state, text) {
  const c = byId('conn');
  c.setAttribute('data-state', state);
  c.textContent = text;
}

function connect() {
  setConn('connecting', 'connecting\u2026');
  const es = new EventSource(authed('/events'));
  es.addEventListener('open', () => {
    ui.retryMs = 1000;
    setConn('live', 'live');
    void loadGraph();
  });
  es.addEventListener('status', (m) => applyStatus(/** @type {PageStatus} */ (JSON.parse(m.data))));
  es.addEventListener('supervisor', onSupervisor);
  es.addEventListener('error', () => {
    setConn('down', 'disconnected \u2014 retrying');
    // The browser retries by itself while CONNECTING; once it gives up (CLOSED) we start over with backoff.
    if (es.readyState === EventSource.CLOSED) {
      es.close();
      setTimeout(connect, ui.retryMs);
      ui.retryMs = Math.min(ui.retryMs * 2, 10_000);
    }
  });
}

setInterval(() => {
  for (const c of ui.cards.values()) tick(c, ui.skew);
}, 1000);
void loadGraph().then(connect);
