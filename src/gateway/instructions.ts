import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type InitializeRequest,
  InitializeRequestSchema,
  type InitializeResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerStatus } from '../supervisor/types.js';

/**
 * One `instructions` text for the whole fleet: a line saying how names are made, then each server's own
 * instructions under a heading naming it. Nothing when no server gave any.
 */
export function composeInstructions(
  rows: readonly ServerStatus[],
  separator: string,
  /** Servers with `namespace: false`, whose names are their own. */
  ownNamed: readonly string[] = [],
): string | undefined {
  const parts = rows.flatMap((row) => {
    const text = row.server?.instructions?.trim();
    if (!text) return [];
    const info = row.server?.info;
    const about = info?.name ? ` (${[info.name, info.version].filter(Boolean).join(' ')})` : '';
    return [`## ${row.id}${about}\n\n${text}`];
  });
  if (parts.length === 0) return undefined;
  const except =
    ownNamed.length === 0 ? '' : `, except those of ${ownNamed.join(', ')}, which keep their own names`;
  const head =
    `This server gathers several MCP servers. Each one's tools and prompts are named ` +
    `'<server>${separator}<name>'${except}; below, each server's own instructions under its id.`;
  return [head, ...parts].join('\n\n');
}

/**
 * Makes `server` answer `initialize` with instructions composed when the client asks, not when the gateway was
 * built: the SDK fixes a Server's instructions at construction, before the fleet has said anything. `compose` is
 * awaited (it may wait, bounded, for the fleet's first start). MCP has no notification for changed instructions,
 * so a client sees the fleet as it was at its handshake.
 */
export function instructionsAtInitialize(
  server: Server,
  compose: () => Promise<string | undefined>,
  adjust: (result: InitializeResult) => InitializeResult = (result) => result,
  /** Runs once the client's capabilities are recorded, before `compose` (which may wait for the fleet). */
  onClient: () => void = () => {},
): void {
  // The SDK's own handler records the client's capabilities and info, which later requests rely on; it is kept
  // and only its answer is extended. Pinned SDK (package.json): a test covers this on every upgrade.
  const sdk = server as unknown as { _oninitialize(r: InitializeRequest): Promise<InitializeResult> };
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await sdk._oninitialize(request);
    onClient();
    const instructions = await compose();
    return adjust(instructions === undefined ? result : { ...result, instructions });
  });
}
