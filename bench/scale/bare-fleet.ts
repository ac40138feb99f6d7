// The floor of the scale benchmark: the tiny servers spawned at once by a bare script that does each handshake
// and calls them with hand-written JSON-RPC lines, with the same containment steps as ours and nothing else: each
// child leads its own process group, and with cgroups gets a leaf of its own that a shell line joins before exec.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

/** How the floor holds each child: its own process group, or that and a cgroup leaf under `base`. */
export type FloorContainment = { kind: 'pgroup' } | { kind: 'cgroup'; base: string };

const JOIN = 'echo $$ > "$1" || exit 125; shift; exec "$@"';

interface Child {
  proc: ChildProcess;
  waiting: Map<number, () => void>;
}

export class BareFleet {
  private readonly children: Child[] = [];
  private readonly leaves: string[] = [];
  private next = 10;

  private constructor(private readonly parent: string | undefined) {}

  /** Spawns `n` at once and resolves once every handshake (initialize, initialized, tools/list) was answered. */
  static async start(binary: string, n: number, containment: FloorContainment): Promise<BareFleet> {
    const parent =
      containment.kind === 'cgroup'
        ? join(containment.base, `mcp-supervisor-floor-${process.pid}`)
        : undefined;
    if (parent) mkdirSync(parent, { recursive: true });
    const fleet = new BareFleet(parent);
    await Promise.all(Array.from({ length: n }, (_, i) => fleet.spawnOne(binary, i)));
    return fleet;
  }

  private spawnOne(binary: string, i: number): Promise<void> {
    const options: SpawnOptions = { stdio: ['pipe', 'pipe', 'ignore'], detached: true };
    let proc: ChildProcess;
    if (this.parent) {
      const leaf = join(this.parent, `s${i}-0`);
      mkdirSync(leaf);
      this.leaves.push(leaf);
      proc = spawn('/bin/sh', ['-c', JOIN, 'floor', join(leaf, 'cgroup.procs'), binary], options);
    } else proc = spawn(binary, [], options);
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

  /** Closes every stdin and resolves once every child exited and its cgroup leaf is removed. */
  stop(): Promise<void> {
    return endAll(this.children.map((c) => c.proc)).then(() => {
      for (const leaf of this.leaves) rmdirSync(leaf);
      if (this.parent) rmdirSync(this.parent);
    });
  }
}

/**
 * What one `spawn()` of the tiny server costs this process as it is now, in ms: `count` spawned one after another
 * (their own process group, three pipes, as ours), timed while node forks and waits for the exec, then ended.
 * A fork copies the parent's page tables and the child tears its copy down before exec, so it costs more in a
 * larger process: measured in the floor's process and in ours, each with its fleet up.
 */
export async function spawnCost(binary: string, count = 100): Promise<number> {
  const children: ChildProcess[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++)
    children.push(spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'], detached: true }));
  const ms = (performance.now() - t0) / count;
  await endAll(children);
  return ms;
}

/** Closes every child's stdin (the tiny server exits at end of input) and resolves once all exited. */
async function endAll(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.stdin!.end();
        }),
    ),
  );
}
