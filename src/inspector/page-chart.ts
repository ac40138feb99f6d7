// Browser-side drawing of a statechart as nested SVG boxes, one row per transition. Plain ES2017 in a string
// (no template literals inside, so it embeds as-is); it defines globals the page script calls.

/** Defines `drawChart(serverId, graph) → SVGSVGElement` and `lightChart(svg, stateKey)`. */
export const CHART_SCRIPT = String.raw`
var SVGNS = 'http://www.w3.org/2000/svg';
var CHART_W = 290;

function svgEl(name, attrs, text) {
  var e = document.createElementNS(SVGNS, name);
  for (var k in attrs) e.setAttribute(k, String(attrs[k]));
  if (text !== undefined) e.textContent = text;
  return e;
}

function clip(s, n) {
  return s.length > n ? s.slice(0, Math.max(1, n - 1)) + '\u2026' : s;
}

function indexNodes(node, map) {
  map[node.id] = node;
  for (var i = 0; i < node.children.length; i++) indexNodes(node.children[i], map);
  return map;
}

function transitionLabel(t, node, byId) {
  var targets = t.targets.map(function (id) {
    var n = byId[id];
    var key = n ? n.key : id;
    return id === node.id ? '\u21ba ' + key : key;
  });
  return t.event + (t.guard ? ' [' + t.guard + ']' : '') + ' \u2192 ' + (targets.length ? targets.join(', ') : '(stays)');
}

function drawNode(parent, node, x, y, w, serverId, byId, isInitial, isRoot) {
  var g = svgEl('g', {
    class: 'n ' + node.type,
    'data-testid': 'chart-node-' + serverId + '-' + node.key,
    'data-key': node.key,
    'data-active': 'false',
  });
  if (isRoot) g.setAttribute('data-root', 'true');
  parent.appendChild(g);
  var rect = svgEl('rect', { x: x, y: y, width: w, rx: 5 });
  g.appendChild(rect);
  g.appendChild(svgEl('title', {}, node.id));
  var maxChars = Math.floor((w - 22) / 5.6);
  var label = (isInitial ? '\u25cf ' : '') + node.key + (node.type === 'final' ? ' \u25ce' : '');
  var cy = y + 15;
  g.appendChild(svgEl('text', { class: 'k', x: x + 8, y: cy }, clip(label, maxChars)));
  if (node.type === 'compound' || node.type === 'parallel') {
    g.appendChild(svgEl('text', { class: 'm', x: x + w - 8, y: cy, 'text-anchor': 'end' }, node.type));
  }
  cy += 3;
  for (var i = 0; i < node.transitions.length; i++) {
    var full = transitionLabel(node.transitions[i], node, byId);
    cy += 12;
    var t = svgEl('text', { class: 't', x: x + 14, y: cy }, clip(full, maxChars));
    t.appendChild(svgEl('title', {}, full));
    g.appendChild(t);
  }
  cy += 7;
  if (node.children.length) {
    for (var j = 0; j < node.children.length; j++) {
      var c = node.children[j];
      cy = drawNode(g, c, x + 8, cy, w - 16, serverId, byId, c.key === node.initial, false) + 5;
    }
    cy += 2;
  }
  rect.setAttribute('height', String(cy - y));
  return cy;
}

function drawChart(serverId, graph) {
  var svg = svgEl('svg', { 'data-testid': 'chart-' + serverId, role: 'img' });
  svg.appendChild(svgEl('title', {}, 'statechart of ' + serverId));
  var h = drawNode(svg, graph, 1, 1, CHART_W - 2, serverId, indexNodes(graph, {}), false, true) + 1;
  svg.setAttribute('viewBox', '0 0 ' + CHART_W + ' ' + h);
  svg.setAttribute('width', String(CHART_W));
  svg.setAttribute('height', String(h));
  return svg;
}

function lightChart(svg, state) {
  var nodes = svg.querySelectorAll('g.n');
  var lit = [];
  for (var i = 0; i < nodes.length; i++) {
    var g = nodes[i];
    var on = g.getAttribute('data-key') === state && !g.hasAttribute('data-root');
    g.setAttribute('data-active', on ? 'true' : 'false');
    g.removeAttribute('data-contains-active');
    if (on) lit.push(g);
  }
  for (var j = 0; j < lit.length; j++) {
    for (var p = lit[j].parentNode; p && p.classList && p.classList.contains('n'); p = p.parentNode) {
      p.setAttribute('data-contains-active', 'true');
    }
  }
}
`;
