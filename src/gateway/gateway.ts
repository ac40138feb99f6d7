import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type InitializeResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ExposedTool } from '../supervisor/types.js';
import { type CallerRef, callerKey } from './caller-key.js';
import { gatewayCapabilities } from './capabilities.js';
import type { Envelope } from './era.js';
import { answerDiscover, EraTransport } from './era-2026.js';
import type { Fleet } from './fleet.js';
import { answerThroughFrontClient } from './front-client.js';
import { CallToolRetrySchema, fleetCacheHint, frontCallOptions, is2026Request } from './front-request.js';
import { type FrontRequest, frontToolCall } from './input-required-2025.js';
import { toolCall2026 } from './input-required-2026.js';
import { composeInstructions, instructionsAtInitialize } from './instructions.js';
import { answerListen } from './listen.js';
import { relayProgress } from './progress.js';
import { GatewayPrompts } from './prompts-logging.js';
import { toolCallAnswer } from './render-outcome.js';
import { GatewayResources } from './resources.js';
import { type CallerRounds, RoundSeal } from './seal/round-seal.js';
import {
  answerSearch,
  CALL_TOOL,
  SEARCH_INSTRUCTIONS,
  SEARCH_TOOL,
  searchToolDefinitions,
  unwrapCall,
} from './search/search-tools.js';
import { GATEWAY_TASKS, GatewayTasks } from './tasks.js';
import { declaresTasks, tasksRequired } from './tasks-2026.js';

export interface GatewayOptions {
  name: string;
  version: string;
  /** How long a `tools/list` waits for the fleet's first start to settle (default 10 s). */
  listWaitMs?: number;
  /** Quiet time before `notifications/tools/list_changed` is sent (default 50 ms). */
  debounceMs?: number;
  /**
   * Called once the client's `initialize` is in, and the servers' sampling, elicitation and roots requests are
   * routed to it as far as it declared them: `serve` starts the fleet then, so each server's handshake declares
   * exactly what the client can answer.
   */
  onClient?: () => void;
  /**
   * Makes this client answer the servers' requests once its capabilities are known; by default it becomes the only
   * one that does (stdio). `serve --http` shares that role among its sessions instead.
   */
  frontClient?: (server: Server) => void;
  /** Told about failures to notify the client. */
  onWarn?: (message: string) => void;
  /** The client's scopes, checked on every call; none by default (a tool that requires scopes is refused). */
  scopes?: readonly string[];
  /** A cap on every tool result sent, below each server's own `maxResultBytes` (see docs/configuration.md). */
  maxResultBytes?: number;
  /**
   * The client's authorization context (its credential's name): the tasks it makes are bound to it, and it
   * reaches, lists and hears of no other's. None for a client without one (stdio, `serve --http` without auth).
   */
  taskOwner?: string;
  /**
   * Who this client is, to name on each of its calls (`CallOptions.caller`, with the request's id): a server's
   * request made meanwhile is put to this client alone. Unset for `serve` on stdio, which has one client.
   */
  caller?: Omit<CallerRef, 'requestId'>;
  /**
   * Seals the `requestState` of the input rounds handed to 2026 clients (bound to `caller`'s principal); by
   * default under a key of this process. `serve --http` gives one under its session key, shared by replicas.
   */
  rounds?: RoundSeal;
  /**
   * Tool search: `tools/list` answers `search_tools` and `call_tool` (and the fleet tools named in `expose`)
   * rather than every tool; the fleet's tools are found with the first and called through the second.
   */
  toolSearch?: { expose: readonly string[] } | undefined;
}

/**
 * The whole fleet as one MCP server: every ready server's tools under their namespaced names, calls routed to
 * the supervisor (content blocks and `isError` kept), and `tools/list_changed` whenever the exposed set changes.
 */
export class Gateway {
  readonly server: Server;
  private initialized = false;
  private seen2026 = false;
  private closed = false;
  private announced = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;
  private readonly prompts: GatewayPrompts;
  private readonly resources: GatewayResources;
  private readonly tasks: GatewayTasks;
  private readonly rounds: CallerRounds;

