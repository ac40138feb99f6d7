// The floor of the scale benchmark: the tiny servers spawned at once by a bare script that does each handshake
// and calls them with hand-written JSON-RPC lines, nothing else.
import { type ChildProcess, spawn } from 'node:child_process';

interface Child {
  proc: ChildProcess;
  waiting: Map<number, () => void>;
}

export class BareFleet {
  private readonly children: Child[] = [];
  private next = 10;

  private constructor() {}

  /** Spawns `n` at once and resolves once every handshake (initialize, initialized, tools/list) was answered. */
  static async start(binary: string, n: number): Promise<BareFleet> {
    const fleet = new BareFleet();
    await Promise.all(Array.from({ length: n }, () => fleet.spawnOne(binary)));
    return fleet;
  }

  private spawnOne(binary: string): Promise<void> {
    const proc = spawn(binary, [], { stdio: ['pipe', 'pipe', 'ignore'] });
    const child: Child = { proc, waiting: new Map() };
    this.children.push(child);
    let buf = '';
    proc.stdout!.setEncoding('utf8');
    proc.stdout!.on('data', (c: string) => {
      buf += c;
      let at = buf.indexOf('\n');
      while (at >= 0) {
        const line = buf.slice(0, at);
        buf = buf.slice(at + 1);
        const id = /"id":(\d+)/.exec(line)?.[1];
        if (id !== undefined) {
          const done = child.waiting.get(Number(id));
          child.waiting.delete(Number(id));
          done?.();
        }
        at = buf.indexOf('\n');
      }
    });
    const listed = new Promise<void>((resolve) => child.waiting.set(2, resolve));
    proc.stdin!.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}\n' +
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n',
    );
    return listed;
  }

  /** One tools/call to server `i`, answered. */
  call(i: number): Promise<void> {
    const child = this.children[i % this.children.length] as Child;
    const id = this.next++;
    return new Promise<void>((resolve) => {
      child.waiting.set(id, resolve);
      child.proc.stdin!.write(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"tool_3","arguments":{"text":"hi"}}}\n`,
      );
    });
  }

  /** Closes every stdin and resolves once every child exited. */
  stop(): Promise<void> {
    return Promise.all(
      this.children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.proc.exitCode !== null) return resolve();
            c.proc.once('exit', () => resolve());
            c.proc.stdin!.end();
          }),
      ),
    ).then(() => {});
  }
}
