/**
 * A JSON-RPC error `serve` answers with. The SDK's server sends a thrown error's `code`, `message` and `data` as
 * they are; its own `McpError` writes "MCP error N: " into `message`, which the client's SDK then adds again
 * ("MCP error -32602: MCP error -32602: …"). This carries the message as it should be on the wire.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}
