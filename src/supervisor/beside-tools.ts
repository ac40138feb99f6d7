import type { CallOptions } from '../protocol/call-options.js';
import { type SurfaceOutcome, surfaceFailure } from '../protocol/surface-outcome.js';
import type { ExposedPrompt } from '../registry/exposed-prompt.js';
import type { InputOptions, PromptInputOptions } from './input-required/host-input.js';
import { spanned } from './observe/request-spans.js';
import type { FleetParts } from './parts.js';
import type { CompleteResult, CompletionRef } from './prompts/complete.js';
import type { LogLevel, SetLevelOutcome } from './prompts/log-level.js';
import type { GetPromptResult } from './prompts/prompts.js';
import type {
  ResourceListOutcome,
  ResourceReadOutcome,
  ResourceSubscribeOutcome,
  ResourceTemplatesOutcome,
  ResourceUpdate,
} from './resources/outcome.js';
import type { TaskQuestion } from './tasks/inputs.js';
import type { TaskMethod, TaskPage } from './tasks/tasks.js';

/**
 * What the fleet offers beside tool calls — tasks, prompts, completion, logging and resources — as the
 * `Supervisor` facade's methods: each routed to its part, never rejecting, a failure data with its code.
 */
export abstract class BesideTools {
  protected abstract readonly parts: FleetParts;
  protected abstract isStopping(): boolean;

  /**
   * A task-augmented `tools/call` (MCP tasks): the server's CreateTaskResult, its task id made the fleet's
   * (docs/mcp-surface.md, "Tasks"). Never rejects: a failure is data with its code.
   */
  callToolAsTask(
    name: string,
    args: Record<string, unknown> | undefined,
    task: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    return this.parts.calls.asTask(name, args, task, opts);
  }

  /**
   * `tasks/get`, `tasks/result` or `tasks/cancel` at the server that created the task; never rejects. A task bound
   * to another `owner` than this request's (see `CallOptions.taskOwner`) is `UNKNOWN_TASK`. `caller` names who the
   * request is made for, as `CallOptions.caller` does: a question the server asks while it is open is told of it.
   */
  taskRequest(
    method: TaskMethod,
    taskId: string,
    opts: {
      maxResultBytes?: number;
      inputResponses?: Record<string, unknown>;
      owner?: string;
      caller?: string;
    } = {},
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    if (this.isStopping()) return Promise.resolve(surfaceFailure('STOPPED', 'supervisor is stopped'));
    return this.parts.tasks.request(method, taskId, opts);
  }

  /**
   * What the server of task `taskId` (the fleet's id) asks and waits on, by key, for a task created with
   * `pollTaskQuestions`: each an MCP request (`elicitation/create`, `sampling/createMessage`, `roots/list`) as the
   * 2026 tasks extension's `inputRequests` has it. Asking also makes sure a 2025 server has the chance to ask (its
   * questions come while `tasks/result` is open). Empty when it waits on nothing, or is bound to another owner.
   */
  taskQuestions(taskId: string, opts: { owner?: string } = {}): Record<string, TaskQuestion> {
    if (!this.parts.tasks.ownedBy(taskId, opts.owner)) return {};
    if (!this.isStopping()) this.parts.tasks.pull(taskId);
    return this.parts.taskInputs.questions(taskId);
  }

  /** Whose task `taskId` is: a 2026 server's (the tasks extension), a 2025 one's, or none this owner may reach. */
  taskEra(taskId: string, opts: { owner?: string } = {}): 'modern' | 'legacy' | undefined {
    return this.parts.tasks.ownedBy(taskId, opts.owner) ? this.parts.tasks.eraOf(taskId) : undefined;
  }

  /** Answers questions of {@link taskQuestions} by key (keys not waiting are ignored); how many were answered. */
  answerTaskQuestions(
    taskId: string,
    responses: Record<string, unknown>,
    opts: { owner?: string } = {},
  ): number {
    if (!this.parts.tasks.ownedBy(taskId, opts.owner)) return 0;
    return this.parts.taskInputs.answer(taskId, responses);
  }

  /**
   * One page of the tasks of every server that lists tasks, under the fleet's task ids; `nextCursor` asks for the
   * next page, and a cursor this fleet did not hand out fails with `INVALID_CURSOR`. Only the tasks bound to
   * `owner` are listed (without one, those bound to no one); `caller` as `taskRequest`'s. Never rejects.
   */
  listTasks(
    opts: { cursor?: string; owner?: string; caller?: string } = {},
  ): Promise<SurfaceOutcome<TaskPage>> {
    if (this.isStopping()) return Promise.resolve(surfaceFailure('STOPPED', 'supervisor is stopped'));
    return this.parts.tasks.list(opts.cursor, opts.owner, opts.caller);
  }

