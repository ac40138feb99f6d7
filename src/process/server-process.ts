import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { type ContainmentKind, chooseContainment } from './containment.js';
import type { Jail } from './jail.js';
import { launch, noChildIo } from './launch.js';
import { forgetGroup, recordGroup, updateGroup } from './ledger.js';
import { describeSpawnError, type SpawnError } from './preflight.js';
import { StderrRing } from './stderr-ring.js';

/** How a child ended, as data. `requested` is true when we asked it to stop (never a reason to restart). */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /** `exited` (on its own), `spawn_failed`, or the reason given to `stop()` (`stopped`, `wedged`, …). */
  reason: string;
  requested: boolean;
  /** It outlived the stdin-close grace and had to be signalled. */
  timedOut: boolean;
  /** It outlived SIGTERM plus the shutdown timeout and was SIGKILLed. */
  forced: boolean;
  stderrTail: string;
  /** Why the spawn failed, for people (rendered from `spawnError`), only for `spawn_failed`. */
  error?: string;
  /** Why the spawn failed, as data, only for `spawn_failed`. */
  spawnError?: SpawnError;
  /** Why a remote server's connection could not be made or was lost (`connect_failed`, `disconnected`, `session_lost`). */
  linkError?: LinkError;
}

/** A failed or lost HTTP connection, as data: the HTTP status or the network error's code, and text for people. */
export interface LinkError {
  url: string;
  status?: number;
  errno?: string;
  detail: string;
}

export interface SpawnSpec {
  serverId: string;
  command: string;
  args: readonly string[];
  cwd: string;
  /** The child's whole environment (see buildChildEnv): nothing else of the host's is passed. */
  env: Record<string, string>;
  shutdownMs: number;
  /** Wait after closing stdin before SIGTERM; default min(1000, shutdownMs). */
  stdinGraceMs?: number;
  stderrBytes?: number;
  /** How the server is held together; default: the strongest this machine offers. */
  containment?: ContainmentKind;
  /** The supervisor instance it belongs to (its ledger file); default: one shared by plain connections. */
  owner?: string;
}

const DEFAULT_OWNER = Math.random().toString(36).slice(2, 10);

// Not unref'd: someone awaits every one of these waits, and a host with nothing else to do must not exit mid-reap.
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One child process, contained (cgroup, pid namespace or process group), whose end is always reported as data and
 * whose every descendant is always reaped.
 */
export class ServerProcess {
  readonly pid: number | undefined;
  readonly exited: Promise<ExitInfo>;
  readonly stderr: StderrRing;
  readonly containment: ContainmentKind;
  private readonly io: Pick<ChildProcessWithoutNullStreams, 'stdin' | 'stdout' | 'stderr'>;
  private readonly jail: Jail | undefined;
  private exit: ExitInfo | undefined;
  private stopping: Promise<ExitInfo> | undefined;
  private leftovers: Promise<void> = Promise.resolve();
  private requested = false;
  private reason = 'exited';
  private timedOut = false;
  private forced = false;

