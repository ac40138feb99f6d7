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
  title?: string;
  /** Hints from the server (readOnlyHint, destructiveHint, ...): trustworthy only as far as the server is. */
  annotations?: Record<string, unknown>;
  /** How the tool runs, e.g. `{ taskSupport: 'required' }` (MCP 2025-11-25). */
  execution?: Record<string, unknown>;
  icons?: unknown[];
  _meta?: Record<string, unknown>;
  /**
   * The whole definition as the server listed it, fields no MCP version has yet included (`name` is the server's
   * own): what a gateway passes on, under the exposed name.
   */
  definition?: Record<string, unknown>;
}
