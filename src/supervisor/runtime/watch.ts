import { childIds } from '../../machines/books.js';
import { type ServerSnapshot, serverStateOf } from '../../machines/server.machine.js';
import { type SupervisorActorRef, serverRefOf } from '../../machines/supervisor.machine.js';
import type { ExitInfo } from '../../process/server-process.js';
import type { LastExit, ServerState, ServerStatus, SupervisorEvent } from '../types.js';

interface Row {
  state: ServerState;
  since: number;
  pid: number | undefined;
  lastExit: LastExit | undefined;
  lastExitRef: unknown;
}

interface Waiter {
  pred: (state: ServerState) => boolean;
  /** Hears the states of a server that is held (the reload that replaces it waits on them). */
  evenHeld: boolean;
  resolve: (state: ServerState | undefined) => void;
}

/**
 * Follows every server actor's snapshots and turns them into what hosts see: `state`, `exit`, `untrusted` and
 * `escalated` events, status rows, and promises that wait for a state.
 */
export class ServerWatch {
  private readonly rows = new Map<string, Row>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** Servers a reload is replacing: their waiters hear nothing of the old one's stop, only of the new one. */
  private readonly held = new Set<string>();
  private readonly subs: Array<{ unsubscribe(): void }> = [];
  /** Each server actor's subscription, by server id (a reload replaces or drops one). */
  private readonly serverSubs = new Map<string, { unsubscribe(): void }>();
  private escalation: string | null = null;

  constructor(
    private readonly actor: SupervisorActorRef,
    private readonly now: () => number,
    private readonly emit: (e: SupervisorEvent) => void,
    private readonly onSnapshot: (id: string, snap: ServerSnapshot) => void,
  ) {}

  /** Starts following (after the root actor started). */
  attach(): void {
    for (const id of childIds(this.actor.getSnapshot().context.books)) this.follow(id);
    this.subs.push(
      this.actor.subscribe((snap) => {
        const why = snap.context.escalation;
        if (why && why !== this.escalation) this.emit({ type: 'escalated', reason: why, at: this.now() });
        this.escalation = why;
      }),
    );
  }

  /**
   * Follows a server's actor (at attach, or one a reload added). The row keeps its last exit when the server's
   * actor was replaced, and says `stopped` until the new one reports.
   */
  follow(id: string): void {
    const ref = serverRefOf(this.actor.getSnapshot(), id);
    if (!ref) return;
    this.serverSubs.get(id)?.unsubscribe();
    const row = this.rows.get(id);
    if (row && row.state !== 'stopped') this.onServerState(id, row, 'stopped', this.now());
    if (row) row.pid = undefined;
    else
      this.rows.set(id, {
        state: 'stopped',
        since: this.now(),
        pid: undefined,
        lastExit: undefined,
        lastExitRef: undefined,
      });
    this.serverSubs.set(
      id,
      ref.subscribe((snap) => this.onServer(id, snap)),
    );
  }

  /** Stops following a server a reload removed: its row goes, and whoever waits for it hears `undefined`. */
  unfollow(id: string): void {
    this.held.delete(id);
    this.serverSubs.get(id)?.unsubscribe();
    this.serverSubs.delete(id);
    this.rows.delete(id);
    for (const w of [...(this.waiters.get(id) ?? [])]) w.resolve(undefined);
    this.waiters.delete(id);
  }

  /**
   * A reload replaces the server: until {@link release}, whoever waits for it (a call waiting for `ready`) hears
   * nothing of the old one stopping, so it waits for the new one instead of failing on the swap.
   */
  hold(id: string): void {
    this.held.add(id);
  }

  /** The replacement is started (or will not be): waiters hear its states again, starting with the current one. */
  release(id: string): void {
    if (!this.held.delete(id)) return;
    const row = this.rows.get(id);
    if (row) this.wake(id, row.state);
  }

  /** Stops following and releases every waiter. */
  detach(): void {
    for (const s of this.subs.splice(0)) s.unsubscribe();
    for (const s of this.serverSubs.values()) s.unsubscribe();
    this.serverSubs.clear();
    for (const [id, set] of this.waiters) for (const w of set) w.resolve(this.rows.get(id)?.state);
    this.waiters.clear();
  }

