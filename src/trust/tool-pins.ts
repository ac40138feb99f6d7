import { createHash } from 'node:crypto';
import { canonicalJson } from '../registry/canonical-json.js';

/** The parts of an MCP tool definition a pin covers: everything that tells a model what the tool does. */
export interface PinnableTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
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

/** sha256 (hex) of a tool definition in canonical JSON: key order never changes it, any content change does. */
export function hashToolDefinition(tool: PinnableTool): string {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool;
  const text = canonicalJson({ name, title, description, inputSchema, outputSchema, annotations });
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
