/**
 * A tool as the fleet exposes it: `name` is its fleet-wide (exposed) name, `server` and `tool` are where a call
 * by that name goes — the server's id and the tool's name as that server spells it.
 */
export interface ExposedTool {
  name: string;
  server: string;
  tool: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  scopesRequired: string[];
}
