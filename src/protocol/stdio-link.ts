import type { Readable, Writable } from 'node:stream';
import type { JsonRpcMessage } from '../framing/json-rpc.js';
import type { ExitInfo } from '../process/server-process.js';
import { OutgoingQueue, type WriteOutcome } from './outgoing-queue.js';
import type { LinkKind, LinkReader, OutgoingFacts, ServerLink } from './server-link.js';

/** What a link over stdio needs of what runs the server: a child process, or a container's attached streams. */
export interface StdioChild {
  readonly containment: LinkKind;
  readonly pid: number | undefined;
  readonly exited: Promise<ExitInfo>;
  readonly exitInfo: ExitInfo | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderrStream: Readable;
  stop(reason: string, opts: { immediate?: boolean }): Promise<ExitInfo>;
}

/** A spawned child's stdio as a link: stdin under the outgoing queue's bound, stdout and stderr as they come. */
export class StdioLink implements ServerLink {
  readonly kind: LinkKind;
  private readonly queue: OutgoingQueue;

  constructor(
    readonly process: StdioChild,
    queueBytes: number,
    onFull: (queuedBytes: number) => void,
  ) {
    this.kind = process.containment;
    this.queue = new OutgoingQueue(process.stdin, queueBytes, onFull);
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get exited(): Promise<ExitInfo> {
    return this.process.exited;
  }

  get exitInfo(): ExitInfo | undefined {
    return this.process.exitInfo;
  }

  get outgoing(): OutgoingFacts {
    return this.queue;
  }

  read(reader: LinkReader): void {
    const { stdout, stderrStream } = this.process;
    stdout.on('data', (chunk: Buffer) => reader.data(chunk));
    stdout.on('end', () => reader.end());
    stderrStream.on('data', (chunk: Buffer) => reader.stderr?.(chunk));
    stderrStream.on('end', () => reader.stderrEnd?.());
  }

  pause(): void {
    this.process.stdout.pause();
  }

  resume(): void {
    this.process.stdout.resume();
  }

  send(message: JsonRpcMessage): WriteOutcome {
    if (this.process.exitInfo) return 'closed';
    return this.queue.write(`${JSON.stringify(message)}\n`);
  }

  negotiated(): void {}

  established(): void {}

  release(): void {
    this.queue.release();
  }

  stop(reason: string, opts: { immediate?: boolean }): Promise<ExitInfo> {
    return this.process.stop(reason, opts);
  }
}
