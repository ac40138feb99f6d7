import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** What the front of `serve` can answer for, whatever the fleet's servers happen to be at the moment. */
export interface GatewayFeatures {
  /** Always on: tools are the gateway's own surface. */
  tools: true;
  resources?: { subscribe: boolean };
  prompts?: boolean;
  completions?: boolean;
  logging?: boolean;
  /** Task-augmented `tools/call` and `tasks/*` (MCP 2025-11-25), passed through to the servers that declare them. */
  tasks?: NonNullable<ServerCapabilities['tasks']>;
}

/**
 * The capabilities `serve` declares in its `initialize` answer. They are fixed for the session: a server that
 * restarts, or whose lists come and go, changes what the lists hold (and is announced by list_changed), never
 * what the client was told it may ask. So each kind is declared when the gateway has a handler for it, not
 * when some server happens to be up.
 */
export function gatewayCapabilities(features: GatewayFeatures): ServerCapabilities {
  const caps: ServerCapabilities = { tools: { listChanged: true } };
  if (features.resources) {
    caps.resources = { listChanged: true, subscribe: features.resources.subscribe };
  }
  if (features.prompts) caps.prompts = { listChanged: true };
  if (features.completions) caps.completions = {};
  if (features.logging) caps.logging = {};
  if (features.tasks) caps.tasks = features.tasks;
  return caps;
}
