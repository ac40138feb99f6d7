import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { isRecord } from '../framing/is-record.js';
import { RegistryError } from './errors.js';
import { dotted, type LocatedProblem, parseLocatedYaml, zodProblems } from './located-yaml.js';
import { isValidBareName } from './naming.js';

/** A JSON Schema object as it appears in a manifest (`input_schema`, `output_schema`): any mapping. */
const JsonSchemaObject = z.record(z.string(), z.unknown());

/**
 * The extended (Phase-3) form of one `mcp_tools` entry. Strict: an unknown key is an error, located at the key.
 * Field names are the manifest's snake_case; {@link normalizeMcpToolEntry} turns them into MCP's camelCase.
 * Structural only: whether `name` follows the naming convention is checked by {@link mcpToolEntryNameIssues},
 * {@link parseManifest} and the registry.
 */
export const ExtendedMcpToolSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  input_schema: JsonSchemaObject.optional(),
  output_schema: JsonSchemaObject.optional(),
  scopes_required: z.array(z.string()).optional(),
});

export type ExtendedMcpTool = z.infer<typeof ExtendedMcpToolSchema>;
/** One `mcp_tools` (or config `tools:`) entry: the bare string form (Phase-1) or the extended form (Phase-3). */
export type McpToolEntry = string | ExtendedMcpTool;

/**
 * `string | ExtendedMcpTool`. Not a plain `z.union`: a union that fails reports only "Invalid input" at the
 * entry, so this picks the branch by the input's type and reports that branch's own issues (`name` missing,
 * `scopes_required[0]` not a string, an unknown key located at the key).
 */
export const McpToolEntrySchema = z.unknown().transform((value, ctx): McpToolEntry => {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a tool name or a mapping with \`name\`, received ${kindOf(value)}`,
    });
    return z.NEVER;
  }
  const result = ExtendedMcpToolSchema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
  return z.NEVER;
});

/** The one shape the registry stores and checks scopes against (MCP camelCase). */
export interface NormalizedMcpTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  scopesRequired: string[];
}

/**
 * Upgrades either entry form to the normalized form: the string form becomes `{ name, scopesRequired: [] }`;
 * the extended form maps `input_schema`/`output_schema`/`scopes_required` to camelCase. Optional fields that are
 * absent stay absent (no `undefined` keys). Does not validate the name: the registry does that.
 */
export function normalizeMcpToolEntry(entry: McpToolEntry): NormalizedMcpTool {
  if (typeof entry === 'string') return { name: entry, scopesRequired: [] };
  const out: NormalizedMcpTool = { name: entry.name, scopesRequired: [...(entry.scopes_required ?? [])] };
  if (entry.description !== undefined) out.description = entry.description;
  if (entry.input_schema !== undefined) out.inputSchema = entry.input_schema;
  if (entry.output_schema !== undefined) out.outputSchema = entry.output_schema;
  return out;
}

/** What a manifest's `provides` may hold (strict: any other key is an error). */
export const ManifestProvidesSchema = z.strictObject({
  mcp_tools: z.array(McpToolEntrySchema).default([]),
  scopes_required: z.array(z.string()).default([]),
});

/** A plugin manifest: `provides` is required and strict; any other top-level field is kept as it is. */
export const ManifestSchema = z.looseObject({
  provides: ManifestProvidesSchema,
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestProvides = z.infer<typeof ManifestProvidesSchema>;

/** A naming problem of a list of declared tool entries, with its path relative to the list. */
export interface ToolEntryNameIssue {
  path: (string | number)[];
  message: string;
  /** For a duplicate: the path of the first entry with that name. */
  firstPath?: (string | number)[];
}

/**
 * Naming problems of a raw (not yet validated) list of tool entries: every name that breaks the bare-name
 * convention (located at the string entry, or at `name` of the extended form) and every name declared twice
 * (located at the later one). Entries without a string name are skipped: the schema reports those. Works on
 * raw input so it can run next to schema validation and every problem is reported at once. The config parser
 * runs the same check over a server's `tools:`.
 */
export function mcpToolEntryNameIssues(entries: unknown): ToolEntryNameIssue[] {
  if (!Array.isArray(entries)) return [];
  const issues: ToolEntryNameIssue[] = [];
  const first = new Map<string, (string | number)[]>();
  entries.forEach((entry: unknown, i) => {
    const isObject = typeof entry === 'object' && entry !== null && !Array.isArray(entry);
    const name =
      typeof entry === 'string' ? entry : isObject ? (entry as { name?: unknown }).name : undefined;
    if (typeof name !== 'string') return;
    const path: (string | number)[] = typeof entry === 'string' ? [i] : [i, 'name'];
    if (!isValidBareName(name)) {
      issues.push({ path, message: invalidToolNameMessage(name) });
      return;
    }
    const seen = first.get(name);
    if (seen) issues.push({ path, message: `duplicate tool ${JSON.stringify(name)}`, firstPath: seen });
    else first.set(name, path);
  });
  return issues;
}

/** The message for a declared tool name that breaks the convention (shared with the registry). */
export function invalidToolNameMessage(name: string): string {
  return `invalid tool name ${JSON.stringify(name)}: expected dot-separated segments of [a-z][a-z0-9_]*`;
}

/**
 * Parses and validates a manifest (YAML or JSON text). Returns it with defaults filled, or throws a
 * `RegistryError('invalid_manifest')` whose `problems` (and message, one `file:line:col path: message` per line)
 * list every problem: YAML syntax, duplicate keys, schema errors, unknown keys, tool names that break the
 * convention, tools declared twice.
 */
export function parseManifest(yamlText: string, source = '<manifest>'): Manifest {
  const doc = parseLocatedYaml(yamlText, source);
  if (doc.problems.length > 0) throw RegistryError.invalidManifest(doc.problems);
  const result = ManifestSchema.safeParse(doc.value);
  const problems: LocatedProblem[] = result.success ? [] : zodProblems(result.error.issues, doc, source);
  const provides = isRecord(doc.value) ? doc.value['provides'] : undefined;
  const base = ['provides', 'mcp_tools'];
  for (const issue of mcpToolEntryNameIssues(isRecord(provides) ? provides['mcp_tools'] : undefined)) {
    const path = [...base, ...issue.path];
    let message = issue.message;
    if (issue.firstPath) {
      const at = doc.locate([...base, ...issue.firstPath]);
      message += ` (first declared at line ${at.line})`;
    }
    problems.push({ source, ...doc.locate(path), path: dotted(path), message });
  }
  if (problems.length > 0 || !result.success) {
    throw RegistryError.invalidManifest(problems.sort((a, b) => a.line - b.line || a.col - b.col));
  }
  return result.data;
}

/**
 * Reads and parses a manifest file. An unreadable file is an `invalid_manifest` error too
 * (`path:1:1: cannot read manifest: ENOENT: no such file or directory`), so callers print `err.message` alone.
 */
export async function loadManifest(path: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw RegistryError.invalidManifest([
      { source: path, line: 1, col: 1, path: '', message: `cannot read manifest: ${readReason(err)}` },
    ]);
  }
  return parseManifest(text, path);
}

function readReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // Node appends `, open '<path>'`; the path is already the problem's source.
  return message.replace(/, \w+ '.*'$/s, '');
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v;
}
