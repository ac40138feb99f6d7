// Browser-side logic of the inspector: the event stream, one card per server, the timeline. Plain ES2017 in a
// string (no template literals inside). Every value from the fleet goes in through textContent, never HTML.

/** The page's main script; expects CHART_SCRIPT's globals to be defined first. */
export const PAGE_SCRIPT = String.raw`
var MAX_ROWS = 200;
var ui = { graph: null, graphText: '', cards: {}, skew: 0, boot: '', seq: 0, es: null, retryMs: 1000 };
// The per-run token the page was opened with; every request of the page carries it, or the server answers 403.
var TOKEN = new URLSearchParams(location.search).get('token') || '';
function authed(path) { return path + '?token=' + encodeURIComponent(TOKEN); }

function $(id) { return document.getElementById(id); }
function el(tag, attrs, text) {
  var e = document.createElement(tag);
  for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }
function clock(ms) {
  var d = new Date(ms);
  return pad(d.getHours(), 2) + ':' + pad(d.getMinutes(), 2) + ':' + pad(d.getSeconds(), 2) + '.' + pad(d.getMilliseconds(), 3);
}
function duration(ms) {
  var s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return s + 's';
  var m = Math.floor(s / 60);
  if (m < 60) return m + 'm ' + pad(s % 60, 2) + 's';
  var h = Math.floor(m / 60);
  if (h < 24) return h + 'h ' + pad(m % 60, 2) + 'm';
  return Math.floor(h / 24) + 'd ' + (h % 24) + 'h';
}
function setState(node, state) {
  node.className = node.className.replace(/\bst-[a-z]+\b/g, '').trim() + ' st-' + state;
}
function exitText(x) {
  if (x.signal) return 'killed by ' + x.signal;
  return x.code === null || x.code === undefined ? 'exited' : 'exit code ' + x.code;
}

function makeCard(id) {
  var card = el('section', { class: 'card', 'data-testid': 'server-card-' + id });
  var head = el('div', { class: 'head' });
  head.appendChild(el('span', { class: 'id' }, id));
  var pill = el('span', { class: 'pill', 'data-testid': 'server-state-' + id });
  head.appendChild(pill);
  card.appendChild(head);
  var dl = el('dl');
  var f = {};
  [['pid', 'pid'], ['restarts', 'restarts'], ['uptime', 'in state'], ['tools', 'tools'], ['containment', 'contained by']].forEach(function (p) {
    var dt = el('dt', {}, p[1]);
    dl.appendChild(dt);
    f[p[0]] = el('dd', { 'data-testid': 'server-' + p[0] + '-' + id });
    f[p[0] + 'Label'] = dt;
    dl.appendChild(f[p[0]]);
  });
  card.appendChild(dl);
  var ex = el('div', { class: 'lastexit', 'data-testid': 'server-exit-' + id });
  ex.hidden = true;
  var what = el('div');
  var exWhat = el('span', { class: 'what' });
  var exReason = el('span', { class: 'reason' });
  what.appendChild(exWhat);
  what.appendChild(document.createTextNode(' '));
  what.appendChild(exReason);
  ex.appendChild(what);
  var tail = el('pre', { 'data-testid': 'server-stderr-' + id });
  ex.appendChild(tail);
  card.appendChild(ex);
  var chart = el('div', { class: 'chart' });
  card.appendChild(chart);
  return { id: id, root: card, pill: pill, f: f, ex: ex, exWhat: exWhat, exReason: exReason, tail: tail, chart: chart, svg: null, s: null };
}

function paintCard(c) {
  var s = c.s;
  setState(c.root, s.state);
  c.pill.textContent = s.state;
  c.f.pid.textContent = s.pid === undefined ? '\u2014' : String(s.pid);
  c.f.restarts.textContent = String(s.restarts);
  c.f.tools.textContent = String(s.tools);
  c.f.containment.textContent = s.containment || '\u2014';
  c.f.uptimeLabel.textContent = s.state === 'ready' ? 'uptime' : 'in state';
  tick(c);
  var x = s.lastExit;
  c.ex.hidden = !x;
  if (x) {
    c.exWhat.textContent = x.why ? 'could not start: ' + x.why : 'last exit: ' + exitText(x);
    c.exReason.textContent = (x.reason ? '\u2014 ' + x.reason : '') + (x.at ? ' at ' + clock(x.at) : '');
    c.tail.textContent = x.stderrTail || '(no stderr)';
  }
  if (!c.svg && ui.graph) {
    c.svg = drawChart(c.id, ui.graph);
    c.chart.appendChild(c.svg);
  }
  if (c.svg) lightChart(c.svg, s.state);
}

function tick(c) {
  c.f.uptime.textContent = duration(Date.now() + ui.skew - c.s.since);
}

function applyStatus(data) {
  ui.skew = data.now - Date.now();
  var fleet = $('fleet');
  var seen = {};
  var counts = {};
  data.servers.forEach(function (s, i) {
    seen[s.id] = true;
    counts[s.state] = (counts[s.state] || 0) + 1;
    var c = ui.cards[s.id];
    if (!c) { c = ui.cards[s.id] = makeCard(s.id); }
    // Moved only when out of place, so a scrolled stderr tail keeps its position across updates.
    if (fleet.children[i] !== c.root) fleet.insertBefore(c.root, fleet.children[i] || null);
    c.s = s;
    paintCard(c);
  });
  Object.keys(ui.cards).forEach(function (id) {
    if (!seen[id]) { ui.cards[id].root.remove(); delete ui.cards[id]; }
  });
  $('empty').hidden = data.servers.length > 0;
  var parts = [data.servers.length + (data.servers.length === 1 ? ' server' : ' servers')];
  Object.keys(counts).sort().forEach(function (k) { parts.push(counts[k] + ' ' + k); });
  $('summary').textContent = parts.join(' \u00b7 ');
}

function describe(e) {
  switch (e.type) {
    case 'state': return null;
    case 'exit': return e.why ? 'could not start: ' + e.why : exitText(e) + (e.reason ? ' \u2014 ' + e.reason : '');
    case 'refused': return 'refused ' + e.method;
    case 'untrusted': return 'untrusted (fingerprint ' + String(e.fingerprint).slice(0, 12) + ')';
    case 'tools':
      return 'tools +' + e.added.length + ' \u2212' + e.removed.length + ' ~' + e.changed.length +
        (e.changed.length ? ' (held: ' + e.changed.join(', ') + ')' : '');
    case 'notice': return e.message;
    case 'escalated': return 'escalated: ' + e.reason;
    default: return e.type;
  }
}

function addRow(e) {
  var tr = el('tr', { 'data-testid': 'timeline-row', 'data-type': e.type, class: e.type });
  tr.appendChild(el('td', { class: 'time' }, clock(e.at)));
  tr.appendChild(el('td', { class: 'srv' }, e.server === undefined || e.server === null ? 'supervisor' : e.server));
  var what = el('td', { class: 'what' });
  if (e.type === 'state') {
    what.appendChild(document.createTextNode((e.from || 'start') + ' \u2192 '));
    var to = el('span', { class: 'to st-' + e.to }, e.to);
    what.appendChild(to);
  } else {
    what.textContent = describe(e);
  }
  tr.appendChild(what);
  var body = $('timeline-body');
  body.insertBefore(tr, body.firstChild);
  while (body.childNodes.length > MAX_ROWS) body.removeChild(body.lastChild);
}

function onSupervisor(msg) {
  var parts = String(msg.lastEventId || '').split(':');
  var seq = Number(parts[1]);
  if (parts[0] !== ui.boot) { ui.boot = parts[0]; ui.seq = 0; }
  if (seq <= ui.seq) return;
  ui.seq = seq;
  var e = JSON.parse(msg.data);
  addRow(e);
  // A live state change shows at once; an old one replayed on connect is older than the status and is ignored.
  var c = e.type === 'state' ? ui.cards[e.server] : null;
  if (c && c.s && e.at >= c.s.since) {
    c.s = Object.assign({}, c.s, { state: e.to, since: e.at });
    paintCard(c);
  }
}

function setGraph(graph) {
  var text = JSON.stringify(graph);
  if (text === ui.graphText) return;
  ui.graph = graph;
  ui.graphText = text;
  Object.keys(ui.cards).forEach(function (id) {
    var c = ui.cards[id];
    if (c.svg) { c.svg.remove(); c.svg = null; }
    if (c.s) paintCard(c);
  });
}

function loadGraph() {
  return fetch(authed('/api/statechart'), { cache: 'no-store' })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (g) { if (g) setGraph(g); })
    .catch(function () {});
}

function setConn(state, text) {
  var c = $('conn');
  c.setAttribute('data-state', state);
  c.textContent = text;
}

function connect() {
  setConn('connecting', 'connecting\u2026');
  var es = new EventSource(authed('/events'));
  ui.es = es;
  es.addEventListener('open', function () {
    ui.retryMs = 1000;
    setConn('live', 'live');
    loadGraph();
  });
  es.addEventListener('status', function (m) { applyStatus(JSON.parse(m.data)); });
  es.addEventListener('supervisor', onSupervisor);
  es.addEventListener('error', function () {
    setConn('down', 'disconnected \u2014 retrying');
    // The browser retries by itself while CONNECTING; once it gives up (CLOSED) we start over with backoff.
    if (es.readyState === EventSource.CLOSED) {
      es.close();
      setTimeout(connect, ui.retryMs);
      ui.retryMs = Math.min(ui.retryMs * 2, 10000);
    }
  });
}

setInterval(function () {
  Object.keys(ui.cards).forEach(function (id) { if (ui.cards[id].s) tick(ui.cards[id]); });
}, 1000);
loadGraph().then(connect);
`;