  private constructor(private readonly spec: SpawnSpec) {
    this.stderr = new StderrRing(spec.stderrBytes);
    this.containment = spec.containment ?? chooseContainment('auto');
    const owner = spec.owner ?? DEFAULT_OWNER;
    const launched = launch({ ...spec, containment: this.containment, owner });
    if ('code' in launched) {
      this.io = noChildIo();
      this.exited = new Promise<ExitInfo>((resolve) =>
        setImmediate(() => resolve(this.finish(null, null, 'spawn_failed', launched))),
      );
      return;
    }
    const { child, jail } = launched;
    this.jail = jail;
    this.io = child;
    this.pid = child.pid;
    if (this.pid !== undefined) {
      recordGroup({
        pgid: this.pid,
        serverId: spec.serverId,
        startedAt: Date.now(),
        owner,
        ...jail.attach(this.pid),
      });
      if (this.containment === 'pidns') void this.recordInit(this.pid, jail);
    }
    // A child that dies leaves writes failing with EPIPE; the exit is what we report, not the write error.
    child.stdin.on('error', () => {});
    child.stdout.on('error', () => {});
    child.stderr.on('error', () => {});
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    this.exited = new Promise<ExitInfo>((resolve) => {
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (this.pid !== undefined && child.exitCode === null && child.signalCode === null) return;
        const failure = {
          code: err.code ?? 'SPAWN_ERROR',
          command: spec.command,
          cwd: spec.cwd,
          detail: err.message,
        };
        resolve(this.finish(null, null, 'spawn_failed', failure));
      });
      child.once('exit', (code, signal) => resolve(this.finish(code, signal, undefined)));
    });
  }

  /** unshare forks the namespace's init a moment after it starts: record it, so a later host can kill it. */
  private async recordInit(pid: number, jail: Jail): Promise<void> {
    for (let i = 0; i < 100 && !this.exit; i++) {
      const init = jail.findInit();
      if (init) return updateGroup(pid, { init });
      await sleep(10);
    }
  }

  /** Spawns without a shell, in a new process group; never throws (a failed spawn is an `exited` of reason `spawn_failed`). */
  static spawn(spec: SpawnSpec): ServerProcess {
    return new ServerProcess(spec);
  }

  get stdin(): NodeJS.WritableStream & ChildProcessWithoutNullStreams['stdin'] {
    return this.io.stdin;
  }

  get stdout(): ChildProcessWithoutNullStreams['stdout'] {
    return this.io.stdout;
  }

  /** The child's stderr, for a second reader beside the ring (the ring always drains it). */
  get stderrStream(): ChildProcessWithoutNullStreams['stderr'] {
    return this.io.stderr;
  }

  /** The pids its containment holds now (cgroup members, or the group's): every one is gone once stop() resolves. */
  pids(): number[] {
    return this.jail?.pids() ?? [];
  }

  /** The exit, once it happened. */
  get exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  private finish(
    code: number | null,
    signal: string | null,
    reason: string | undefined,
    spawnError?: SpawnError,
  ): ExitInfo {
    if (this.exit) return this.exit;
    this.exit = {
      code,
      signal,
      reason: reason ?? this.reason,
      requested: this.requested,
      timedOut: this.timedOut,
      forced: this.forced,
      stderrTail: this.stderr.tail(),
      ...(spawnError !== undefined ? { error: describeSpawnError(spawnError), spawnError } : {}),
    };
    // A grandchild may hold our pipes open forever; we are done reading once the leader is gone.
    setImmediate(() => {
      this.io.stdout.destroy();
      this.io.stderr.destroy();
      this.io.stdin.destroy();
    });
    this.jail?.leaderGone();
    if (this.pid !== undefined && this.jail) this.leftovers = this.reapLeftovers(this.pid, this.jail);
    else this.jail?.release();
    return this.exit;
  }

  /**
   * Whatever the leader left behind (grandchildren, escapees in its cgroup or namespace) gets SIGTERM, then SIGKILL
   * after a grace; the cgroup is removed once empty, and the ledger forgets the server only then.
   */
  private async reapLeftovers(pid: number, jail: Jail): Promise<void> {
    if (jail.alive()) {
      jail.terminate();
      const deadline = Date.now() + Math.min(this.spec.shutdownMs, 1000);
      while (jail.alive() && Date.now() < deadline) await sleep(10);
      if (jail.alive()) jail.kill();
      for (let i = 0; i < 200 && jail.alive(); i++) await sleep(10);
    }
    if (!jail.alive() && jail.release()) forgetGroup(pid);
  }

  /**
   * Stops the child: close stdin → wait → SIGTERM to the group → wait `shutdownMs` → SIGKILL to the group.
   * Resolves on `exit` (not `close`) and once nothing of the group is left. Idempotent.
   */
  stop(reason = 'stopped', opts: { immediate?: boolean } = {}): Promise<ExitInfo> {
    this.stopping ??= this.runStop(reason, opts.immediate ?? false);
    return this.stopping;
  }

  private async runStop(reason: string, immediate: boolean): Promise<ExitInfo> {
    if (!this.exit) {
      this.requested = true;
      this.reason = reason;
      const jail = this.jail;
      const exited = this.exited.then(() => true);
      const within = (ms: number) => Promise.race([exited, sleep(ms).then(() => false)]);
      if (jail && this.pid !== undefined) {
        let done = false;
        if (!immediate) {
          this.io.stdin.end();
          done = await within(this.spec.stdinGraceMs ?? Math.min(1000, this.spec.shutdownMs));
          if (!done) {
            this.timedOut = true;
            jail.terminate();
            done = await within(this.spec.shutdownMs);
          }
        }
        if (!done) {
          this.forced = true;
          jail.kill();
        }
      }
    }
    const exit = await this.exited;
    await this.leftovers;
    return exit;
  }
}
