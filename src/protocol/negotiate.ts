import { type CallClock, REAL_CLOCK } from './call-clock.js';
import type { InitializeResult } from './connection-types.js';
import { type DiscoverVerdict, verdictOfError, verdictOfResult } from './discover.js';
import { type Era, MODERN_PROTOCOL_VERSION, probeBoundMs } from './era.js';
import { SupervisorError } from './errors.js';

export interface NegotiateInput {
  /** A `protocol:` pin, else the era this configuration spoke last time (a hint: a wrong one still falls back). */
  pinned: Era | undefined;
  hint: Era | undefined;
  startupMs: number;
  /** Sends `server/discover` (with the 2026 envelope) before any handshake, within `timeoutMs`; `stop` drops it. */
  discover(timeoutMs: number, stop: AbortSignal): Promise<unknown>;
  /** The 2025 `initialize` request and the checks on its answer, nothing more: the caller completes the handshake. */
  initialize(timeoutMs: number): Promise<InitializeResult>;
  /** The probe can still be answered after `initialize` is sent (stdio: one ordered stream, read in turn). */
  lateProbe: boolean;
  /** The process ended while an unpinned probe waited (some 2025 servers exit on a request they do not know). */
  onProbeLost?(): void;
  /** What the probe's bound runs on, as the requests' deadlines do (default the real clock). */
  clock?: CallClock | undefined;
}

export interface Negotiated {
  era: Era;
  init: InitializeResult;
}

type Settled<T> = { ok: true; value: T } | { ok: false; err: unknown };

/**
 * Picks the era on the process already running: `server/discover` first (unless the era is known to be 2025), and
 * `initialize` after any answer that is not a 2026 one. Only a 2026 server that names other 2026 versions than ours
 * fails here (UNSUPPORTED_PROTOCOL); a pinned 2026 fails on any non-2026 answer.
 */
export async function negotiate(p: NegotiateInput): Promise<Negotiated> {
  const expected = p.pinned ?? p.hint;
  if (expected === 'legacy') return { era: 'legacy', init: await p.initialize(p.startupMs) };
  if (expected === undefined) return probeAndRace(p);
  const verdict = verdictOf(await settle(p.discover(p.startupMs, new AbortController().signal)), p);
  if (verdict.kind === 'modern') return { era: 'modern', init: verdict.init };
  if (p.pinned === 'modern') {
    if (verdict.timedOut) {
      throw new SupervisorError('HANDSHAKE_TIMEOUT', `no answer to server/discover within ${p.startupMs} ms`);
    }
    throw new SupervisorError(
      'UNSUPPORTED_PROTOCOL',
      `server does not speak ${MODERN_PROTOCOL_VERSION} (protocol is pinned to it): ${verdict.why}`,
      { requested: MODERN_PROTOCOL_VERSION },
    );
  }
  return { era: 'legacy', init: await p.initialize(p.startupMs) };
}

/**
 * An unknown era: a 2025 server may never answer the probe, so `initialize` follows it after the probe's bound.
 * Over stdio the probe stays open beside it: a 2026-only server that is only slow to start (an `npx` download, a
 * cold import) reads both in turn, refuses `initialize`, and its answer to the probe is the handshake. A server
 * that accepts `initialize` is spoken to in 2025, as it would have been had the probe stayed silent, whatever the
 * probe says meanwhile: it now holds a 2025 session.
 */
async function probeAndRace(p: NegotiateInput): Promise<Negotiated> {
  const stop = new AbortController();
  // The whole startup budget for each, not what the probe left of it: the supervisor's own budget (its machine's
  // timer, started before the probe) is the one that ends a slow start, as `startup_timeout`; these bounds only
  // back it up, so the two must never race.
  const bound = probeBoundMs(p.startupMs);
  const probe = settle(p.discover(p.lateProbe ? p.startupMs : bound, stop.signal));
  const early = await within(probe, bound, p.clock ?? REAL_CLOCK);
  if (early !== undefined || !p.lateProbe) {
    const verdict = verdictOf(early ?? (await probe), p, bound);
    if (verdict.kind === 'modern') return { era: 'modern', init: verdict.init };
    return { era: 'legacy', init: await p.initialize(p.startupMs) };
  }
  const init = await settle(p.initialize(p.startupMs));
  if (init.ok) {
    stop.abort();
    return { era: 'legacy', init: init.value };
  }
  // Refused (a 2026-only server): its answer to the probe, if not already in, is still to come, and decides.
  const late = await probe;
  const verdict = late.ok ? verdictOfResult(late.value) : undefined;
  if (verdict?.kind === 'modern') return { era: 'modern', init: verdict.init };
  throw init.err;
}

/** The probe's outcome as a verdict; an end of the process is final (and marks an unpinned probe as lost). */
function verdictOf(outcome: Settled<unknown>, p: NegotiateInput, boundMs = p.startupMs): DiscoverVerdict {
  if (outcome.ok) return verdictOfResult(outcome.value);
  try {
    return verdictOfError(outcome.err, boundMs);
  } catch (fatal) {
    if (p.pinned === undefined) p.onProbeLost?.();
    throw fatal;
  }
}

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true, value }),
    (err: unknown) => ({ ok: false, err }),
  );
}

/** `p`'s outcome if it settles within `ms` on `clock`, else undefined; the timer never outlives the wait. */
async function within<T>(p: Promise<T>, ms: number, clock: CallClock): Promise<T | undefined> {
  let timer: unknown;
  const late = new Promise<undefined>((resolve) => {
    timer = clock.setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clock.clearTimeout(timer);
  }
}
