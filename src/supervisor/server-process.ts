import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { forgetGroup, groupAlive, recordGroup, signalGroup } from './process-ledger.js';
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
  /** Why the spawn failed (`ENOENT: …`), only for `spawn_failed`. */
  error?: string;
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
}

// Not unref'd: someone awaits every one of these waits, and a host with nothing else to do must not exit mid-reap.
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One child process in its own process group, whose end is always reported as data and whose group is always reaped. */
export class ServerProcess {
  readonly pid: number | undefined;
  readonly exited: Promise<ExitInfo>;
  readonly stderr: StderrRing;
  private readonly child: ChildProcessWithoutNullStreams;
  private exit: ExitInfo | undefined;
  private stopping: Promise<ExitInfo> | undefined;
  private leftovers: Promise<void> = Promise.resolve();
  private requested = false;
  private reason = 'exited';
  private timedOut = false;
  private forced = false;

  private constructor(private readonly spec: SpawnSpec) {
    this.stderr = new StderrRing(spec.stderrBytes);
    this.child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      shell: false,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.pid = this.child.pid;
    if (this.pid !== undefined)
      recordGroup({ pgid: this.pid, serverId: spec.serverId, startedAt: Date.now() });
    // A child that dies leaves writes failing with EPIPE; the exit is what we report, not the write error.
    this.child.stdin.on('error', () => {});
    this.child.stdout.on('error', () => {});
    this.child.stderr.on('error', () => {});
    this.child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.child.once('error', (err) => {
        if (this.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) return;
        resolve(this.finish(null, null, 'spawn_failed', err.message));
      });
      this.child.once('exit', (code, signal) => resolve(this.finish(code, signal, undefined)));
    });
  }

  /** Spawns without a shell, in a new process group; never throws (a failed spawn is an `exited` of reason `spawn_failed`). */
  static spawn(spec: SpawnSpec): ServerProcess {
    return new ServerProcess(spec);
  }

  get stdin(): NodeJS.WritableStream & ChildProcessWithoutNullStreams['stdin'] {
    return this.child.stdin;
  }

  get stdout(): ChildProcessWithoutNullStreams['stdout'] {
    return this.child.stdout;
  }

  /** The exit, once it happened. */
  get exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  private finish(
    code: number | null,
    signal: string | null,
    reason: string | undefined,
    error?: string,
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
      ...(error !== undefined ? { error } : {}),
    };
    // A grandchild may hold our pipes open forever; we are done reading once the leader is gone.
    setImmediate(() => {
      this.child.stdout.destroy();
      this.child.stderr.destroy();
      this.child.stdin.destroy();
    });
    if (this.pid !== undefined) this.leftovers = this.reapLeftovers(this.pid);
    return this.exit;
  }

  /** Whatever the leader left in its group (grandchildren) gets SIGTERM, then SIGKILL after a grace. */
  private async reapLeftovers(pgid: number): Promise<void> {
    if (groupAlive(pgid)) {
      signalGroup(pgid, 'SIGTERM');
      const deadline = Date.now() + Math.min(this.spec.shutdownMs, 1000);
      while (groupAlive(pgid) && Date.now() < deadline) await sleep(10);
      if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
      for (let i = 0; i < 200 && groupAlive(pgid); i++) await sleep(10);
    }
    forgetGroup(pgid);
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
      const pgid = this.pid;
      const exited = this.exited.then(() => true);
      const within = (ms: number) => Promise.race([exited, sleep(ms).then(() => false)]);
      if (pgid !== undefined) {
        let done = false;
        if (!immediate) {
          this.child.stdin.end();
          done = await within(this.spec.stdinGraceMs ?? Math.min(1000, this.spec.shutdownMs));
          if (!done) {
            this.timedOut = true;
            signalGroup(pgid, 'SIGTERM');
            done = await within(this.spec.shutdownMs);
          }
        }
        if (!done) {
          this.forced = true;
          signalGroup(pgid, 'SIGKILL');
        }
      }
    }
    const exit = await this.exited;
    await this.leftovers;
    return exit;
  }
}
