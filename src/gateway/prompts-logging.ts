import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  type InitializeResult,
  ListPromptsRequestSchema,
  type LoggingLevel,
  type Prompt,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ExposedPrompt } from '../registry/exposed-prompt.js';
import type { SupervisorEvent } from '../supervisor/types.js';
import type { Fleet } from './fleet.js';
import { fleetCacheHint, frontCallOptions, GetPromptRetrySchema, is2026Request } from './front-request.js';
import { frontPrompt, frontRequest } from './input-required-2025.js';
import { prompt2026 } from './input-required-2026.js';
import { rpcError } from './render-outcome.js';
import type { CallerRounds } from './seal/round-seal.js';

/** The kinds beside tools that `serve` declares only when some server of the fleet offers them at the handshake. */
const OPTIONAL = ['prompts', 'completions', 'logging'] as const;

/** The `_meta` key under which a JSON-RPC error of `serve` carries the failure's code. */

export interface GatewayPromptsOptions {
  /** Resolves once the fleet's first start settled (bounded). */
  settled: () => Promise<void>;
  /** Quiet time before `notifications/prompts/list_changed` is sent. */
  debounceMs: number;
  /** The caller a request of this client names (see `Gateway`'s `caller`), by the request's id. */
  callerOf?: (requestId: string | number) => { caller?: string };
  /** Seals the input rounds handed to a 2026 client and opens its retries (see `Gateway`'s `rounds`). */
  rounds?: CallerRounds | undefined;
  onWarn?: ((message: string) => void) | undefined;
}

/**
 * Prompts, completion and logging through `serve`: handlers routed to the supervisor, `prompts/list_changed`
 * when the exposed prompts change, and each server's `notifications/message` passed on with its logger named
 * `<server id>/<logger>` (just `<server id>` when it gave none). The handlers are set up front (the SDK wants the
 * capability declared before a handler); {@link GatewayPrompts.trim} then leaves out of the `initialize` answer
 * each kind no server offers, so a client is never told of something the fleet cannot answer.
 */
export class GatewayPrompts {
  private readonly advertised = new Set<string>(OPTIONAL);
  private announced = '';
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly server: Server,
    private readonly sup: Fleet,
    private readonly opts: GatewayPromptsOptions,
  ) {
    server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
      await opts.settled();
      const prompts = sup.listPrompts().map(toMcpPrompt);
      this.announced = JSON.stringify(prompts);
      // A 2026 client is told the fleet's cache hint, as for tools/list.
      return { prompts, ...fleetCacheHint(request.params, sup.listCacheHint('prompts')) };
    });
    server.setRequestHandler(GetPromptRetrySchema, async (request, extra) => {
      const modern = is2026Request(request.params);
      const params = modern && opts.rounds ? opts.rounds.open(request.params) : request.params;
      const { name, arguments: args } = params;
      // A 2026 client's input round, as for tools/call: its capabilities declared, its retry sent on as given. A
      // 2025 client is asked by serve with the 2025 requests it declared.
      const named = opts.callerOf?.(extra.requestId) ?? {};
      const out = modern
        ? await prompt2026(sup, name, args, { ...frontCallOptions(params), ...named })
        : await frontPrompt(sup, { ...frontRequest(server, extra, params), ...named }, name, args);
      if (!out.ok) throw rpcError(out);
      return (modern && opts.rounds ? opts.rounds.seal(out.result) : out.result) as never;
    });
    server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
      const { ref, argument, context } = request.params;
      const out = await sup.complete(ref, argument, context, opts.callerOf?.(extra.requestId));
      if (!out.ok) throw rpcError(out);
      return out.result as never;
    });
    server.setRequestHandler(SetLevelRequestSchema, async (request) => {
      const out = await sup.setLogLevel(request.params.level);
      if (!out.ok) throw rpcError(out);
      for (const f of out.failed) opts.onWarn?.(`logging/setLevel: ${f.server ?? 'a server'}: ${f.message}`);
      return {};
    });
    this.unsubscribe = sup.subscribe((e) => this.onEvent(e));
  }

  /** The `initialize` answer with only the kinds the fleet offers now (call after the first start settled). */
  trim(result: InitializeResult): InitializeResult {
    const capabilities = { ...result.capabilities };
    for (const kind of OPTIONAL) {
      if (this.sup.offers(kind)) continue;
      delete capabilities[kind];
      this.advertised.delete(kind);
    }
    return { ...result, capabilities };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
  }

  private onEvent(e: SupervisorEvent): void {
    if (this.closed) return;
    if (e.type === 'prompts') this.schedule();
    else if (e.type === 'log' && this.advertised.has('logging')) this.forwardLog(e);
  }

  private forwardLog(e: Extract<SupervisorEvent, { type: 'log' }>): void {
    const logger = e.logger === undefined ? e.server : `${e.server}/${e.logger}`;
    const params = { level: e.level as LoggingLevel, logger, data: e.data };
    this.server.notification({ method: 'notifications/message', params }).catch((err: unknown) => {
      this.opts.onWarn?.(`could not forward a log message: ${describe(err)}`);
    });
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.announce();
    }, this.opts.debounceMs);
  }

  private announce(): void {
    if (this.closed || !this.advertised.has('prompts')) return;
    const now = JSON.stringify(this.sup.listPrompts().map(toMcpPrompt));
    if (now === this.announced) return;
    this.announced = now;
    // Before the handshake the SDK refuses to send; the client lists what is there once it is up.
    this.server.sendPromptListChanged().catch((err: unknown) => {
      this.opts.onWarn?.(`could not send prompts/list_changed: ${describe(err)}`);
    });
  }
}

/** An exposed prompt as MCP lists it: the server's definition whole, under the exposed name. */
export function toMcpPrompt(p: ExposedPrompt): Prompt {
  return { ...p.definition, name: p.name } as Prompt;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
