import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { ExitInfo } from '../process/server-process.js';
import { StderrRing } from '../process/stderr-ring.js';
import { attachStdio } from './attach.js';
import { AttachedStdin } from './attached-stdin.js';
import { recordEngine } from './container-ledger.js';
import { type ContainerLaunch, createOptions } from './create-options.js';
import { FrameDemux } from './demux.js';
import { ENGINE_CALL_MS, engineClient } from './engine-client.js';
import { type EngineFailure, engineFailure, failedStart } from './engine-errors.js';
import { exitFacts } from './exit-facts.js';
import { resolveImage } from './image.js';

export interface ContainerSpec extends ContainerLaunch {
  shutdownMs: number;
  /** Wait after closing stdin before SIGTERM; default min(1000, shutdownMs). */
  stdinGraceMs?: number;
  stderrBytes?: number;
  /** The bound on each engine call of a start (create, attach, start); default {@link ENGINE_CALL_MS}. */
  engineMs?: number;
}

/** Which container serves a server, for `status` and the inspector. */
export interface ContainerRef {
  id: string;
  engine: string;
  image: string;
  imageId?: string;
}

// Not unref'd: someone awaits every one of these waits, and a host with nothing else to do must not exit mid-stop.
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One server in a container, held as a child process is: its stdio are the attached streams, its end is reported
 * as data (the same `ExitInfo`), and whatever it was made of is removed once it ends — however it ends.
 */
export class ContainerProcess {
  readonly containment = 'container' as const;
  readonly pid: number | undefined = undefined;
  readonly stdin = new AttachedStdin();
  readonly stdout = new PassThrough();
  readonly stderrStream = new PassThrough();
  readonly stderr: StderrRing;
  readonly exited: Promise<ExitInfo>;
  /** Resolves with the container once it is attached and started; undefined when the start failed. */
  readonly started: Promise<ContainerRef | undefined>;
  private settle!: (exit: ExitInfo) => void;
  private container: Docker.Container | undefined;
  private ref: ContainerRef | undefined;
  private exit: ExitInfo | undefined;
  private stopping: Promise<ExitInfo> | undefined;
  private removed: Promise<void> = Promise.resolve();
  private requested = false;
  private reason = 'exited';
  private timedOut = false;
  private forced = false;
  private killed = false;

