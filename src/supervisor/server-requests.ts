import { type JsonRpcMessage, type JsonRpcRequest, METHOD_NOT_FOUND } from './json-rpc.js';

/**
 * Answers requests a server sends us, at once and always: `ping` → `{}`, `roots/list` → the configured roots,
 * and everything else (sampling, elicitation, unknown) → -32601. A server cannot drive our model or our user.
 */
export class ServerRequestHandler {
  constructor(
    private readonly roots: readonly string[] | undefined,
    private readonly write: (m: JsonRpcMessage) => boolean,
    private readonly onRefused: (method: string) => void,
  ) {}

  /** Answers one server→client request. */
  handle(req: JsonRpcRequest): void {
    if (req.method === 'ping') {
      this.write({ jsonrpc: '2.0', id: req.id, result: {} });
      return;
    }
    if (req.method === 'roots/list' && this.roots) {
      const roots = this.roots.map((uri) => ({ uri, name: nameOf(uri) }));
      this.write({ jsonrpc: '2.0', id: req.id, result: { roots } });
      return;
    }
    this.write({
      jsonrpc: '2.0',
      id: req.id,
      error: { code: METHOD_NOT_FOUND, message: `method '${req.method}' is not offered by this client` },
    });
    this.onRefused(req.method);
  }
}

function nameOf(uri: string): string {
  const trimmed = uri.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || uri;
}
