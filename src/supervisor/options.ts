import type { InspectionEvent, Observer } from 'xstate';
import type { ServerConfig } from '../config/types.js';
import type { ContainmentSetting } from '../process/containment.js';
import type { GateVerdict } from '../trust/trust-gate.js';
import type { SupervisorClock } from './clock.js';
import type { InputHandler } from './input-required/rounds.js';
import type { SupervisorLogger } from './logger.js';
import type { ClientHandler, ClientHandlers, Root } from './runtime/client-side.js';
import type { TaskIdScheme } from './tasks/replica-ids.js';
import type { ApprovalRequest } from './types.js';

export type { SupervisorClock, SupervisorLogger };

export interface SupervisorOptions {
  /** Trust gate: asked for a server whose fingerprint is not yet trusted. */
  approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;
  /** Trust store file path; default `$XDG_CONFIG_HOME/mcp-supervisor/trust.json` or `~/.config/mcp-supervisor/trust.json`. */
  trustStore?: string;
  /** Any XState inspection observer, passed to `createActor`. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  logger?: SupervisorLogger;
  /** Clock for timers (XState's SimulatedClock in tests). */
  clock?: SupervisorClock;
  /** Uniform draws in [0, 1) for the backoff jitter, one per exit (tests pin it); default `Math.random`. */
  random?: () => number;
  /** Host environment children may draw on (allowlist, inheritEnv); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Wait after closing a child's stdin before SIGTERM; default min(1 s, shutdown timeout). */
  stdinGraceMs?: number;
  /**
   * A directory where the process-group ledger is kept on disk: a host killed with SIGKILL cannot reap its children,
   * so the next supervisor started with the same directory reaps whatever is still alive (pid reuse checked).
   * Created 0700 when missing; one that another user can write (it or its `logs/`) makes the constructor throw
   * `StateDirUnsafeError` (code `STATE_DIR_UNSAFE`).
   */
  stateDir?: string;
  /**
   * How each server and everything it starts are held together (default `auto`: cgroup, else pid namespace, else
   * process group; see docs/security.md). A forced mechanism this machine lacks makes the constructor throw.
   * Overrides the config's `supervisor.containment`.
   */
  containment?: ContainmentSetting;
  /** Replaces the trust store and `approve` entirely, for hosts that gate launches themselves (no tool pinning then). */
  gate?: (server: ServerConfig, asking?: () => void) => Promise<GateVerdict>;
  /**
   * `checked` (the default): a call to a tool whose server or declaration requires scopes is refused unless the
   * caller's `scopes` grant them, a call passing none included. `unchecked`: a call passing no `scopes` is not
   * checked, for hosts that authorize callers themselves; a call that passes scopes is still checked.
   */
  scopes?: 'checked' | 'unchecked';
  /** Answers `sampling/createMessage` of servers with `allow: [sampling]`; without it, they are refused. */
  onSampling?: ClientHandler;
  /** Answers `elicitation/create` of servers with `allow: [elicitation]`; without it, they are refused. */
  onElicitation?: ClientHandler;
  /** The roots answered to servers with `roots: client` (call `rootsChanged()` when they change). */
  roots?: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);
  /**
   * Answers a server's `input_required` round (MCP 2026-07-28): the call is retried at the same server with these
   * responses and the server's `requestState`, up to 8 rounds. Without it such a call fails `INPUT_REQUIRED`.
   */
  onInputRequired?: InputHandler;
  /**
   * What `onInputRequired` can answer, declared to 2026 servers in each call's client capabilities (a server may
   * ask only for what is declared); default `{ elicitation: {} }`. Add `sampling: {}` or `roots: {}` to take those.
   */
  inputCapabilities?: Record<string, unknown>;
  /**
   * Tells servers allowed to ask (`allow:`, `roots: client`) at their handshake that their questions can be
   * answered even with no handler here: a gateway whose 2026 clients answer a task's questions by polling it
   * (`pollTaskQuestions` on the call; `taskQuestions`, `answerTaskQuestions`). A question outside such a task,
   * with no handler, is still refused.
   */
  declareTaskQuestions?: boolean;
  /**
   * How task ids are made: `replicaTaskIds(key)` for replicas of `serve --http` sharing a session key, so a
   * request for a sibling's task fails `TASK_ELSEWHERE` rather than `UNKNOWN_TASK`. Random UUIDs by default.
   */
  taskIds?: TaskIdScheme;
}

/** Who answers servers' sampling, elicitation and roots requests, as the options say. */
export function handlersOf(options: SupervisorOptions): ClientHandlers {
  const { roots } = options;
  return {
    sampling: options.onSampling,
    elicitation: options.onElicitation,
    roots: typeof roots === 'function' ? roots : roots ? () => roots : undefined,
  };
}
