import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenVerifier } from '../../../src/gateway/http/auth.js';
import { type HttpGateway, serveHttp } from '../../../src/gateway/http/serve-http.js';
import { fixtureServer, fleetConfig, fleets, jobsServer } from '../../supervisor/fleet.js';

// Two credentials share one fleet over HTTP. A server's request made while a call is in flight belongs to that
// call's client: the other credential never reads it, and its answer never reaches the call.

const { create, reap } = fleets();
const clients: Client[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(closers.splice(0).map((close) => close()));
  await reap();
});

/**
 * A client of `token` that answers every elicitation with its own name (and `more`, when given), counting what it
 * was asked.
 */
async function client(http: HttpGateway, token: string, who: string, more: Record<string, boolean> = {}) {
  const c = new Client({ name: who, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked: unknown[] = [];
  c.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { name: who, ...more } };
  });
  clients.push(c);
  await c.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return { c, asked };
}

/** `serve --http` over `servers` for the tokens of alice and bob. */
async function twoTokens(servers: Parameters<typeof fleetConfig>[0]): Promise<HttpGateway> {
  const { sup } = create(fleetConfig(servers));
  const http = await serveHttp(sup, {
    address: { host: '127.0.0.1', port: 0 },
    verifier: tokenVerifier([
      { token: 'token-of-alice-0123456789abcdef', scopes: [], id: 'alice' },
      { token: 'token-of-bob-0123456789abcdef00', scopes: [], id: 'bob' },
    ]),
  });
  closers.push(() => http.close());
  return http;
}

describe("a server's request goes to the client whose call it serves", () => {
  it('puts an elicitation made during token A’s call to A, though B initialized after it', async () => {
    const http = await twoTokens([fixtureServer('fx', [], { allow: ['elicitation'] })]);
    const alice = await client(http, 'token-of-alice-0123456789abcdef', 'alice');
    const bob = await client(http, 'token-of-bob-0123456789abcdef00', 'bob');
    const result = await alice.c.callTool({ name: 'fx.elicit', arguments: {} });
    const answer = JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '{}');
    expect(answer).toEqual({ result: { action: 'accept', content: { name: 'alice' } } });
    // The answer came from alice, so the question was put to her; bob was never asked.
    expect(alice.asked).toHaveLength(1);
    expect(bob.asked).toEqual([]);
    // And the other way round, with alice now the most recent to have called.
    const back = await bob.c.callTool({ name: 'fx.elicit', arguments: {} });
    expect(JSON.parse((back.content as Array<{ text: string }>)[0]?.text ?? '{}')).toEqual({
      result: { action: 'accept', content: { name: 'bob' } },
    });
    expect(alice.asked).toHaveLength(1);
  });

  it('puts an elicitation made during a prompts/get to the client that asked for the prompt', async () => {
    const fx = fixtureServer('fx', ['--prompts', '1', '--ask-prompt'], { allow: ['elicitation'] });
    const http = await twoTokens([fx]);
    const alice = await client(http, 'token-of-alice-0123456789abcdef', 'alice');
    const bob = await client(http, 'token-of-bob-0123456789abcdef00', 'bob');
    const got = await alice.c.getPrompt({ name: 'fx.ask_name' });
    const said = (got.messages[0]?.content as { text?: string } | undefined)?.text ?? '';
    expect(JSON.parse(said)).toEqual({ result: { action: 'accept', content: { name: 'alice' } } });
    expect(alice.asked).toHaveLength(1);
    expect(bob.asked).toEqual([]);
  });

  it('puts an elicitation made during a completion/complete to the client that asked for it', async () => {
    const fx = fixtureServer('fx', ['--prompts', '1', '--ask-complete'], { allow: ['elicitation'] });
    const http = await twoTokens([fx]);
    const alice = await client(http, 'token-of-alice-0123456789abcdef', 'alice');
    const bob = await client(http, 'token-of-bob-0123456789abcdef00', 'bob');
    const got = await alice.c.complete({
      ref: { type: 'ref/prompt', name: 'fx.prompt_1' },
      argument: { name: 'topic', value: '' },
    });
    expect(got.completion.values).toEqual(['alice']);
    expect(alice.asked).toHaveLength(1);
    expect(bob.asked).toEqual([]);
  });

  it('puts the question a task asks while tasks/result is open to the client that opened it', async () => {
    const http = await twoTokens([jobsServer()]);
    const alice = await client(http, 'token-of-alice-0123456789abcdef', 'alice', { confirm: true });
    const bob = await client(http, 'token-of-bob-0123456789abcdef00', 'bob', { confirm: true });
    const created = await alice.c.request(
      {
        method: 'tools/call',
        params: { name: 'jobs.confirm_delete', arguments: { filename: 'notes.txt' }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    // The fixture asks to confirm only while a tasks/result for the task is open: this one is alice's.
    const result = await alice.c.request(
      { method: 'tasks/result', params: { taskId: created.task.taskId } },
      CallToolResultSchema,
      { timeout: 10_000 },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'deleted notes.txt' }]);
    expect(alice.asked).toHaveLength(1);
    expect(bob.asked).toEqual([]);
  });
});
