import { RegistryError } from './errors.js';
import { isValidMcpToolName, MCP_TOOL_NAME } from './exposed-name.js';
import {
  invalidToolNameMessage,
  type McpToolEntry,
  type NormalizedMcpTool,
  normalizeMcpToolEntry,
} from './manifest.js';
import { isValidBareName } from './naming.js';

/** A registered tool: the normalized form, its top level frozen (schemas are shared with the entry, not copied). */
export type RegisteredTool = Readonly<NormalizedMcpTool>;

/** Options of a {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /**
   * Which names it admits: `bare` (the default, the seed's convention: what a manifest or config declares) or
   * `mcp` (the MCP charset `[A-Za-z0-9_.-]{1,128}`: what a live server lists, kept exactly as the server spells it).
   */
  names?: 'bare' | 'mcp';
}

/**
 * The tools one plugin (server) declares, by bare name, in registration order. Accepts both entry forms,
 * mixed, and stores the normalized form. Names must follow the bare-name convention (`invalid_name`) and be
 * unique (`duplicate_tool`). With `{ names: 'mcp' }` it holds what a live server lists instead: the same store
 * and checks, the MCP charset for names — the fleet keeps each server's listing in one.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #names: 'bare' | 'mcp';

  constructor(options: ToolRegistryOptions = {}) {
    this.#names = options.names ?? 'bare';
  }

  /**
   * Registers every entry of `provides.mcp_tools` (or a config `tools:` list), atomically: every entry is
   * checked (name, duplicates against the registry and within the list) before any is registered, so on a
   * throw the registry is unchanged. Throws the first problem in list order.
   */
  registerFromManifest(entries: readonly McpToolEntry[]): void {
    const batch = new Map<string, RegisteredTool>();
    for (const entry of entries) {
      const tool = this.#check(entry);
      if (batch.has(tool.name)) throw duplicate(tool.name);
      batch.set(tool.name, tool);
    }
    for (const [name, tool] of batch) this.#tools.set(name, tool);
  }

  /** Registers one entry (either form); returns the stored normalized tool. */
  register(entry: McpToolEntry): RegisteredTool {
    const tool = this.#check(entry);
    this.#tools.set(tool.name, tool);
    return tool;
  }

  /**
   * Registers one tool already in the normalized (camelCase) form — a parsed config's `tools`, or a tool as a
   * live server lists it — with the same checks; returns the stored copy (its top level frozen).
   */
  registerNormalized(tool: NormalizedMcpTool): RegisteredTool {
    const name: unknown = typeof tool === 'object' && tool !== null ? tool.name : undefined;
    this.#admit(name);
    const stored: RegisteredTool = Object.freeze({
      ...tool,
      scopesRequired: [...(tool.scopesRequired ?? [])],
    });
    this.#tools.set(stored.name, stored);
    return stored;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Every registered tool, in registration order (a new array each call). */
  list(): RegisteredTool[] {
    return [...this.#tools.values()];
  }

  clear(): void {
    this.#tools.clear();
  }

  get size(): number {
    return this.#tools.size;
  }

  #check(entry: McpToolEntry): RegisteredTool {
    const name: unknown =
      typeof entry === 'string'
        ? entry
        : typeof entry === 'object' && entry !== null
          ? entry.name
          : undefined;
    this.#admit(name);
    return Object.freeze(normalizeMcpToolEntry(entry));
  }

  #admit(name: unknown): asserts name is string {
    if (typeof name !== 'string') {
      throw new RegistryError(
        'invalid_name',
        'invalid tool entry: expected a tool name or an object with `name`',
      );
    }
    if (this.#names === 'bare' && !isValidBareName(name)) {
      throw new RegistryError('invalid_name', invalidToolNameMessage(name));
    }
    if (this.#names === 'mcp' && !isValidMcpToolName(name)) {
      throw new RegistryError(
        'invalid_name',
        `invalid tool name ${JSON.stringify(name)}: expected ${MCP_TOOL_NAME.source.slice(1, -1)}`,
      );
    }
    if (this.#tools.has(name)) throw duplicate(name);
  }
}

function duplicate(name: string): RegistryError {
  return new RegistryError('duplicate_tool', `duplicate tool ${JSON.stringify(name)}: already registered`);
}
