import { z } from 'zod';

/** A JSON Schema object as it appears in a manifest (`input_schema`, `output_schema`): any mapping. */
const JsonSchemaObject = z.record(z.string(), z.unknown());

/**
 * The extended (Phase-3) form of one `mcp_tools` entry. Strict: an unknown key is an error, located at the key.
 * Field names are the manifest's snake_case; {@link normalizeMcpToolEntry} turns them into MCP's camelCase.
 */
export const ExtendedMcpToolSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  input_schema: JsonSchemaObject.optional(),
  output_schema: JsonSchemaObject.optional(),
  scopes_required: z.array(z.string()).optional(),
});

/** One `mcp_tools` entry: the bare string form (Phase-1) or the extended object form (Phase-3). */
export const McpToolEntrySchema = z.union([z.string(), ExtendedMcpToolSchema]);

export type ExtendedMcpTool = z.infer<typeof ExtendedMcpToolSchema>;
export type McpToolEntry = z.infer<typeof McpToolEntrySchema>;

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