  private constructor(private readonly spec: ContainerSpec) {
    this.stderr = new StderrRing(spec.stderrBytes);
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.settle = resolve;
    });
    this.started = this.run();
  }

  /** Creates, attaches and starts in the background; never throws (a failed start is an exit `spawn_failed`). */
  static spawn(spec: ContainerSpec): ContainerProcess {
    return new ContainerProcess(spec);
  }

  get exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  /** The container, once created. */
  get containerRef(): ContainerRef | undefined {
    return this.ref;
  }

  /** A container's processes are not ours to list (they live in the engine's namespaces). */
  pids(): number[] {
    return [];
  }

  private async run(): Promise<ContainerRef | undefined> {
    const { engine, image } = this.spec.settings;
    const bound = this.spec.engineMs ?? ENGINE_CALL_MS;
    let settings = this.spec.settings;
    if (settings.imageId === undefined) {
      const found = await resolveImage(settings, bound);
      if (!found.ok) return this.failStart(found.failure);
      settings = { ...settings, imageId: found.imageId };
    }
    if (this.requested) return this.finishUnstarted();
    let socket: Socket;
    try {
      const client = engineClient(engine, bound);
      // Recorded before the create: a host killed right after it still leaves a label the next start finds.
      recordEngine(this.spec.owner, engine);
      this.container = await client.createContainer(createOptions({ ...this.spec, settings }));
      this.ref = {
        id: this.container.id,
        engine,
        image,
        ...(settings.imageId ? { imageId: settings.imageId } : {}),
      };
      socket = await attachStdio(engine, this.container.id, bound);
      this.wire(socket);
      if (this.requested) {
        socket.destroy();
        return this.finishUnstarted();
      }
      await this.container.start();
    } catch (err) {
      return this.failStart(engineFailure(err, engine, image));
    }
    this.stdin.attach(socket);
    void this.watchExit();
    return this.ref;
  }

  /** Frames from the socket into stdout and stderr; a reader that falls behind slows the socket down. */
  private wire(socket: Socket): void {
    socket.on('error', () => {});
    const demux = new FrameDemux((stream, data) => {
      if (stream === 'stderr') {
        this.stderr.push(data);
        this.stderrStream.write(data);
      } else if (!this.stdout.write(data)) {
        socket.pause();
      }
    });
    this.stdout.on('drain', () => socket.resume());
    socket.on('data', (chunk: Buffer) => demux.push(chunk));
    socket.on('close', () => {
      this.stdout.end();
      this.stderrStream.end();
    });
    for (const s of [this.stdout, this.stderrStream, this.stdin]) s.on('error', () => {});
  }

  /** Waits for the end the engine reports, reads why, and removes the container. */
  private async watchExit(): Promise<void> {
    const { engine } = this.spec.settings;
    const id = this.container?.id as string;
    let statusCode: number;
    try {
      // No bound: this is the server's whole life. The engine going away ends it with an error.
      const answer = (await engineClient(engine, 0).getContainer(id).wait()) as { StatusCode?: unknown };
      statusCode = typeof answer.StatusCode === 'number' ? answer.StatusCode : -1;
    } catch (err) {
      this.finish({
        code: null,
        signal: null,
        reason: 'engine_lost',
        engineFailure: engineFailure(err, engine),
      });
      this.removed = this.remove();
      return;
    }
    let oomKilled: boolean | undefined;
    try {
      const info = await this.container?.inspect();
      oomKilled = info?.State?.OOMKilled;
    } catch {
      // The exit is known; only the engine's word on OOM is missing, and the rule below does without it.
    }
    const facts = exitFacts({
      statusCode,
      ...(oomKilled !== undefined ? { oomKilled } : {}),
      memoryLimited: this.spec.settings.memoryBytes !== undefined,
      killedByUs: this.killed,
    });
    this.finish({
      code: facts.code,
      signal: facts.signal,
      reason: facts.oom && !this.requested ? 'oom' : undefined,
    });
    this.removed = this.remove();
  }

  private failStart(failure: EngineFailure): undefined {
    this.finish({ code: null, signal: null, reason: 'spawn_failed', engineFailure: failure });
    this.removed = this.remove();
    return undefined;
  }

  private finishUnstarted(): undefined {
    this.finish({ code: null, signal: null, reason: undefined });
    this.removed = this.remove();
    return undefined;
  }

  private finish(end: {
    code: number | null;
    signal: string | null;
    reason: string | undefined;
    engineFailure?: EngineFailure;
  }): void {
    if (this.exit) return;
    const f = end.engineFailure;
    this.exit = {
      code: end.code,
      signal: end.signal,
      reason: end.reason ?? this.reason,
      requested: this.requested,
      timedOut: this.timedOut,
      forced: this.forced,
      stderrTail: this.stderr.tail(),
      ...(f ? failedStart(f, this.spec.settings) : {}),
    };
    setImmediate(() => {
      this.stdout.end();
      this.stderrStream.end();
      this.stdin.destroy();
    });
    this.settle(this.exit);
  }

  /** Removes the container (and its anonymous volumes); a container already gone is no failure. */
  private async remove(): Promise<void> {
    const c = this.container;
    if (!c) return;
    try {
      await c.remove({ force: true, v: true });
    } catch {
      // 404: already gone; anything else: the labels let the next start find it.
    }
  }

  /**
   * Stops the server: close stdin → wait → SIGTERM → wait `shutdownMs` → SIGKILL, all through the engine, then the
   * container is removed. Resolves once it is gone. Idempotent.
   */
  stop(reason = 'stopped', opts: { immediate?: boolean } = {}): Promise<ExitInfo> {
    this.stopping ??= this.runStop(reason, opts.immediate ?? false);
    return this.stopping;
  }

  private async runStop(reason: string, immediate: boolean): Promise<ExitInfo> {
    if (!this.exit) {
      this.requested = true;
      this.reason = reason;
      const ref = await this.started;
      if (ref && !this.exit) await this.endRunning(immediate);
    }
    const exit = await this.exited;
    await this.removed;
    return exit;
  }

  private async endRunning(immediate: boolean): Promise<void> {
    const exited = this.exited.then(() => true);
    const within = (ms: number) => Promise.race([exited, sleep(ms).then(() => false)]);
    let done = false;
    if (!immediate) {
      this.stdin.end();
      done = await within(this.spec.stdinGraceMs ?? Math.min(1000, this.spec.shutdownMs));
      if (!done) {
        this.timedOut = true;
        await this.signal('SIGTERM');
        done = await within(this.spec.shutdownMs);
      }
    }
    if (!done) {
      this.forced = true;
      this.killed = true;
      await this.signal('SIGKILL');
      // The engine's wait answers once the kill lands; if the engine is gone, the force remove below is all left.
      if (!(await within(this.spec.engineMs ?? ENGINE_CALL_MS))) {
        this.finish({ code: null, signal: 'SIGKILL', reason: undefined });
        this.removed = this.remove();
      }
    }
  }

  private async signal(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    try {
      await this.container?.kill({ signal });
    } catch {
      // Already ended (409/404), or the engine is gone: the wait above tells which.
    }
  }
}
