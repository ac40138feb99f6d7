import type { ServerResponse } from 'node:http';
import { whenClosed } from './response-end.js';

/** How a drain is paced: work is still taken for `delayMs`, then what is in flight gets `timeoutMs` to end. */
export interface DrainBounds {
  delayMs: number;
  timeoutMs: number;
}

/** What `serve.drain` defaults to: a load balancer's probe period or two, then a generous tool call. */
export const DEFAULT_DRAIN: DrainBounds = { delayMs: 5000, timeoutMs: 30_000 };

/** Where a drain has come to, as data; the host words it. */
export type DrainPhase =
  /** `/readyz` answers 503; requests are still taken for `delayMs`. */
  | { code: 'UNREADY'; delayMs: number }
  /** New requests are refused and the event streams ended; `inFlight` requests get up to `timeoutMs`. */
  | { code: 'REFUSING'; inFlight: number; timeoutMs: number }
  /** Every request in flight ended by itself. */
  | { code: 'FINISHED' }
  /** The timeout passed (or the host stopped at once): `cut` requests still open were cut. */
  | { code: 'CUT'; cut: number };

/** What the drain asks of the endpoint at each step. */
export interface DrainSteps {
  /** Ends the open event streams (a session's GET stream, a 2026 listen stream); their clients reopen them elsewhere. */
  endStreams(): Promise<void>;
  /** Ends every session and whatever Gateway is left, once nothing more is waited for. */
  endAll(): Promise<void>;
  onPhase?: ((phase: DrainPhase) => void) | undefined;
}

/**
 * The drain of `serve --http`: readiness, whether requests are taken, and the requests in flight. A drain says
 * "not ready" at once and goes on serving for the delay, since a load balancer needs that long to stop sending
 * clients here; then it refuses new requests, ends the event streams and waits for the requests in flight, up to
 * the timeout, after which they are cut: the process must be able to end.
 */
export class Drain {
  private readyNow = true;
  private accepting = true;
  private ended = false;
  private readonly inFlight = new Set<ServerResponse>();
  private emptied: Array<() => void> = [];
  private readonly cut = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly steps: DrainSteps) {}

  /** `/readyz`: true until a drain begins. */
  get ready(): boolean {
    return this.readyNow;
  }

  /** True once a drain has ended everything: the endpoint takes no work and its fleet is the host's to stop. */
  get done(): boolean {
    return this.ended;
  }

  /** Counts the request answered on `res` as in flight until its response ends; false once requests are refused. */
  admit(res: ServerResponse): boolean {
    if (!this.accepting) return false;
    this.inFlight.add(res);
    whenClosed(res, () => {
      this.inFlight.delete(res);
      if (this.inFlight.size === 0) for (const resolve of this.emptied.splice(0)) resolve();
    });
    return true;
  }

  /** Begins the drain, once: a second call gets the first one's promise, whatever bounds it names. */
  start(bounds: DrainBounds): Promise<void> {
    this.running ??= this.run(bounds);
    return this.running;
  }

  /** Skips what the drain waits for (begun now with no delay and no timeout if none was): every request is cut. */
  now(): Promise<void> {
    this.cut.abort();
    return this.start({ delayMs: 0, timeoutMs: 0 });
  }

  private async run(bounds: DrainBounds): Promise<void> {
    const say = this.steps.onPhase ?? (() => {});
    this.readyNow = false;
    say({ code: 'UNREADY', delayMs: bounds.delayMs });
    await this.wait(bounds.delayMs).done;
    // Idle keep-alive connections stay open: closing one races a request being sent down it, which then fails
    // with nothing said; a request on it now gets a 503 with `Connection: close` instead.
    this.accepting = false;
    // The timeout runs from here and bounds every wait after, the ending of a stream whose client reads nothing too.
    const deadline = this.wait(bounds.timeoutMs);
    await Promise.race([this.steps.endStreams(), deadline.done]);
    say({ code: 'REFUSING', inFlight: this.inFlight.size, timeoutMs: bounds.timeoutMs });
    await Promise.race([deadline.done, this.empty()]);
    // A timer left running would hold a host's process open for the rest of the timeout.
    deadline.stop();
    const left = this.inFlight.size;
    say(left === 0 ? { code: 'FINISHED' } : { code: 'CUT', cut: left });
    // Ending the sessions ends their transports' answers; a response still open after that (an answer held for
    // a call that never came back) is cut at its connection.
    await this.steps.endAll();
    for (const res of this.inFlight) res.destroy();
    this.ended = true;
  }

  private empty(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.emptied.push(resolve));
  }

  /** Waits `ms`, or less if the host stops at once or `stop` is called. */
  private wait(ms: number): { done: Promise<void>; stop: () => void } {
    const { signal } = this.cut;
    if (ms <= 0 || signal.aborted) return { done: Promise.resolve(), stop: () => {} };
    let stop = () => {};
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => stop(), ms);
      stop = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        resolve();
      };
      signal.addEventListener('abort', stop);
    });
    return { done, stop: () => stop() };
  }
}
