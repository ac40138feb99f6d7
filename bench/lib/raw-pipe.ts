// The floor for ingesting results: a client that only reads the pipe and counts newlines, never parsing.
import { spawn } from 'node:child_process';
import type { Contender } from './contenders.js';
import { FIXTURE } from './fixture-fleet.js';

/** A fixture server behind a client that resolves each request at the next newline, answering ''. */
export async function startRawPipe(): Promise<Contender> {
  const child = spawn(process.execPath, [FIXTURE], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const waiting: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) waiting.shift()?.();
  });
  let id = 0;
  const send = (method: string, params: unknown) =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: id++, method, params })}\n`);
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await send('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'floor', version: '0.0.0' },
  });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return {
    pid: () => child.pid,
    call: async (name, args) => {
      await send('tools/call', { name, arguments: args });
      return '';
    },
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
