/** A short human duration: `850ms`, `42s`, `3m05s`, `2h07m`, `3d04h`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${pad2(s % 60)}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${pad2(m % 60)}m`;
  return `${Math.floor(h / 24)}d${pad2(h % 24)}h`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
