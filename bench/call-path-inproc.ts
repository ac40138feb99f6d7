// One call's JavaScript with the pipes taken out: our tool call (callToolText: the request's options and params,
// its outcome), our request bookkeeping (PendingRequests, with its deadline) and our reading of the answer
// (StreamDecoder: split, parse, admit, flatten) against the bare JSON-RPC loop's own (stringify, decode, split,
// parse, a map). The connection stands in as its one method a call uses, `request`, handing the request to the
// same PendingRequests a connection has. Both get each answer as the bytes a server would
// write, made in the same process; what making them costs is measured alone and taken off. No process, no
// syscall, no wake-up: what is left is the code each runs per call, on a warm core.
// Run: node --import tsx bench/call-path-inproc.ts [calls per round, default 200000]
import { StringDecoder } from 'node:string_decoder';
import type { McpConnection } from '../src/protocol/connection.js';
import type { RequestOptions } from '../src/protocol/connection-types.js';
import { BenchError } from './lib/bench-error.js';
import { callToolText, OURS_FROM, PendingRequests, StreamDecoder } from './lib/ours.js';
import { fmt, median } from './lib/stats.js';

const calls = Number(process.argv[2] ?? 200_000);
const ROUNDS = 5;

interface Request {
  id: number;
  params: { arguments: { text: string } };
}

/** What the fixture writes for an echo call, made from the request line as it would make it. */
function answerBytes(line: string): Buffer {
  const req = JSON.parse(line) as Request;
  const result = { content: [{ type: 'text', text: req.params.arguments.text }] };
  return Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: req.id, result })}\n`);
}

function oursPath(): (text: string) => Promise<string> {
  let line = '';
  const pending = new PendingRequests((m) => {
    line = `${JSON.stringify(m)}\n`;
    return 'sent';
  });
  const decoder = new StreamDecoder({
    resultFor: (id) => pending.resultFor(id),
    onEvent: (e) => {
      if (e.kind === 'tool-result') pending.settleToolResult(e.id, e.text, e.result, e.failed);
      else if (e.kind === 'message' && 'id' in e.message && e.message.id !== null && !('method' in e.message))
        pending.settle(e.message.id, e.message);
    },
  });
  const conn = {
    request: (method: string, params: unknown, opts: RequestOptions) =>
      pending.send(method, params, opts, () => {}),
  } as unknown as McpConnection;
  const opts = { timeoutMs: 60_000, maxBytes: 1024 * 1024 };
  return (text) => {
    const answer = callToolText(conn, 'echo', { text }, opts);
    decoder.push(answerBytes(line));
    return answer;
  };
}

function loopPath(): (text: string) => Promise<string> {
  let line = '';
  let next = 0;
  let carry = '';
  const waiting = new Map<number, (a: { result: { content: Array<{ text: string }> } }) => void>();
  const utf8 = new StringDecoder('utf8');
  const data = (chunk: Buffer) => {
    const text = carry + utf8.write(chunk);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const a = JSON.parse(text.slice(start, nl));
      start = nl + 1;
      const resolve = waiting.get(a.id);
      waiting.delete(a.id);
      resolve?.(a);
    }
    carry = text.slice(start);
  };
  return async (text) => {
    const answer = new Promise<{ result: { content: Array<{ text: string }> } }>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      line = `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } })}\n`;
    });
    data(answerBytes(line));
    return (await answer).result.content[0]?.text ?? '';
  };
}

/** The server's part alone, to take off both. */
function answerOnly(): (text: string) => Promise<string> {
  return async (text) => {
    answerBytes(`{"id":1,"params":{"arguments":{"text":${JSON.stringify(text)}}}}`);
    return text;
  };
}

const paths = { answer: answerOnly(), loop: loopPath(), ours: oursPath() };

async function nsPerCall(call: (text: string) => Promise<string>, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const text = `hello ${i}`;
    const got = await call(text);
    if (got !== text) throw new BenchError('WRONG_ANSWER', `answered ${JSON.stringify(got)}`);
  }
  return Number(process.hrtime.bigint() - t0) / n;
}

// the JIT settles over the first tens of thousands
for (const call of Object.values(paths)) await nsPerCall(call, 50_000);
const ns: Record<keyof typeof paths, number[]> = { answer: [], loop: [], ours: [] };
for (let r = 0; r < ROUNDS; r++)
  for (const [k, call] of Object.entries(paths) as Array<
    [keyof typeof paths, (t: string) => Promise<string>]
  >)
    ns[k].push(await nsPerCall(call, calls));
const own = (k: 'loop' | 'ours') => ns[k].map((x, i) => x - ns.answer[i]!);
console.log(`ours from ${OURS_FROM}/, ${ROUNDS} rounds of ${calls} calls, medians`);
console.log(`making the answer (taken off both): ${fmt(median(ns.answer) / 1000)} µs per call`);
console.log(`bare loop:  ${fmt(median(own('loop')) / 1000)} µs per call`);
console.log(
  `ours:       ${fmt(median(own('ours')) / 1000)} µs per call (${fmt(median(own('ours').map((x, i) => x / own('loop')[i]!)))}× the loop's)`,
);
