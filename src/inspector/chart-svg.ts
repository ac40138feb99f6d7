import { type ChartBox, type ChartLayout, type ChartPoint, LABEL_LINE } from './chart-layout.js';

/** Text for SVG markup: every state name and event label is escaped, whatever machine it comes from. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const path = (points: readonly ChartPoint[]): string =>
  points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');

function box(b: ChartBox): string {
  const cls = b.compound ? 'n frame' : `n state${b.final ? ' final' : ''}`;
  const attrs = `class="${cls}" data-key="${esc(b.key)}" data-testid="chart-node-${esc(b.key)}" data-within="${esc(b.within.join(' '))}" data-active="false"`;
  const rect = `<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" rx="${b.compound ? 8 : 6}"/>`;
  const title = `<title>${esc(b.id)}</title>`;
  const text = b.compound
    ? `<text class="k" x="${b.x + 10}" y="${b.y + 16}">${esc(b.key)}</text>`
    : `<text class="k" x="${b.x + b.width / 2}" y="${b.y + b.height / 2 + 4}" text-anchor="middle">${esc(b.key)}</text>`;
  return `<g ${attrs}>${rect}${title}${text}</g>`;
}

/**
 * The laid-out chart as SVG markup: frames first (so they sit behind), then arrows, then the states on top. Each
 * state is a `g.n` with `data-key`, which the page lights for the selected server; nothing in it comes from a
 * server, and every name is escaped all the same.
 */
export function chartSvg(layout: ChartLayout): string {
  const frames = layout.boxes.filter((b) => b.compound).map(box);
  const states = layout.boxes.filter((b) => !b.compound).map(box);
  const edges = layout.edges.map((e) => {
    const top = e.labelAt.y - ((e.label.length - 1) * LABEL_LINE) / 2 + 4;
    const lines = e.label
      .map((l, i) => `<tspan x="${e.labelAt.x}" y="${top + i * LABEL_LINE}">${esc(l)}</tspan>`)
      .join('');
    const port =
      e.fromFrame && e.points[0]
        ? `<circle class="port" cx="${e.points[0].x}" cy="${e.points[0].y}" r="3"/>`
        : '';
    return (
      `<g class="e" data-from="${esc(e.from)}" data-to="${esc(e.to)}">` +
      `<path d="${path(e.points)}" marker-end="url(#arrow)"/>${port}` +
      `<text text-anchor="middle">${lines}</text></g>`
    );
  });
  const start = layout.start
    ? `<g class="start"><circle cx="${layout.start.at.x}" cy="${layout.start.at.y}" r="5"/>` +
      `<path d="${path(layout.start.points)}" marker-end="url(#arrow)"/></g>`
    : '';
  const defs =
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" ' +
    'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="statechart" data-testid="statechart" role="img" ` +
    `viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}">` +
    `<title>the server machine's statechart</title>${defs}${frames.join('')}${edges.join('')}${start}${states.join('')}</svg>`
  );
}
