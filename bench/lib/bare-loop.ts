// The practical limit for calls: a hand-written JSON-RPC loop over the fixture's pipes. No framing safety (no line
// cap, no noise handling), no supervision, no timeouts: one write per request, split on newlines, JSON.parse, a
// map from id to resolver. Whatever we spend above it is the price of what it leaves out.
import { spawn } from 'node:child_process';
import { mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { BenchError } from './bench-error.js';
import type { Contender } from './contenders.js';
import { FIXTURE } from './fixture-fleet.js';
import { buildChildEnv, cgroupBase } from './ours.js';

interface Answer {
  id?: number;
  result?: { content?: Array<{ type?: string; text?: string }> };
  error?: { message?: string };
}

/**
 * How the loop's child is spawned, to tell the spawn's share of a gap from the client's: `env` gives it only the
 * environment ours gives a server; `cgroup` puts it in a cgroup leaf of its own through the same `sh -c … exec`
 * trampoline ours uses.
 */
export interface BareLoopSpawn {
  env?: boolean;
  cgroup?: boolean;
}

let leaves = 0;

/** A fixture server behind the bare loop, initialized. `call` answers the first text block. */
export async function startBareLoop(how: BareLoopSpawn = {}): Promise<Contender> {
  const base = how.cgroup ? cgroupBase() : null;
  if (how.cgroup && base === null) throw new BenchError('NO_CGROUP', 'no writable cgroup v2 hierarchy here');
  const leaf = base === null ? undefined : join(base, `mcp-bench-loop-${process.pid}-${++leaves}`);
  if (leaf) mkdirSync(leaf);
  const file = leaf ? '/bin/sh' : process.execPath;
  const argv = leaf
    ? [
        '-c',
        'echo $$ > "$1" || exit 125; shift; exec "$@"',
        'bare-loop',
        `${leaf}/cgroup.procs`,
        process.execPath,
      ]
    : [];
  const child = spawn(file, [...argv, FIXTURE], {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(how.env ? { env: buildChildEnv(process.env, [], {}) } : {}),
  });
  child.stderr.resume();
  const waiting = new Map<number, (a: Answer) => void>();
  let carry = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const text = carry + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const answer = JSON.parse(text.slice(start, nl)) as Answer;
      start = nl + 1;
      if (typeof answer.id !== 'number') continue;
      const resolve = waiting.get(answer.id);
      waiting.delete(answer.id);
      resolve?.(answer);
    }
    carry = text.slice(start);
  });
  let id = 0;
  const send = (method: string, params: unknown) =>
    new Promise<Answer>((resolve) => {
      const mine = id++;
      waiting.set(mine, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params })}\n`);
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await send('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bare-loop', version: '0.0.0' },
  });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return {
    pid: () => child.pid,
    call: async (name, args) => {
      const answer = await send('tools/call', { name, arguments: args });
      if (answer.error) throw new BenchError('WRONG_ANSWER', `bare loop got ${answer.error.message}`);
      const first = answer.result?.content?.[0];
      return first?.type === 'text' && typeof first.text === 'string' ? first.text : '';
    },
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
      if (leaf) rmdirSync(leaf);
    },
  };
}
