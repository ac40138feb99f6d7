import { isRecord } from '../../framing/is-record.js';
import type { McpConnection } from '../../protocol/connection.js';
import { checkPromptInput, type HostInput, type InputOptions } from '../input-required/host-input.js';
import { rememberHanded, routeChanged } from '../input-required/route-check.js';
import { InputRoutes } from '../input-required/routes.js';
import type { ResourceCatalogs } from './catalogs.js';
import type { RoutedResource } from './listening.js';
import { type ResourceFailure, type ResourceReadOutcome, resourceFailure } from './outcome.js';
import { readResourceAt } from './read.js';

/** What routing a URI to its server asks of the fleet. */
export interface RoutingHost {
  connection: (id: string) => McpConnection | undefined;
  /** Resolves true once the server is ready, false if it went down or `timeoutMs` passed. */
  ready: (id: string, timeoutMs: number) => Promise<boolean>;
  stopped: () => boolean;
  /** Who answers a read's input rounds (the host's `onInputRequired`) and what it declares. */
  input?: HostInput | undefined;
}

/** Routes a fleet URI to its owning server, once that server is ready and offers resources. */
export async function routeResource(
  catalogs: ResourceCatalogs,
  host: RoutingHost,
  uri: unknown,
): Promise<({ ok: true } & RoutedResource) | ResourceFailure> {
  if (typeof uri !== 'string' || uri === '')
    return resourceFailure('INVALID_CALL', 'uri must be a non-empty string');
  if (host.stopped()) return resourceFailure('STOPPED', 'supervisor is stopped', { uri });
  await catalogs.settled();
  const owner = catalogs.routes.ownerOf(uri);
  if (!owner) return resourceFailure('UNKNOWN_RESOURCE', `no server offers resource '${uri}'`, { uri });
  const timeoutMs = catalogs.timeoutOf(owner.server);
  const conn = (await host.ready(owner.server, timeoutMs)) ? host.connection(owner.server) : undefined;
  if (!conn)
    return resourceFailure('SERVER_DOWN', `server '${owner.server}' is not ready`, {
      server: owner.server,
      uri,
    });
  if (!isRecord(conn.serverInit?.capabilities.resources)) {
    const where = { server: owner.server, uri };
    return resourceFailure('NOT_SUPPORTED', `server '${owner.server}' does not offer resources`, where);
  }
  return { ok: true, server: owner.server, original: owner.uri, conn };
}

/** Reads at the owning server; a read that asks for input runs the host's rounds (see `readResourceAt`). */
export class ResourceReads {
  /** Which server handed out each `requestState` a gateway's client got, for its retry's route check. */
  private readonly inputRoutes = new InputRoutes();

  constructor(
    private readonly catalogs: ResourceCatalogs,
    private readonly host: RoutingHost,
  ) {}

  async read(uri: unknown, options?: InputOptions): Promise<ResourceReadOutcome> {
    const checked = checkPromptInput(options);
    if (typeof checked === 'string')
      return resourceFailure('INVALID_CALL', `invalid read options: ${checked}`);
    const per = options?.inputCapabilitiesFor;
    if (per !== undefined && typeof per !== 'function')
      return resourceFailure('INVALID_CALL', 'invalid read options: inputCapabilitiesFor must be a function');
    const opts: InputOptions = per ? { ...checked, inputCapabilitiesFor: per } : checked;
    const target = await routeResource(this.catalogs, this.host, uri);
    if (!target.ok) return target;
    const { server, original, conn } = target;
    const expose = (u: string) => this.catalogs.routes.expose(server, u);
    const changed = routeChanged(this.inputRoutes, opts.retry, server, `resource '${String(uri)}'`);
    if (changed) return resourceFailure('ROUTE_CHANGED', changed, { server, uri: uri as string });
    const timeoutMs = this.catalogs.timeoutOf(server);
    const at = { server, conn, original, uri: uri as string, timeoutMs, expose };
    const out = await readResourceAt(at, opts, this.host.input ?? {});
    if (!out.ok && out.code === 'INPUT_REQUIRED' && opts.passInputRequired)
      rememberHanded(this.inputRoutes, out.input, server);
    return out;
  }
}
