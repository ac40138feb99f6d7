/** One tool a server exposes: its fleet-wide name, its own, and every scope a call of it needs. */
export interface ToolRow {
  name: string;
  tool: string;
  scopes: string[];
}

/** One server of `tools`: where it got to, what it exposes, and, when it exposes nothing, why. */
export interface ServerTools {
  id: string;
  /** Its state once the start settled, or `disabled` for one the config does not start. */
  state: string;
  tools: ToolRow[];
  /** Why it is not ready, as a code: `disabled`, `untrusted`, or the reason of its last exit (`spawn_failed`, …). */
  reason?: string;
  /** The same for people. */
  message?: string;
}

const COLUMNS = ['SERVER', 'STATE', 'TOOL', 'SCOPES'] as const;

/**
 * `tools` for people: one line per tool (server, state, exposed name, the scopes a call needs or `-`), and one
 * line for a server without tools, whose last column says why (`not trusted: …`, `spawn failed: …`).
 */
export function renderToolsTable(servers: readonly ServerTools[]): string[] {
  const rows: string[][] = [];
  for (const s of servers) {
    for (const t of s.tools) rows.push([s.id, s.state, t.name, t.scopes.join(',') || '-']);
    if (s.tools.length === 0) rows.push([s.id, s.state, s.message ?? '(no tools)']);
  }
  // The why of a server without tools runs on past the TOOL column, so it does not widen it.
  const widths = COLUMNS.map((h, i) =>
    Math.max(h.length, ...rows.filter((r) => i < r.length - 1).map((r) => r[i]!.length)),
  );
  const layout = (cells: readonly string[]) =>
    cells
      .map((v, i) => (i === cells.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [layout(COLUMNS), ...rows.map(layout)];
}
