import { canonicalJson } from './canonical-json.js';
import type { ExposedTool } from './exposed-tool.js';

/** What changed between two tool lists, by exposed name; each list in the order of the list it came from. */
export interface ToolDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * Compares two tool lists by exposed name: `added` in `next` order, `removed` in `prev` order, `changed` (in
 * `next` order) when the description, either schema, the scopes or the routing target differ. Schemas compare
 * up to object key order; scopes compare as sets, since their order never changes what a call needs.
 */
export function diffTools(prev: readonly ExposedTool[], next: readonly ExposedTool[]): ToolDiff {
  const before = new Map(prev.map((t) => [t.name, t]));
  const after = new Set(next.map((t) => t.name));
  const added: string[] = [];
  const changed: string[] = [];
  for (const t of next) {
    const old = before.get(t.name);
    if (old === undefined) added.push(t.name);
    else if (old !== t && fingerprintOf(old) !== fingerprintOf(t)) changed.push(t.name);
  }
  const removed = prev.filter((t) => !after.has(t.name)).map((t) => t.name);
  return { added: dedup(added), removed: dedup(removed), changed: dedup(changed) };
}

/**
 * The canonical text of what a tool definition means to a caller: equal exactly when {@link diffTools} sees no
 * change. Suitable for hashing (tool pinning).
 */
export function toolFingerprint(tool: ExposedTool): string {
  return canonicalJson({
    server: tool.server,
    tool: tool.tool,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    scopesRequired: [...new Set(tool.scopesRequired)].sort(),
    // The rest of what the server listed: annotations, _meta, execution, title, icons, future fields.
    definition: tool.definition,
  });
}

/** Fingerprints of frozen tools (a route table's), kept: such a tool cannot change, so its text is computed once. */
const FINGERPRINTS = new WeakMap<ExposedTool, string>();

function fingerprintOf(tool: ExposedTool): string {
  if (!Object.isFrozen(tool)) return toolFingerprint(tool);
  let text = FINGERPRINTS.get(tool);
  if (text === undefined) {
    text = toolFingerprint(tool);
    FINGERPRINTS.set(tool, text);
  }
  return text;
}

function dedup(names: string[]): string[] {
  return [...new Set(names)];
}