  /** Why a server is failed (limit reached) or what its last exit said, for error strings. */
  failure(id: string): string | undefined {
    const why = this.actor.getSnapshot().context.failures[id];
    if (why) return why;
    const exit = this.rows.get(id)?.lastExit;
    return exit ? `last exit ${exit.signal ?? `code ${exit.code}`} (${exit.reason})` : undefined;
  }

  /** A server's state now, for callers that need not wait (undefined for an unknown id). */
  stateOf(id: string): ServerState | undefined {
    return this.rows.get(id)?.state;
  }

  /**
   * Resolves with the state once `pred` holds, or undefined at the timeout / abort. While a reload holds the
   * server, only a wait with `evenHeld` (the reload's own) hears its states.
   */
  until(
    id: string,
    pred: (state: ServerState) => boolean,
    timeoutMs?: number,
    signal?: AbortSignal,
    evenHeld = false,
  ): Promise<ServerState | undefined> {
    const row = this.rows.get(id);
    if (!row) return Promise.resolve(undefined);
    if ((evenHeld || !this.held.has(id)) && pred(row.state)) return Promise.resolve(row.state);
    return new Promise((resolve) => {
      const set = this.waiters.get(id) ?? new Set<Waiter>();
      this.waiters.set(id, set);
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => done(undefined);
      const done = (state: ServerState | undefined) => {
        set.delete(waiter);
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(state);
      };
      const waiter: Waiter = { pred, evenHeld, resolve: done };
      set.add(waiter);
      if (timeoutMs !== undefined) timer = setTimeout(() => done(undefined), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The status row of a server. */
  row(id: string, restarts: number, tools: { countFor(id: string): number }): ServerStatus {
    const row = this.rows.get(id) ?? {
      state: 'stopped' as const,
      since: this.now(),
      pid: undefined,
      lastExit: undefined,
    };
    return {
      id,
      state: row.state,
      ...(row.pid !== undefined ? { pid: row.pid } : {}),
      restarts,
      since: row.since,
      ...(row.lastExit ? { lastExit: row.lastExit } : {}),
      tools: tools.countFor(id),
    };
  }

  private onServer(id: string, snap: ServerSnapshot): void {
    const row = this.rows.get(id)!;
    const at = this.now();
    const exit = snap.context.lastExit;
    if (exit && exit !== row.lastExitRef) {
      row.lastExitRef = exit;
      // The machine carries the runtime's ExitInfo as it came; only the runtime knows it has a spawnError.
      const { spawnError, linkError } = exit as Partial<Pick<ExitInfo, 'spawnError' | 'linkError'>>;
      row.lastExit = {
        code: exit.code,
        signal: exit.signal,
        reason: exit.reason,
        stderrTail: exit.stderrTail,
        at,
        ...(spawnError ? { spawnError } : {}),
        ...(linkError ? { linkError } : {}),
      };
      this.emit({ type: 'exit', server: id, ...row.lastExit });
    }
    row.pid = snap.context.pid;
    const raw = serverStateOf(snap);
    // `exited` lasts only until the supervisor decides; hosts see the decision, not the instant.
    if (raw !== 'exited' && raw !== row.state) {
      this.onServerState(id, row, raw as ServerState, at);
      if (row.state === 'untrusted') {
        this.emit({ type: 'untrusted', server: id, fingerprint: snap.context.fingerprint ?? '', at });
      }
    }
    this.onSnapshot(id, snap);
    this.wake(id, row.state);
  }

  private wake(id: string, state: ServerState): void {
    const held = this.held.has(id);
    for (const w of [...(this.waiters.get(id) ?? [])])
      if ((w.evenHeld || !held) && w.pred(state)) w.resolve(state);
  }

  private onServerState(id: string, row: Row, to: ServerState, at: number): void {
    const from = row.state;
    row.state = to;
    row.since = at;
    this.emit({ type: 'state', server: id, from, to, at });
  }
}
