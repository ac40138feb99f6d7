// A log-log line plot as SVG text, for docs/performance.md: the scale table's curves where people would rather look
// than read. No dependency: a few lines and labels.

export interface Series {
  label: string;
  color: string;
  dashed?: boolean;
  /** [servers, seconds] */
  points: Array<[number, number]>;
}

const W = 680;
const H = 360;
const PAD = { left: 56, right: 190, top: 20, bottom: 44 };

const decades = (lo: number, hi: number) => {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out;
};

/** The SVG of `series` on log axes: servers across, seconds up. */
export function logLogPlot(title: string, series: Series[]): string {
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1])).filter((y) => y > 0);
  const xTicks = decades(Math.min(...xs), Math.max(...xs));
  const yTicks = decades(Math.min(...ys), Math.max(...ys));
  const [x0, x1] = [Math.log10(xTicks[0] as number), Math.log10(xTicks.at(-1) as number)];
  const [y0, y1] = [Math.log10(yTicks[0] as number), Math.log10(yTicks.at(-1) as number)];
  const px = (x: number) => PAD.left + ((Math.log10(x) - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (y: number) =>
    H - PAD.bottom - ((Math.log10(y) - y0) / (y1 - y0 || 1)) * (H - PAD.top - PAD.bottom);
  const f = (v: number) => v.toFixed(1);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<title>${title}</title>`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${PAD.left}" y="14" font-weight="bold">${title}</text>`,
  ];
  for (const t of xTicks)
    parts.push(
      `<line x1="${f(px(t))}" y1="${PAD.top}" x2="${f(px(t))}" y2="${H - PAD.bottom}" stroke="#ddd"/>`,
      `<text x="${f(px(t))}" y="${H - PAD.bottom + 16}" text-anchor="middle">${t.toLocaleString('en')}</text>`,
    );
  for (const t of yTicks)
    parts.push(
      `<line x1="${PAD.left}" y1="${f(py(t))}" x2="${W - PAD.right}" y2="${f(py(t))}" stroke="#ddd"/>`,
      `<text x="${PAD.left - 6}" y="${f(py(t) + 4)}" text-anchor="end">${t}</text>`,
    );
  parts.push(
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 8}" text-anchor="middle">servers</text>`,
    `<text transform="translate(14 ${(H - PAD.bottom + PAD.top) / 2}) rotate(-90)" text-anchor="middle">seconds</text>`,
  );
  series.forEach((s, i) => {
    const pts = s.points.filter((p) => p[1] > 0);
    const dash = s.dashed ? ' stroke-dasharray="5 4"' : '';
    parts.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} points="${pts.map((p) => `${f(px(p[0]))},${f(py(p[1]))}`).join(' ')}"/>`,
      ...pts.map((p) => `<circle cx="${f(px(p[0]))}" cy="${f(py(p[1]))}" r="3" fill="${s.color}"/>`),
      `<line x1="${W - PAD.right + 12}" y1="${PAD.top + 10 + i * 20}" x2="${W - PAD.right + 36}" y2="${PAD.top + 10 + i * 20}" stroke="${s.color}" stroke-width="2"${dash}/>`,
      `<text x="${W - PAD.right + 42}" y="${PAD.top + 14 + i * 20}">${s.label}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
