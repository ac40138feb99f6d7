// @ts-check
// The selected server's detail pane: what it said of itself, its recent calls, restarts, log tail and tools.

import { byId, el } from './dom.js';
import { bytes, clock, describeEvent, identityText, logLine, millis } from './format.js';

/** @import { PageRow } from '../page-data.js' */
/** @import { ServerDetail } from '../server-details.js' */

/**
 * Replaces a table body's rows.
 * @param {HTMLElement} body
 * @param {HTMLElement[]} rows
 */
function fill(body, rows) {
  body.replaceChildren(...rows);
}

/**
 * Paints the pane for one server; a server with no detail yet shows empty sections.
 * @param {PageRow} row
 * @param {ServerDetail | undefined} d
 */
export function paintDetail(row, d) {
  byId('detail').hidden = false;
  byId('detail').className = `st-${row.state}`;
  byId('detail-id').textContent = row.id;
  const where = row.container
    ? ` \u00b7 container ${row.container.id.slice(0, 12)} on ${row.container.engine}`
    : row.containment
      ? ` \u00b7 ${row.containment}`
      : '';
  byId('detail-info').textContent = (identityText(row.server) || 'no handshake yet') + where;

  const calls = [...(d?.calls ?? [])].reverse();
  fill(
    byId('calls-body'),
    calls.map((c) => {
      const tr = el('tr', { 'data-testid': 'call-row' });
      tr.appendChild(el('td', {}, clock(c.at)));
      tr.appendChild(el('td', {}, c.tool));
      tr.appendChild(el('td', { class: 'num' }, millis(c.ms)));
      tr.appendChild(el('td', { class: c.code === 'OK' ? 'good' : 'bad' }, c.code));
      tr.appendChild(el('td', { class: 'num' }, bytes(c.bytes)));
      return tr;
    }),
  );
  byId('calls-none').hidden = calls.length > 0;

  const restarts = [...(d?.restarts ?? [])].reverse();
  fill(
    byId('restarts-body'),
    restarts.map((e) => {
      const tr = el('tr', { class: e.type, 'data-testid': 'restart-row' });
      tr.appendChild(el('td', {}, clock(e.at)));
      const what = tr.appendChild(el('td'));
      if (e.type === 'state') {
        what.appendChild(document.createTextNode('\u2192 '));
        what.appendChild(el('span', { class: `to st-${e.to}` }, e.to));
      } else {
        what.textContent = describeEvent(e) ?? e.type;
      }
      return tr;
    }),
  );
  byId('restarts-none').hidden = restarts.length > 0;

  const logs = byId('logs');
  const stick = logs.scrollTop + logs.clientHeight >= logs.scrollHeight - 4;
  const lines = d?.logs ?? [];
  if (lines.length > 0) {
    fill(
      logs,
      lines.map((e) => el('div', { class: e.source }, logLine(e))),
    );
  } else {
    // Before any line was kept (or with no ring), the last exit's tail is what there is.
    logs.textContent = row.lastExit?.stderrTail || '(nothing logged)';
  }
  // Follows the tail unless the reader scrolled up to read.
  if (stick) logs.scrollTop = logs.scrollHeight;

  fill(
    byId('tools'),
    (d?.tools ?? []).map((t) => {
      const li = el('li', {}, t.name);
      if (t.description) li.appendChild(el('span', { class: 'desc' }, ` \u2014 ${t.description}`));
      return li;
    }),
  );
  // Server text, set as text: a server's instructions never become markup.
  byId('instructions').textContent = row.server?.instructions ?? '(none)';
}
