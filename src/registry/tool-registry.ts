import { RegistryError } from './errors.js';
import {
  invalidToolNameMessage,
  type McpToolEntry,
  type NormalizedMcpTool,
  normalizeMcpToolEntry,
} from './manifest.js';
import { isValidBareName } from './naming.js';

/** A registered tool: the normalized form, its top level frozen (schemas are shared with the entry, not copied). */
export type RegisteredTool = Readonly<NormalizedMcpTool>;

/**
 * The tools one plugin (server) declares, by bare name, in registration order. Accepts both entry forms,
 * mixed, and stores the normalized form. Names must follow the bare-name convention (`invalid_name`) and be
 * unique (`duplicate_tool`).
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();

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
    if (typeof name !== 'string') {
      throw new RegistryError(
        'invalid_name',
        'invalid tool entry: expected a tool name or an object with `name`',
      );
    }
    if (!isValidBareName(name)) throw new RegistryError('invalid_name', invalidToolNameMessage(name));
    if (this.#tools.has(name)) throw duplicate(name);
    return Object.freeze(normalizeMcpToolEntry(entry));
  }
}

function duplicate(name: string): RegistryError {
  return new RegistryError('duplicate_tool', `duplicate tool ${JSON.stringify(name)}: already registered`);
}
