import { constants } from 'node:os';

/** What the engine said of a container's end, and what we did to it. */
export interface EngineExit {
  /** The exit status `wait` reported (the init's: 128 + n when the server died of signal n). */
  statusCode: number;
  /** `State.OOMKilled` from inspect, where the engine sets it (Docker does; Podman 4.3 never does). */
  oomKilled?: boolean;
  /** A memory limit was set: only then can the kernel's OOM killer have been what ended it. */
  memoryLimited: boolean;
  /** We sent SIGKILL ourselves (a stop that outlived its timeout, or an immediate stop). */
  killedByUs: boolean;
}

/** How a container ended, in the terms of a process's exit: a code, or the signal that ended it. */
export interface ExitFacts {
  code: number | null;
  signal: string | null;
  /** True when it was (or, by the rule below, counts as) killed for using more memory than its limit. */
  oom: boolean;
}

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, n]) => [n as number, name]));

/**
 * An init's status of 128 + n is the server dying of signal n, as a shell reports it; what a process's exit calls
 * a signal. A SIGKILL we did not send to a container with a memory limit is taken for the OOM killer: some engines
 * (Podman 4.3) never set `OOMKilled` nor send an `oom` event, and nothing else on the host kills it.
 */
export function exitFacts(e: EngineExit): ExitFacts {
  const n = e.statusCode > 128 && e.statusCode < 128 + 65 ? e.statusCode - 128 : 0;
  const signal = n > 0 ? (SIGNAL_NAMES.get(n) ?? null) : null;
  const oom = e.oomKilled === true || (e.memoryLimited && signal === 'SIGKILL' && !e.killedByUs);
  return signal !== null ? { code: null, signal, oom } : { code: e.statusCode, signal: null, oom };
}
