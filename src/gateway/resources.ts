import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type InitializeResult,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../framing/is-record.js';
import type { CallToolResult as ToolResult } from '../protocol/tool-calls.js';
import type { SupervisorEvent } from '../supervisor/types.js';
import type { Fleet } from './fleet.js';
import { fleetCacheHint, frontCallOptions, is2026Request, ReadResourceRetrySchema } from './front-request.js';
import { frontRead, frontRequest } from './input-required-2025.js';
import { read2026 } from './input-required-2026.js';
import { rpcError } from './render-outcome.js';
import type { CallerRounds } from './seal/round-seal.js';

/** The `data` key under which a JSON-RPC error of `serve` carries the failure's code. */

/** JSON-RPC "resource not found" (MCP). */

export interface ResourcesOptions {
  /** Resolves once the fleet's first start settled (bounded). */
  settled: () => Promise<void>;
  /** Quiet time before `notifications/resources/list_changed` is sent. */
  debounceMs: number;
  /** The caller a request of this client names (see `Gateway`'s `caller`), by the request's id. */
  callerOf?: (requestId: string | number) => { caller?: string };
  /** Seals the input rounds handed to a 2026 client and opens its retries (see `Gateway`'s `rounds`). */
  rounds?: CallerRounds | undefined;
  onWarn?: ((message: string) => void) | undefined;
}

/**
 * Resources through `serve`: list (our cursor), templates, read, subscribe and unsubscribe routed to the
 * supervisor; each subscribed resource's `resources/updated` sent back under the URI the client subscribed with;
 * `resources/list_changed` whenever a server's resources come, go or change. Handlers are set up front (the SDK
 * wants the capability declared before a handler); {@link GatewayResources.trim} leaves `resources` out of the
 * `initialize` answer when no server offers them.
 */
export class GatewayResources {
  private advertised = true;
  private readonly subscriptions = new Map<string, () => Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly server: Server,
    private readonly sup: Fleet,
    private readonly opts: ResourcesOptions,
  ) {
    server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
      await opts.settled();
      const cursor = request.params?.cursor;
      const out = await sup.listResources(cursor === undefined ? {} : { cursor });
      if (!out.ok) throw rpcError(out);
      // A 2026 client is told the fleet's cache hint, as for tools/list.
      const hint = fleetCacheHint(request.params, sup.listCacheHint('resources'));
      return out.nextCursor === undefined
        ? { resources: out.resources as never, ...hint }
        : { resources: out.resources as never, nextCursor: out.nextCursor, ...hint };
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request) => {
      await opts.settled();
      const out = await sup.listResourceTemplates();
      if (!out.ok) throw rpcError(out);
      const hint = fleetCacheHint(request.params, sup.listCacheHint('resourceTemplates'));
      return { resourceTemplates: out.resourceTemplates as never, ...hint };
    });
    server.setRequestHandler(ReadResourceRetrySchema, async (request, extra) => {
      await opts.settled();
      // A 2026 client answers a read's input rounds itself (its retry's sealed state opened first); for a 2025
      // one, serve asks it with the 2025 requests it declared.
      const modern = is2026Request(request.params);
      const params = modern && opts.rounds ? opts.rounds.open(request.params) : request.params;
      const { uri } = params;
      const named = opts.callerOf?.(extra.requestId) ?? {};
      const out = modern
        ? await read2026(sup, uri, { ...frontCallOptions(params), ...named })
        : await frontRead(sup, { ...frontRequest(server, extra, params), ...named }, uri);
      if (!out.ok && modern && out.code === 'INPUT_REQUIRED' && out.input)
        return (opts.rounds ? opts.rounds.seal(out.input) : out.input) as never;
      if (!out.ok) throw rpcError(out);
      return { contents: out.contents as never, ...(out._meta ? { _meta: out._meta } : {}) };
    });
    server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      await opts.settled();
      const { uri } = request.params;
      // The client is subscribed once per URI, however often it asks.
      if (this.subscriptions.has(uri)) return {};
      const out = await sup.subscribeResource(uri, (u) => this.updated(u.uri));
      if (!out.ok) throw rpcError(out);
      if (this.closed) {
        await out.unsubscribe();
        return {};
      }
      this.subscriptions.set(uri, out.unsubscribe);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      const off = this.subscriptions.get(request.params.uri);
      this.subscriptions.delete(request.params.uri);
      await off?.();
      return {};
    });
    this.unsubscribe = sup.subscribe((e) => this.onEvent(e));
  }

  /** The `initialize` answer without `resources` when no server offers them (call after the first start settled). */
  trim(result: InitializeResult): InitializeResult {
    if (this.sup.offers('resources')) return result;
    this.advertised = false;
    const { resources: _none, ...capabilities } = result.capabilities;
    return { ...result, capabilities };
  }

  /** A tool result whose resource links and embedded resources name URIs `resources/read` here can follow. */
  rewriteLinks(toolName: string, result: ToolResult): ToolResult {
    const server = this.sup.getTool(toolName)?.server;
    if (server === undefined || !Array.isArray(result.content)) return result;
    let changed = false;
    const content = result.content.map((block) => {
      if (block.type === 'resource_link' && typeof block.uri === 'string') {
        const uri = this.sup.resourceUriOf(server, block.uri);
        if (uri === block.uri) return block;
        changed = true;
        return { ...block, uri };
      }
      if (block.type === 'resource' && isRecord(block.resource) && typeof block.resource.uri === 'string') {
        const uri = this.sup.resourceUriOf(server, block.resource.uri);
        if (uri === block.resource.uri) return block;
        changed = true;
        return { ...block, resource: { ...block.resource, uri } };
      }
      return block;
    });
    return changed ? { ...result, content } : result;
  }

  /** Stops notifying and lets go of every subscription at the servers; idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    const offs = [...this.subscriptions.values()];
    this.subscriptions.clear();
    await Promise.all(offs.map((off) => off()));
  }

  private updated(uri: string): void {
    if (this.closed) return;
    this.server.sendResourceUpdated({ uri }).catch((err: unknown) => {
      this.opts.onWarn?.(`could not send resources/updated: ${describe(err)}`);
    });
  }

  private onEvent(e: SupervisorEvent): void {
    if (this.closed || e.type !== 'resources') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.announce();
    }, this.opts.debounceMs);
  }

  private announce(): void {
    if (this.closed || !this.advertised) return;
    // Before the handshake the SDK refuses to send; the client lists what is there once it is up.
    this.server.sendResourceListChanged().catch((err: unknown) => {
      this.opts.onWarn?.(`could not send resources/list_changed: ${describe(err)}`);
    });
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
