// Restart latency: a crash mid-call → ready again, from the supervisor's own state events.
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { BenchError } from './bench-error.js';
import { startBareConnection, startOurs } from './contenders.js';
import { BACKOFF_MS, type TrustMode } from './fixture-fleet.js';

/** One crash, in ms (event `at` timestamps, Date.now resolution). */
export interface RestartSample {
  /** The crash call sent → the exit event. */
  detectMs: number;
  /** The exit event → `ready` again: the configured backoff plus the respawn. */
  exitToReadyMs: number;
  /** `backoff` → `spawning`: how long the backoff timer really took. */
  backoffMs: number;
  /** exitToReady minus the configured backoff. */
  respawnMs: number;
  /** A bare connection's cold start (spawn, initialize, tools/list) timed right after, as the reference. */
  coldMs: number;
}

async function bareColdStart(): Promise<number> {
  const t0 = performance.now();
  const c = await startBareConnection();
  const ms = performance.now() - t0;
  await c.close();
  return ms;
}

function waitFor(events: SupervisorEvent[], from: number, pred: (e: SupervisorEvent) => boolean, ms: number) {
  return new Promise<SupervisorEvent>((resolve, reject) => {
    const end = Date.now() + ms;
    const poll = () => {
      const hit = events.slice(from).find(pred);
      if (hit) resolve(hit);
      else if (Date.now() > end) reject(new BenchError('NO_EVENT', 'no ready event after the crash'));
      else setTimeout(poll, 2);
    };
    poll();
  });
}

/** Crashes the fixture `rounds` times (plus one warm-up) and times each way back to `ready`. */
export async function restartRounds(rounds: number, trust: TrustMode): Promise<RestartSample[]> {
  const ours = await startOurs(trust);
  const events: SupervisorEvent[] = [];
  const unsubscribe = ours.sup.subscribe((e) => events.push(e));
  const out: RestartSample[] = [];
  try {
    for (let r = -1; r < rounds; r++) {
      const from = events.length;
      const sent = Date.now();
      const answer = await ours.call('crash', { code: 1 });
      if (!answer.startsWith('ERROR:')) throw new BenchError('WRONG_ANSWER', `crash answered ${answer}`);
      const ready = await waitFor(events, from, (e) => e.type === 'state' && e.to === 'ready', 20_000);
      const mine = events.slice(from);
      const exit = mine.find((e) => e.type === 'exit');
      const backoff = mine.find((e) => e.type === 'state' && e.to === 'backoff');
      const spawning = mine.find((e) => e.type === 'state' && e.to === 'spawning');
      if (!exit || !backoff || !spawning)
        throw new BenchError('NO_EVENT', 'missing exit/backoff/spawning event');
      const exitToReadyMs = ready.at - exit.at;
      const coldMs = await bareColdStart();
      if (r >= 0)
        out.push({
          detectMs: exit.at - sent,
          exitToReadyMs,
          backoffMs: spawning.at - backoff.at,
          respawnMs: exitToReadyMs - BACKOFF_MS,
          coldMs,
        });
    }
  } finally {
    unsubscribe();
    await ours.close();
  }
  return out;
}