  /**
   * Hears each server's `notifications/tasks/status`, under the fleet's task ids, with the owner the task is
   * bound to: tell it to that owner alone.
   */
  onTaskStatus(listener: (params: Record<string, unknown>, owner: string | undefined) => void): () => void {
    return this.parts.tasks.onStatus(listener);
  }

  /** Every prompt of every ready server, under its namespaced name (made as tools' names are). */
  listPrompts(): ExposedPrompt[] {
    return this.parts.prompts.listPrompts();
  }

  /**
   * Gets a prompt by its namespaced name; never rejects: a failure is data with its code (`UNKNOWN_PROMPT`, …).
   * `opts` carry a 2026 input round as for tools (`retry`, `passInputRequired`, `inputCapabilities`).
   */
  async getPrompt(
    name: string,
    args?: Record<string, string>,
    opts?: PromptInputOptions,
  ): Promise<SurfaceOutcome<GetPromptResult>> {
    if (this.isStopping()) return surfaceFailure('STOPPED', 'supervisor is stopped');
    const tracer = this.parts.tracing.tracer();
    if (!tracer) return this.parts.prompts.getPrompt(name, args, opts);
    const prompt = this.parts.prompts.listPrompts().find((p) => p.name === name)?.prompt ?? name;
    const attributes = {
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': prompt,
      'mcp_supervisor.prompt': name,
    };
    return spanned(tracer, `prompts/get ${prompt}`, attributes, opts, (traced) =>
      this.parts.prompts.getPrompt(name, args, traced),
    );
  }

  /**
   * `completion/complete`, routed by the prompt's namespaced name or the resource template's URI; never rejects.
   * `opts.caller` names who it is made for, as `CallOptions.caller` does.
   */
  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> | undefined },
    opts?: { caller?: string },
  ): Promise<SurfaceOutcome<CompleteResult>> {
    if (this.isStopping()) return surfaceFailure('STOPPED', 'supervisor is stopped');
    return this.parts.prompts.complete(ref, argument, context, opts);
  }

  /** Sends `logging/setLevel` to every ready server that declares logging (and to each that becomes ready later). */
  setLogLevel(level: LogLevel): Promise<SetLevelOutcome> {
    return this.parts.prompts.setLogLevel(level);
  }

  /** Whether some ready server declares an MCP capability (`prompts`, `completions`, `logging`, …). */
  offers(capability: string): boolean {
    return this.parts.prompts.offers(capability);
  }

  /**
   * One page of every ready server's resources, in config order (docs/registry.md, "Resource URIs"); pass the
   * `nextCursor` back for the next page. Never rejects: a failure is data with its code.
   */
  listResources(opts: { cursor?: string } = {}): Promise<ResourceListOutcome> {
    return this.parts.resources.list(opts.cursor);
  }

  /** Every ready server's resource templates, template URIs under the same rules as resource URIs. */
  listResourceTemplates(): Promise<ResourceTemplatesOutcome> {
    return this.parts.resources.templates();
  }

  /**
   * Reads a resource from the server that owns its URI; never rejects (`UNKNOWN_RESOURCE`, `SERVER_DOWN`, …).
   * A read that answers `input_required` runs `onInputRequired` rounds as a tool call does; `opts` as `getPrompt`'s.
   */
  readResource(uri: string, opts?: InputOptions): Promise<ResourceReadOutcome> {
    const tracer = this.parts.tracing.tracer();
    if (!tracer) return this.parts.resources.read(uri, opts);
    const attributes = { 'mcp.method.name': 'resources/read', 'mcp.resource.uri': uri };
    return spanned(tracer, 'resources/read', attributes, opts, (traced) =>
      this.parts.resources.read(uri, traced),
    );
  }

  /**
   * Subscribes to a resource at its owning server: `listener` hears that server's `resources/updated` for that
   * resource and nothing else. Subscriptions survive a restart of the server. Never rejects.
   */
  subscribeResource(
    uri: string,
    listener: (update: ResourceUpdate) => void,
  ): Promise<ResourceSubscribeOutcome> {
    return this.parts.resources.subscribe(uri, listener);
  }

  /** The fleet's URI for a URI a server gave (a resource link in a tool result): `readResource` follows it back. */
  resourceUriOf(server: string, uri: string): string {
    return this.parts.resources.uriOf(server, uri);
  }
}
