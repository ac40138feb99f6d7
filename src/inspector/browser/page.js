// @ts-check
// The inspector page's entry: the event stream, the compact cards, the chart lit for the selected server, its
// detail pane, the timeline and the header. Every value from the fleet goes in through textContent, never as HTML.

import { makeCard, paintCard, tick } from './card.js';
import { lightChart } from './chart.js';
import { paintDetail } from './detail.js';
import { byId, el } from './dom.js';
import { clock, describeEvent, summary } from './format.js';

/** @import { FleetPhase, PageEvent, PageStatus } from '../page-data.js' */
/** @import { ServerDetail } from '../server-details.js' */
/** @import { Card } from './card.js' */

const MAX_ROWS = 200;
const TRAIL = 3;

const ui = {
  /** @type {Map<string, Card>} */
  cards: new Map(),
  /** @type {Map<string, ServerDetail>} */
  details: new Map(),
  /** The states each server went through before its current one, newest first. */
  /** @type {Map<string, string[]>} */
  trails: new Map(),
  /** @type {string | null} */
  selected: null,
  /** @type {FleetPhase | undefined} */
  phase: undefined,
  /** The inspector said goodbye: the page stops reconnecting and says why. */
  ended: false,
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

const svg = document.querySelector('svg.statechart');

/** @param {string} id */
function select(id) {
  ui.selected = id;
  for (const c of ui.cards.values()) c.root.setAttribute('aria-selected', c.id === id ? 'true' : 'false');
  repaintSelected();
}

function repaintSelected() {
  const c = ui.selected === null ? undefined : ui.cards.get(ui.selected);
  byId('chart-for').textContent = c?.s ? `\u2014 ${c.id}: ${c.s.state}` : '';
  if (svg) {
    svg.setAttribute('class', `statechart${c?.s ? ` st-${c.s.state}` : ''}`);
    lightChart(svg, c?.s?.state ?? null, c ? (ui.trails.get(c.id) ?? []) : []);
  }
  if (c?.s) paintDetail(c.s, ui.details.get(c.id));
  else byId('detail').hidden = true;
}

/**
 * The header's fleet state: what the host said, or that the page lost it. Never the last word of a connection
 * that is gone.
 * @param {'live' | 'lost' | 'ended'} link
 */
function paintPhase(link) {
  const p = byId('phase');
  /** @type {string} */
  let phase;
  if (link === 'lost') phase = 'lost';
  // A fleet that was still running when its inspector went away is not known to be running any more.
  else if (link === 'ended') phase = ui.phase === 'stopped' ? 'stopped' : 'closed';
  else phase = ui.phase ?? 'running';
  p.setAttribute('data-phase', phase);
  p.textContent =
    phase === 'lost' ? 'connection lost' : phase === 'closed' ? 'inspector closed' : `fleet ${phase}`;
  document.body.setAttribute('data-stale', link === 'live' ? 'false' : 'true');
}

/** @param {PageStatus} data */
function applyStatus(data) {
  ui.skew = data.now - Date.now();
  ui.phase = data.fleet;
  const fleet = byId('fleet');
  const seen = new Set();
  data.servers.forEach((s, i) => {
    seen.add(s.id);
    let c = ui.cards.get(s.id);
    if (!c) {
      c = makeCard(s.id, select);
      ui.cards.set(s.id, c);
    }
    if (fleet.children[i] !== c.root) fleet.insertBefore(c.root, fleet.children[i] ?? null);
    c.s = s;
    paintCard(c, ui.skew);
  });
  for (const [id, c] of ui.cards) {
    if (seen.has(id)) continue;
    c.root.remove();
    ui.cards.delete(id);
  }
  byId('empty').hidden = data.servers.length > 0;
  byId('summary').textContent = summary(data.servers);
  if (!ui.ended) paintPhase('live');
  const first = data.servers[0];
  if ((ui.selected === null || !ui.cards.has(ui.selected)) && first) select(first.id);
  else repaintSelected();
}

/**
 * The rows of the servers that changed since the last push: only their cards are painted again, so an update
 * costs the page what changed, not the fleet's size.
 * @param {PageStatus} data
 */
function applyRows(data) {
  ui.skew = data.now - Date.now();
  ui.phase = data.fleet;
  let selected = false;
  for (const s of data.servers) {
    let c = ui.cards.get(s.id);
    if (!c) {
      c = makeCard(s.id, select);
      ui.cards.set(s.id, c);
      byId('fleet').appendChild(c.root);
    }
    c.s = s;
    paintCard(c, ui.skew);
    if (s.id === ui.selected) selected = true;
  }
  const rows = [...ui.cards.values()].flatMap((c) => (c.s ? [c.s] : []));
  byId('empty').hidden = rows.length > 0;
  byId('summary').textContent = summary(rows);
  if (!ui.ended) paintPhase('live');
  if (selected) repaintSelected();
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
  if (e.from !== null) {
    const trail = [e.from, ...(ui.trails.get(e.server) ?? []).filter((k) => k !== e.from)];
    ui.trails.set(e.server, trail.slice(0, TRAIL));
  }
  // A live state change shows at once; an old one replayed on connect is older than the status and is ignored.
  const c = ui.cards.get(e.server);
  if (c?.s && e.at >= c.s.since) {
    c.s = { ...c.s, state: e.to, since: e.at };
    paintCard(c, ui.skew);
  }
  if (e.server === ui.selected) repaintSelected();
}

/** @param {MessageEvent<string>} msg */
function onDetail(msg) {
  const d = /** @type {ServerDetail} */ (JSON.parse(msg.data));
  ui.details.set(d.server, d);
  if (d.server === ui.selected) repaintSelected();
}

/**
 * @param {'connecting' | 'live' | 'down' | 'closed'} state
 * @param {string} text
 */
function setConn(state, text) {
  const c = byId('conn');
  c.setAttribute('data-state', state);
  c.textContent = text;
}

/** @param {EventSource} es */
function retryLater(es) {
  es.close();
  setTimeout(connect, ui.retryMs);
  ui.retryMs = Math.min(ui.retryMs * 2, 10_000);
}

function connect() {
  // After the inspector said goodbye the header keeps its last word while the page looks for a new run.
  if (!ui.ended) setConn('connecting', 'connecting\u2026');
  const es = new EventSource(authed('/events'));
  es.addEventListener('open', () => {
    ui.retryMs = 1000;
    ui.ended = false;
    setConn('live', 'live');
  });
  es.addEventListener('status', (m) => applyStatus(/** @type {PageStatus} */ (JSON.parse(m.data))));
  es.addEventListener('servers', (m) => applyRows(/** @type {PageStatus} */ (JSON.parse(m.data))));
  es.addEventListener('supervisor', onSupervisor);
  es.addEventListener('detail', onDetail);
  es.addEventListener('end', (m) => {
    // The inspector closed (with its fleet, when the host says so): this is the last word, not a lost line.
    const end = /** @type {{ fleet: FleetPhase | null }} */ (JSON.parse(m.data));
    ui.phase = end.fleet ?? undefined;
    ui.ended = true;
    setConn('closed', 'inspector closed');
    paintPhase('ended');
    retryLater(es);
  });
  es.addEventListener('error', () => {
    if (ui.ended) {
      if (es.readyState === EventSource.CLOSED) retryLater(es);
      return;
    }
    setConn('down', 'disconnected \u2014 retrying');
    paintPhase('lost');
    // The browser retries by itself while CONNECTING; once it gives up (CLOSED) we start over with backoff.
    if (es.readyState === EventSource.CLOSED) retryLater(es);
  });
}

setInterval(() => {
  for (const c of ui.cards.values()) tick(c, ui.skew);
}, 1000);
connect();
