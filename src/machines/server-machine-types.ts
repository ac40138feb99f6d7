import type { ChildPhase } from './books.js';
import type { ExitFacts } from './restart-policy.js';

// The shapes of the server machine: its config, events, context and its actors' inputs (plain data, no IO).

/** The parts of a server's config this machine reads; the runtime passes the whole config through to its actors. */
export interface MachineServerConfig {
  id: string;
  timeouts: { startupMs: number; callMs: number; shutdownMs: number };
  health: { intervalMs: number; timeoutMs: number; failureThreshold: number };
}

/** How a process ended, as the process actor reports it (the runtime's ExitInfo fits). */
export interface MachineExit {
  code: number | null;
  signal: string | null;
  reason: string;
  stderrTail: string;
}

export type ServerMachineEvent =
  | { type: 'START' }
  | { type: 'STOP'; reason?: string }
  | { type: 'RESTART_LATER' }
  | { type: 'GIVE_UP' }
  | { type: 'HALT' }
  /** The process runs (its pid), or a remote server's session is opened (no pid: nothing runs here). */
  | { type: 'PROC.SPAWNED'; generation: number; pid?: number }
  /** The trust gate put the launch to a person, and waits for the answer. */
  | { type: 'PROC.ASKING'; generation: number }
  | { type: 'PROC.UNTRUSTED'; generation: number; fingerprint: string }
  /** `at` and `draw` (uniform in [0, 1)) are stamped by the runtime: the machines read no clock and draw nothing. */
  | { type: 'PROC.EXIT'; generation: number; exit: MachineExit; at: number; draw: number }
  | { type: 'PROC.TOOLS'; generation: number; tools: unknown[] }
  /** The runtime saw the server stop working (its outgoing queue filled): `reason` becomes the stop reason. */
  | { type: 'PROC.WEDGED'; generation: number; reason: string }
  | { type: 'HEALTH.OK' }
  | { type: 'HEALTH.FAIL' }
  | { type: 'CALL.OK' }
  | { type: 'CALL.TIMEOUT' };

/** What the server machine tells its parent: every phase it enters, in order, so the parent never looks inside. */
export type ServerParentEvent =
  | { type: 'CHILD.EXITED'; id: string; facts: ExitFacts; exit: MachineExit; at: number; draw: number }
  | { type: 'CHILD.PHASE'; id: string; phase: Exclude<ChildPhase, 'exited'> }
  | { type: 'CHILD.READY'; id: string }
  | { type: 'CHILD.UNTRUSTED'; id: string; fingerprint: string };

/** Plain data only: the connection itself lives with the runtime, keyed by server id and generation. */
export interface ServerMachineContext {
  server: MachineServerConfig;
  generation: number;
  pid: number | undefined;
  tools: unknown[];
  /** A re-list vetted while the first list was still being vetted: newer, so it wins when vetting ends. */
  newerTools: unknown[] | null;
  /** Why we are ending the process: `requested` never counts as a failure; `failure` (wedged, start timeout) does. */
  stopKind: 'requested' | 'failure' | null;
  stopReason: string | null;
  wedged: boolean;
  beforeReady: boolean;
  healthFailures: number;
  callTimeouts: number;
  lastExit: MachineExit | undefined;
  /** When the last exit was seen and the draw that came with it, passed up with `CHILD.EXITED`. */
  lastExitAt: number;
  lastExitDraw: number;
  fingerprint: string | undefined;
}

export interface ProcessActorInput {
  server: MachineServerConfig;
  generation: number;
}
/** The handshake and the pinger find the connection of this server's `generation` in the runtime. */
export interface HandshakeInput {
  server: MachineServerConfig;
  generation: number;
}
export interface PingerInput {
  server: MachineServerConfig;
  generation: number;
}
export interface VetToolsInput {
  server: MachineServerConfig;
  tools: unknown[];
}
