import type { HttpAddress } from '../../gateway/http/address.js';
import type { FleetFlags } from '../fleet-options.js';

export interface ServeFlags extends FleetFlags {
  /** The scopes of the client this gateway serves (`--scopes a,b`); every call is checked against them. */
  scopes?: string[];
  /** `--max-result-bytes`: the cap on every tool result sent; wins over the config's `serve.maxResultBytes`. */
  maxResultBytes?: number;
  /** `--ui [port]`: the live inspector on 127.0.0.1, with the calls clients make; true without a port. */
  ui?: true | number;
  /** `--http HOST:PORT`: serve over Streamable HTTP instead of stdio. */
  http?: HttpAddress;
  /** `--tool-search`: tools/list shows `search_tools` and `call_tool`; the config's `serve.toolSearch` otherwise. */
  toolSearch?: boolean;
  /** `--json-response`: with `--http`, answer each POST with one JSON body rather than an SSE stream. */
  jsonResponse?: boolean;
  /** `--session-key-file`: with `--http`, the file holding the key that seals session ids; wins over `serve.sessionKey`. */
  sessionKeyFile?: string;
  /** `--session-idle`: with `--http`, close a session this long without traffic (ms; 0 never). */
  sessionIdle?: number;
  /** `--max-sessions`: with `--http`, how many sessions and 2026 listen streams may be open at once; wins over `serve.maxSessions`. */
  maxSessions?: number;
  /**
   * `--no-auth` (commander sets `auth: false`): with `--http` on loopback and no `serve.auth`, serve without the
   * per-run token.
   */
  auth?: boolean;
}
