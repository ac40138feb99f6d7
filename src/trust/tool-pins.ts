import { createHash } from 'node:crypto';
import { canonicalJson } from '../registry/canonical-json.js';

/**
 * An MCP tool definition as a pin covers it: the whole of it — annotations, `_meta`, execution, icons and fields
 * no MCP version has yet included — since any of it may change what a client or a model does with the tool.
 */
export interface PinnableTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  _meta?: unknown;
}

/** What a tool list looks like against the pins of its server. */
export interface PinCheck<T extends PinnableTool> {
  /** Tools that may be exposed: unchanged since pinned (or everything, at first sight). */
  pinned: T[];
  /** Tools held back until approved: definition changed, or not pinned before. */
  held: T[];
  changed: string[];
  added: string[];
  /** Pinned names the list no longer has. */
  removed: string[];
  /** No pins existed: everything is allowed and the caller should store `pinsFor(tools)`. */
  firstSight: boolean;
}

/**
 * sha256 (hex) of a whole tool definition in canonical JSON: key order never changes it, any content change does.
 * A definition of only the fields pins once covered hashes as it always did, so stored pins stay valid.
 */
export function hashToolDefinition(tool: PinnableTool): string {
  const text = canonicalJson(tool);
  return createHash('sha256').update(`mcp-supervisor/tool/1\0${text}`, 'utf8').digest('hex');
}

/** The pins to store for a tool list (name → hash); a name listed twice keeps its first definition. */
export function pinsFor(tools: readonly PinnableTool[]): Record<string, string> {
  // Null prototype: a tool may well be called `constructor` or `__proto__`.
  const pins: Record<string, string> = Object.create(null);
  for (const t of tools) if (!Object.hasOwn(pins, t.name)) pins[t.name] = hashToolDefinition(t);
  return pins;
}

/**
 * Sorts a server's tool list against its pins. Without pins this is first sight: all pinned, nothing held.
 * Removed tools need no approval; keeping their pins means a later return with another definition is held.
 */
export function checkPins<T extends PinnableTool>(
  pins: Readonly<Record<string, string>> | undefined,
  tools: readonly T[],
): PinCheck<T> {
  if (pins === undefined) {
    return { pinned: [...tools], held: [], changed: [], added: [], removed: [], firstSight: true };
  }
  const result: PinCheck<T> = {
    pinned: [],
    held: [],
    changed: [],
    added: [],
    removed: [],
    firstSight: false,
  };
  const seen = new Set<string>();
  for (const t of tools) {
    const pin = Object.hasOwn(pins, t.name) ? pins[t.name] : undefined;
    if (pin === hashToolDefinition(t)) {
      result.pinned.push(t);
    } else {
      result.held.push(t);
      const list = pin === undefined ? result.added : result.changed;
      if (!list.includes(t.name)) list.push(t.name);
    }
    seen.add(t.name);
  }
  result.removed = Object.keys(pins).filter((name) => !seen.has(name));
  return result;
}
