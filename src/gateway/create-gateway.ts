import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Fleet } from './fleet.js';
import { Gateway } from './gateway.js';
import { DEFAULT_SERVE_RESULT_BYTES } from './result-cap.js';

/** How a host serves its fleet to MCP clients; every field has the default `serve` uses. */
export interface ServeOptions {
  /** The server name clients see (`serverInfo.name`); default `mcp-supervisor`. */
  name?: string;
  /** The version clients see (`serverInfo.version`); default `0.0.0`. */
  version?: string;
  /** The client's scopes, checked on every call; none by default (a tool that requires scopes is refused). */
  scopes?: readonly string[];
  /** A cap on every tool result sent; default the config's `serve.maxResultBytes`, else 4 MiB. */
  maxResultBytes?: number;
  /** Told of what went wrong without failing a request (a notification that could not be sent). */
  onWarn?: (message: string) => void;
  /**
   * Tool search: `tools/list` shows `search_tools` and `call_tool` (and the tools named in `expose`) instead of
   * every tool. Default: the config's `serve.toolSearch`; `true` turns it on with the config's `expose`.
   */
  toolSearch?: boolean | { expose?: readonly string[] };
}

/** The fleet served to one MCP client at a time, over any transport of the SDK (stdio for `serve`). */
export interface FleetGateway {
  /**
   * Resolves once the fleet has started: at the first client's `initialize` (or its first 2026 request), so each
   * server's handshake declares what that client can answer (sampling, elicitation, roots).
   */
  readonly started: Promise<void>;
  /** Serves a client on `transport`; `onClose` is called when the transport closes. */
  connect(transport: Transport, onClose?: () => void): Promise<void>;
  /** Closes the client's session; the fleet is the host's to stop. Idempotent. */
  close(): Promise<void>;
}

/** The start of a fleet held until its first client says what it can answer. */
export function firstClientStart(fleet: Pick<Fleet, 'start'>): { started: Promise<void>; begin: () => void } {
  let begin: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    begin = resolve;
  }).then(() => fleet.start());
  return { started, begin };
}

/** Whether tool search is on, and which tools stay in view: the host's word, else the config's. */
export function toolSearchOf(
  fleet: Pick<Fleet, 'config'>,
  given: ServeOptions['toolSearch'],
): { expose: readonly string[] } | undefined {
  const configured = fleet.config.serve?.toolSearch;
  if (given === undefined) return configured;
  if (given === false) return undefined;
  if (given === true) return { expose: configured?.expose ?? [] };
  return { expose: given.expose ?? configured?.expose ?? [] };
}

/** The cap on results a gateway sends when its host gives none: the config's, else the default. */
export function resultCap(fleet: Pick<Fleet, 'config'>, given: number | undefined): number {
  return given ?? fleet.config.serve?.maxResultBytes ?? DEFAULT_SERVE_RESULT_BYTES;
}

/**
 * The fleet as one MCP server for one client (what `mcp-supervisor serve` runs on stdio). The fleet starts when
 * that client first speaks; `close()` ends the session and leaves the fleet running.
 */
export function createGateway(fleet: Fleet, options: ServeOptions = {}): FleetGateway {
  const { started, begin } = firstClientStart(fleet);
  const gateway = new Gateway(fleet, started, {
    name: options.name ?? 'mcp-supervisor',
    version: options.version ?? '0.0.0',
    scopes: options.scopes ?? [],
    maxResultBytes: resultCap(fleet, options.maxResultBytes),
    ...(options.onWarn ? { onWarn: options.onWarn } : {}),
    onClient: begin,
    toolSearch: toolSearchOf(fleet, options.toolSearch),
  });
  return {
    started,
    connect: (transport, onClose) => {
      if (onClose) gateway.server.onclose = onClose;
      return gateway.connect(transport);
    },
    close: () => gateway.close(),
  };
}
