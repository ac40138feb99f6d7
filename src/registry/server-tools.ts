import { isRecord } from '../framing/is-record.js';
import { RegistryError } from './errors.js';
import { exposedNameFor } from './exposed-name.js';
import type { ExposedTool } from './exposed-tool.js';
import type { NormalizedMcpTool } from './manifest.js';
import { checkScopes } from './scopes.js';
import { ToolRegistry } from './tool-registry.js';

/** One tool as a live server lists it in `tools/list` (MCP's `Tool`, the parts the supervisor reads). */
export interface DiscoveredTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  execution?: Record<string, unknown>;
  icons?: unknown[];
  _meta?: Record<string, unknown>;
}

export interface ResolveServerToolsInput {
  serverId: string;
  separator: string;
  /** What the server listed, in its order (all pages). Untrusted: checked entry by entry. */
  discovered: readonly DiscoveredTool[];
  /** What the manifest / config `tools:` declares for this server. */
  declared: readonly NormalizedMcpTool[];
  /** The server's plugin-wide scope floor. */
  scopesRequired: readonly string[];
  /** `false` (a server with `namespace: false`): tools are exposed under their own names. Default true. */
  namespaced?: boolean;
}

export interface ResolvedServerTools {
  /** The tools to expose, in the server's list order. */
  tools: ExposedTool[];
  /** One line per dropped or repaired entry, naming the server; for the log. */
  problems: string[];
  /** Declared tools the server does not list, in declared order; not exposed. */
  missingDeclared: string[];
}

/**
 * Turns one server's `tools/list` into the tools the fleet exposes: names kept as the server spells them
 * (checked only against the MCP charset), duplicates dropped, declared tools merged in as description fallbacks
 * and extra scopes, and the fleet-wide name attached. Pure: the caller logs `problems` and reports
 * `missingDeclared`.
 */
export function resolveServerTools(input: ResolveServerToolsInput): ResolvedServerTools {
  const { serverId, separator } = input;
  const problems: string[] = [];
  // The seed's registry holds both sides: what the config declares and what the server lists, by the tool's own
  // name. Declared names are admitted in the MCP charset too: a config built in code may declare scopes for a
  // tool spelled `get-env`, and dropping them would expose that tool without its scopes.
  const declared = new ToolRegistry({ names: 'mcp' });
  for (const d of input.declared) {
    if (declared.has(d.name)) continue;
    const refused = admit(() => declared.registerNormalized(d));
    if (refused) problems.push(`server ${serverId}: ${refused.message}; declared tool ignored`);
  }

  const tools: ExposedTool[] = [];
  const listed = new ToolRegistry({ names: 'mcp' });
  input.discovered.forEach((raw: unknown, i) => {
    const name = isRecord(raw) ? raw['name'] : undefined;
    const refused = isRecord(raw)
      ? admit(() => listed.registerNormalized({ name: name as string, scopesRequired: [] }))
      : new RegistryError('invalid_name', 'not an object');
    if (refused || !isRecord(raw) || typeof name !== 'string') {
      problems.push(
        refused?.code === 'duplicate_tool'
          ? `server ${serverId}: tool ${JSON.stringify(name)} is listed more than once; later copy dropped`
          : `server ${serverId}: tool #${i} ${describeName(name)} is not a valid MCP tool name ([A-Za-z0-9_.-]{1,128}); dropped`,
      );
      return;
    }
    const decl = declared.get(name);
    const tool: ExposedTool = {
      name: exposedNameFor(serverId, name, separator, input.namespaced !== false),
      server: serverId,
      tool: name,
      inputSchema: { type: 'object' },
      // Plugin-wide floor first, then the tool's own: the same union `checkScopes` will demand at call time.
      scopesRequired: checkScopes({
        pluginWideScopes: input.scopesRequired,
        callerScopes: [],
        tool: { scopesRequired: decl?.scopesRequired ?? [] },
      }).required,
    };
    const description = nonEmptyString(raw['description']) ?? nonEmptyString(decl?.description);
    if (description !== undefined) tool.description = description;
    const inputSchema = raw['inputSchema'];
    if (isRecord(inputSchema)) tool.inputSchema = inputSchema;
    else if (inputSchema !== undefined) {
      problems.push(
        `server ${serverId}: tool ${JSON.stringify(name)} has a non-object inputSchema; using {type: object}`,
      );
    }
    const outputSchema = raw['outputSchema'];
    if (isRecord(outputSchema)) tool.outputSchema = outputSchema;
    else if (outputSchema !== undefined) {
      problems.push(
        `server ${serverId}: tool ${JSON.stringify(name)} has a non-object outputSchema; ignored`,
      );
    }
    copyDefinition(tool, raw);
    tools.push(tool);
  });

  const missingDeclared = declared
    .list()
    .map((d) => d.name)
    .filter((n) => !listed.has(n));
  return { tools, problems, missingDeclared };
}

/** Keeps every other field of the listed definition: typed where MCP defines it, and whole in `definition`. */
function copyDefinition(tool: ExposedTool, raw: Record<string, unknown>): void {
  const { title, annotations, execution, icons, _meta } = raw;
  if (typeof title === 'string') tool.title = title;
  if (isRecord(annotations)) tool.annotations = annotations;
  if (isRecord(execution)) tool.execution = execution;
  if (Array.isArray(icons)) tool.icons = icons;
  if (isRecord(_meta)) tool._meta = _meta;
  // A spread defines own properties, so a listed `__proto__` stays a plain key of the copy.
  tool.definition = { ...raw };
}

/** Runs one registration; the registry's refusal, or undefined when it took the tool. */
function admit(register: () => unknown): RegistryError | undefined {
  try {
    register();
    return undefined;
  } catch (err) {
    if (err instanceof RegistryError) return err;
    throw err;
  }
}

function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim().length > 0 ? v : undefined;
}

function describeName(name: unknown): string {
  if (typeof name !== 'string') return '(no string name)';
  return JSON.stringify(name.length > 140 ? `${name.slice(0, 140)}…` : name);
}
