// The floor for MCP over HTTP: a bare node:http server that parses each POST, hands it to the fixture over a
// plain JSON-RPC pipe under an id of its own, and answers the fixture's reply as one JSON body. No sessions, no
// SSE, no validation, no timeouts, no supervision: what HTTP and the fixture cost by themselves. Run as its own
// process: node --import tsx bench/lib/http-floor.ts   (prints `listening on http://127.0.0.1:PORT/mcp` on stderr)
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIXTURE } from './http-fixture.js';

const child = spawn(process.execPath, [FIXTURE], { stdio: ['pipe', 'pipe', 'pipe'] });
child.stderr.resume();

/** Each forwarded request: the client's own id and where its answer goes. */
const waiting = new Map<number, { id: unknown; res: ServerResponse }>();
let carry = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk: string) => {
  const text = carry + chunk;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    const answer = JSON.parse(text.slice(start, nl)) as { id?: unknown };
    start = nl + 1;
    const to = typeof answer.id === 'number' ? waiting.get(answer.id) : undefined;
    if (!to) continue;
    waiting.delete(answer.id as number);
    answer.id = to.id;
    to.res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  }
  carry = text.slice(start);
});

let next = 0;
const http = createServer((req, res) => {
  // No server-initiated stream: the SDK client takes 405 as "none offered".
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: string };
    if (msg.id === undefined) {
      child.stdin.write(`${JSON.stringify(msg)}\n`);
      return void res.writeHead(202).end();
    }
    const mine = next++;
    waiting.set(mine, { id: msg.id, res });
    msg.id = mine;
    child.stdin.write(`${JSON.stringify(msg)}\n`);
  });
});

http.listen(0, '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  process.stderr.write(`listening on http://127.0.0.1:${port}/mcp\n`);
});

const stop = () => {
  http.close();
  http.closeAllConnections();
  child.stdin.end();
  child.once('exit', () => process.exit(0));
  setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