  constructor(
    private readonly sup: Fleet,
    private readonly started: Promise<void>,
    private readonly opts: GatewayOptions,
  ) {
    const capabilities = gatewayCapabilities({
      tools: true,
      resources: { subscribe: true },
      prompts: true,
      completions: true,
      logging: true,
      tasks: GATEWAY_TASKS,
    });
    this.rounds = (opts.rounds ?? new RoundSeal(undefined)).forCaller(opts.caller?.principal ?? null);
    // Prompts, completions and logging are trimmed from the answer when no server offers them (GatewayPrompts).
    this.server = new Server({ name: opts.name, version: opts.version }, { capabilities });
    this.server.oninitialized = () => {
      this.initialized = true;
    };
    this.prompts = new GatewayPrompts(this.server, sup, {
      settled: () => settled(this.started, this.opts.listWaitMs ?? 10_000),
      debounceMs: opts.debounceMs ?? 50,
      onWarn: opts.onWarn,
      callerOf: (requestId) => this.callerOf(requestId),
      rounds: this.rounds,
    });
    this.resources = new GatewayResources(this.server, sup, {
      settled: () => settled(this.started, this.opts.listWaitMs ?? 10_000),
      debounceMs: opts.debounceMs ?? 50,
      onWarn: opts.onWarn,
      callerOf: (requestId) => this.callerOf(requestId),
      rounds: this.rounds,
    });
    this.tasks = new GatewayTasks(this.server, sup, {
      onWarn: opts.onWarn,
      maxResultBytes: opts.maxResultBytes,
      owner: opts.taskOwner,
      callerOf: (requestId) => this.callerOf(requestId),
    });
    const compose = async () => {
      await settled(this.started, this.opts.listWaitMs ?? 10_000);
      const { supervisor, servers } = this.sup.config;
      const ownNamed = servers.filter((s) => s.namespace === false).map((s) => s.id);
      const fleet = composeInstructions(this.sup.status(), supervisor.separator, ownNamed);
      if (!this.opts.toolSearch) return fleet;
      return fleet === undefined ? SEARCH_INSTRUCTIONS : `${SEARCH_INSTRUCTIONS}\n\n${fleet}`;
    };
    const adjust = (result: InitializeResult) =>
      this.tasks.trim(this.resources.trim(this.prompts.trim(result)));
    answerListen(this.server, sup, {
      tools: () => JSON.stringify(this.listed()),
      debounceMs: opts.debounceMs ?? 50,
      onWarn: opts.onWarn,
      tasks: this.tasks.modern,
    });
    answerDiscover(this.server, {
      info: { name: opts.name, version: opts.version },
      capabilities,
      compose,
      adjust,
    });
    instructionsAtInitialize(this.server, compose, adjust, () => {
      if (this.opts.frontClient) this.opts.frontClient(this.server);
      else answerThroughFrontClient(this.server, this.sup);
      this.opts.onClient?.();
    });
    this.server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      await settled(this.started, this.opts.listWaitMs ?? 10_000);
      const tools = this.listed();
      this.announced = JSON.stringify(tools);
      return { tools, ...fleetCacheHint(request.params, this.sup.listCacheHint()) };
    });
    this.server.setRequestHandler(CallToolRetrySchema, async (request, extra) => {
      const modern = is2026Request(request.params);
      // A 2026 retry's sealed requestState is opened (or the request refused) before anything else is done.
      let params = modern ? this.rounds.open(request.params) : request.params;
      if (this.opts.toolSearch && (params.name === SEARCH_TOOL || params.name === CALL_TOOL)) {
        // Found and routed among the tools of a fleet that has started (or waited for as long as a list would).
        await settled(this.started, this.opts.listWaitMs ?? 10_000);
        if (params.name === SEARCH_TOOL) return answerSearch(this.sup, params.arguments);
        const unwrapped = unwrapCall(this.sup, params);
        if ('refused' in unwrapped) return unwrapped.refused;
        params = unwrapped.params;
      }
      const { name, arguments: args } = params;
      const scopes = this.opts.scopes ?? [];
      const progress = relayProgress(params._meta, extra, this.opts.onWarn);
      const cap = this.opts.maxResultBytes;
      if (params.task && !modern) {
        // The server answers at once with a task; its result is fetched later with tasks/result.
        return this.tasks.call(name, args, params.task, {
          ...this.callerOf(extra.requestId),
          signal: extra.signal,
          scopes,
        });
      }
      if (modern) {
        // 2026: serve decides, by the tool's own task support, and only for a request declaring the extension.
        // A tool of a server still starting is not listed yet: its task support is known once the start settled.
        const support =
          this.tasks.modern.support(name) ??
          (await settled(this.started, this.opts.listWaitMs ?? 10_000).then(() =>
            this.tasks.modern.support(name),
          ));
        const declared = declaresTasks(params);
        if (support === 'required' && !declared) throw tasksRequired(`tool '${name}'`);
        if (support !== undefined && support !== 'forbidden' && declared) {
          const call = {
            ...frontCallOptions(params),
            ...this.callerOf(extra.requestId),
            signal: extra.signal,
            scopes,
          };
          return this.rounds.seal(await this.tasks.modern.create(name, args, call));
        }
      }
      const opts = {
        ...frontCallOptions(params),
        ...this.callerOf(extra.requestId),
        signal: extra.signal,
        scopes,
        ...progress,
        ...(cap !== undefined ? { maxResultBytes: cap } : {}),
      };
      // A 2025 client cannot retry an input_required result: serve answers the rounds through it instead.
      const outcome = modern
        ? await toolCall2026(this.sup, name, args, opts)
        : await frontToolCall(this.sup, this.front(extra), name, args, opts);
      const answer = toolCallAnswer(name, outcome, modern ? '2026' : '2025');
      // A round passed on goes out as the server sent it (a copy: the SDK's result type wants an open object).
      return 'resultType' in answer
        ? this.rounds.seal({ ...answer })
        : this.resources.rewriteLinks(name, answer);
    });
    this.unsubscribe = sup.subscribe((e) => {
      if (e.type === 'tools' || e.type === 'state') this.schedule();
    });
  }

  /** The caller a call of request `requestId` names, when this client has one. */
  private callerOf(requestId: string | number): { caller?: string } {
    return this.opts.caller ? { caller: callerKey({ ...this.opts.caller, requestId }) } : {};
  }

  /** A 2025 client's request, for answering its input rounds through that client. */
  private front(extra: { requestId: string | number; signal: AbortSignal }): FrontRequest {
    return { server: this.server, requestId: extra.requestId, signal: extra.signal };
  }

  /** Starts answering on a transport (stdio for `serve`): 2025 traffic after `initialize`, 2026 requests as they come. */
  connect(transport: Transport): Promise<void> {
    return this.server.connect(new EraTransport(transport, (e) => this.modern(e)));
  }

  // A 2026 client never initializes: its first request starts the fleet. It is never sent the servers' sampling,
  // elicitation or roots requests: 2026 has no such wire requests (a 2026 client answers them −32601); what a
  // server asks reaches it as an input_required result of its own call, as its request's capabilities and the
  // server's allow: permit (input-required-2026.ts).
  private modern(_envelope: Envelope): void {
    if (this.closed || this.seen2026) return;
    this.seen2026 = true;
    this.opts.onClient?.();
  }

  // Sorted by name, so both eras (and every replica) list the fleet in one order whatever order servers came up.
  private listed(): Tool[] {
    const search = this.opts.toolSearch;
    const tools = search
      ? search.expose.flatMap((name) => {
          const tool = this.sup.getTool(name);
          return tool ? [tool] : [];
        })
      : this.sup.listTools();
    const fleet = tools.map(toMcpTool).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return search ? [...searchToolDefinitions(), ...fleet] : fleet;
  }

  /** Stops notifying and closes the MCP session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.prompts.close();
    this.tasks.close();
    // The servers are told to unsubscribe, but a stopping gateway does not wait on their answers.
    void this.resources.close();
    if (this.timer) clearTimeout(this.timer);
    await this.server.close().catch(() => {});
  }

  // State changes are cheap to check: only a different exposed set (names or definitions) is announced.
  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.announce();
    }, this.opts.debounceMs ?? 50);
  }

  private announce(): void {
    if (this.closed || !this.initialized) return;
    const now = JSON.stringify(this.listed());
    if (now === this.announced) return;
    this.announced = now;
    this.server.sendToolListChanged().catch((err: unknown) => {
      this.opts.onWarn?.(
        `could not send tools/list_changed: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
  }
}

/** An exposed tool as an MCP `Tool` (schemas are objects, as MCP requires). */
export function toMcpTool(t: ExposedTool): Tool {
  // Every field the server listed goes on (title, annotations, execution, icons, _meta, future ones); only the
  // name is ours, and the parts the fleet checked or filled in (schemas, a declared description) are its own.
  const { description: _d, outputSchema: _o, ...listed } = t.definition ?? {};
  const tool: Tool = { ...listed, name: t.name, inputSchema: { ...t.inputSchema, type: 'object' } };
  if (t.description !== undefined) tool.description = t.description;
  if (t.outputSchema !== undefined) tool.outputSchema = { ...t.outputSchema, type: 'object' };
  return tool;
}

function settled(p: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    p.finally(() => {
      clearTimeout(timer);
      resolve();
    }).catch(() => {});
  });
}
