import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { type ContainmentKind, chooseContainment } from '../process/containment.js';
import { Jail } from '../process/jail.js';
import { describeSpawnError, preflight, type SpawnError } from '../process/preflight.js';
import { forgetGroup, recordGroup, updateGroup } from './process-ledger.js';
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
  private readonly child: ChildProcessWithoutNullStreams | undefined;
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
    const launch = this.prepare();
    if (typeof launch === 'string' || 'code' in launch) {
      // Nothing runs: streams that end at once stand in for the child's, so readers need no special case.
      const failure: SpawnError =
        typeof launch === 'string'
          ? { code: 'CONTAINMENT', command: spec.command, cwd: spec.cwd, detail: launch }
          : launch;
      this.io = { stdin: new PassThrough(), stdout: endedStream(), stderr: endedStream() } as never;
      this.exited = new Promise<ExitInfo>((resolve) =>
        setImmediate(() => resolve(this.finish(null, null, 'spawn_failed', failure))),
      );
      return;
    }
    this.jail = launch.jail;
    const argv = launch.jail.wrap(launch.file, spec.args, spec.env);
    this.child = spawn(argv.file, argv.args, {
      cwd: spec.cwd,
      env: spec.env,
      shell: false,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // Unwrapped, the server sees its command as written as argv[0]; wrapped, the resolved file (exec "$@").
      ...(this.containment === 'pgroup' ? { argv0: spec.command } : {}),
    });
    this.io = this.child;
    this.pid = this.child.pid;
    if (this.pid !== undefined) {
      recordGroup({
        pgid: this.pid,
        serverId: spec.serverId,
        startedAt: Date.now(),
        owner: spec.owner ?? DEFAULT_OWNER,
        ...launch.jail.attach(this.pid),
      });
      if (this.containment === 'pidns') void this.recordInit(this.pid, launch.jail);
    }
    const child = this.child;
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

  /** Resolves the command and sets up containment: the file and jail to spawn in, or why nothing can run. */
  private prepare(): { file: string; jail: Jail } | SpawnError | string {
    const file = preflight(this.spec.command, this.spec.cwd, this.spec.env);
    if (typeof file !== 'string') return file;
    try {
      return {
        file,
        jail: Jail.open(this.containment, this.spec.owner ?? DEFAULT_OWNER, this.spec.serverId),
      };
    } catch (err) {
      return (err as Error).message;
    }
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

function endedStream(): PassThrough {
  const stream = new PassThrough();
  stream.end();
  return stream;
}
