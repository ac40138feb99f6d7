import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/config/types.js';
import type { ServerRequest } from '../../../src/supervisor/runtime/client-side.js';
import type { SupervisorOptions } from '../../../src/supervisor/supervisor.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { readLog, tempDir } from '../helpers.js';

const EVERYTHING = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
});

/** One fixture `fx` logging what it receives, with `over` (allow, roots) and host `options`. */
async function fleet(over: Partial<ServerConfig>, options: Omit<SupervisorOptions, 'approve'> = {}) {
  const d = tempDir();
  dirs.push(d);
  const log = join(d.dir, 'fx.log');
  const { sup, events } = f.create(fleetConfig([fixtureServer('fx', [`--log=${log}`], over)]), options);
  await sup.start();
  const declared = () =>
    (readLog(log).find((m) => m.method === 'initialize')?.params as { capabilities?: unknown } | undefined)
      ?.capabilities;
  /** The fixture's tool asks the client side and returns the answer it got, as JSON. */
  const ask = async (tool: string) => {
    const out = await sup.callToolOutcome(`fx.${tool}`, {});
    if (!out.ok) throw new Error(`${tool}: ${out.message}`);
    return JSON.parse(out.text) as { result?: Record<string, unknown>; error?: { code: number } };
  };
  return { sup, events, log, declared, ask };
}

const REPLY = { role: 'assistant', content: { type: 'text', text: 'hi there' }, model: 'host-model' };

describe('server requests answered by the host', () => {
  it('an allowed server gets sampling and elicitation declared and answered by the host handlers', async () => {
    const seen: ServerRequest[] = [];
    const { declared, ask, events } = await fleet(
      { allow: ['sampling', 'elicitation'] },
      {
        onSampling: async (r) => {
          seen.push(r);
          return REPLY;
        },
        onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
      },
    );
    expect(declared()).toEqual({ sampling: {}, elicitation: {} });
    expect(await ask('sample')).toEqual({ result: REPLY });
    expect(await ask('elicit')).toEqual({ result: { action: 'accept', content: { name: 'Ada' } } });
    expect(seen).toEqual([
      expect.objectContaining({
        server: 'fx',
        method: 'sampling/createMessage',
        params: expect.objectContaining({ maxTokens: 16 }),
      }),
    ]);
    expect(events.filter((e) => e.type === 'refused')).toEqual([]);
  });

  it('a handler’s error goes back to the server with its code', async () => {
    const { ask } = await fleet(
      { allow: ['sampling'] },
      {
        onSampling: async () => {
          throw Object.assign(new Error('user declined'), { code: -1 });
        },
      },
    );
    expect(await ask('sample')).toEqual({ error: { code: -1, message: 'user declined' } });
  });

  it('a server not allowed is neither told nor answered, whatever the host offers: -32601 and a refused event', async () => {
    const { declared, ask, events } = await fleet(
      { allow: ['elicitation'] },
      { onSampling: async () => REPLY },
    );
    // Allowed elicitation, but nobody answers it: not declared either.
    expect(declared()).toEqual({});
    expect((await ask('sample')).error?.code).toBe(-32601);
    expect((await ask('elicit')).error?.code).toBe(-32601);
    expect(events.filter((e) => e.type === 'refused').map((e) => e.type === 'refused' && e.method)).toEqual([
      'sampling/createMessage',
      'elicitation/create',
    ]);
  });

  it('roots: client answers the host’s roots and passes their list_changed on', async () => {
    let roots = [{ uri: 'file:///srv/a', name: 'a' }];
    const { sup, declared, ask, log } = await fleet({ roots: 'client' }, { roots: () => roots });
    expect(declared()).toEqual({ roots: { listChanged: true } });
    expect(await ask('roots')).toEqual({ result: { roots: [{ uri: 'file:///srv/a', name: 'a' }] } });
    roots = [{ uri: 'file:///srv/b', name: 'b' }];
    sup.rootsChanged();
    await eventually(
      () => readLog(log).some((m) => m.method === 'notifications/roots/list_changed'),
      5000,
      'roots/list_changed at the server',
    );
    expect(await ask('roots')).toEqual({ result: { roots: [{ uri: 'file:///srv/b', name: 'b' }] } });
  });

  it('passes roots/list_changed to a 2025 server with roots: client, never to a 2026 one (the revision removed it)', async () => {
    const d = tempDir();
    dirs.push(d);
    const [oldLog, newLog] = [join(d.dir, 'old.log'), join(d.dir, 'new.log')];
    const modern = join(process.cwd(), 'test/fixtures/modern-server.mjs');
    const { sup } = f.create(
      fleetConfig([
        fixtureServer('old', [`--log=${oldLog}`], { roots: 'client' }),
        fixtureServer('new', [], { args: [modern, '--log', newLog], roots: 'client' }),
      ]),
      { roots: () => [{ uri: 'file:///srv/a', name: 'a' }] },
    );
    await sup.start();
    expect(sup.status().map((s) => [s.id, s.state])).toEqual([
      ['old', 'ready'],
      ['new', 'ready'],
    ]);
    sup.rootsChanged();
    await eventually(
      () => readLog(oldLog).some((m) => m.method === 'notifications/roots/list_changed'),
      5000,
      'roots/list_changed at the 2025 server',
    );
    // Lines to one server go out in order: once a call sent after the change is answered, anything sent before it
    // was received, and the 2026 server's log holds all of it.
    expect(await sup.callToolOutcome('new.echo', { text: 'after' })).toEqual({ ok: true, text: 'after' });
    const received = readFileSync(newLog, 'utf8');
    expect(received).toContain('"after"');
    expect(received).not.toContain('notifications/roots/list_changed');
  });

  it('answers the requests a server makes right after the handshake (fixture --server-requests)', async () => {
    const d = tempDir();
    dirs.push(d);
    const log = join(d.dir, 'fx.log');
    const server = fixtureServer('fx', ['--server-requests', `--log=${log}`], {
      allow: ['sampling', 'elicitation'],
      roots: 'client',
    });
    const { sup, events } = f.create(fleetConfig([server]), {
      onSampling: async () => REPLY,
      onElicitation: async () => ({ action: 'cancel' }),
      roots: [{ uri: 'file:///srv/a', name: 'a' }],
    });
    await sup.start();
    // The fixture asks sampling (id 0), elicitation (1) and roots (2) as soon as it is initialized.
    const answers = () =>
      readLog(log)
        .filter((m) => !('method' in m))
        .sort((a, b) => Number(a.id) - Number(b.id));
    await eventually(() => answers().length === 3, 5000, 'three answers at the fixture');
    expect(answers()).toEqual([
      { jsonrpc: '2.0', id: 0, result: REPLY },
      { jsonrpc: '2.0', id: 1, result: { action: 'cancel' } },
      { jsonrpc: '2.0', id: 2, result: { roots: [{ uri: 'file:///srv/a', name: 'a' }] } },
    ]);
    expect(events.filter((e) => e.type === 'refused')).toEqual([]);
  });

  it('roots: client without host roots is refused like any request nobody answers', async () => {
    const { declared, ask } = await fleet({ roots: 'client' });
    expect(declared()).toEqual({});
    expect((await ask('roots')).error?.code).toBe(-32601);
  });

  it('the official server offers its sampling and elicitation tools only when told, and gets the host answers', async () => {
    const asked: string[] = [];
    const { sup } = f.create(
      fleetConfig([
        fixtureServer('ev', [], {
          args: [EVERYTHING, 'stdio'],
          allow: ['sampling', 'elicitation'],
          timeouts: { startupMs: 15_000, callMs: 10_000, shutdownMs: 1000 },
        }),
        fixtureServer('bare', [], {
          args: [EVERYTHING, 'stdio'],
          timeouts: { startupMs: 15_000, callMs: 10_000, shutdownMs: 1000 },
        }),
      ]),
      {
        onSampling: async (r) => {
          asked.push(`${r.server} ${r.method}`);
          return REPLY;
        },
        onElicitation: async (r) => {
          asked.push(`${r.server} ${r.method}`);
          return { action: 'decline' };
        },
      },
    );
    await sup.start();
    const names = sup.listTools().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['ev.trigger-sampling-request', 'ev.trigger-elicitation-request']),
    );
    // Not allowed: never told the host could answer, so the server offers neither tool.
    expect(names.filter((n) => n.startsWith('bare.trigger-') && /sampling|elicitation/.test(n))).toEqual([]);
    const sampled = await sup.callToolOutcome('ev.trigger-sampling-request', {
      prompt: 'hello',
      maxTokens: 5,
    });
    expect(sampled).toEqual({ ok: true, text: expect.stringContaining('hi there') });
    const elicited = await sup.callToolOutcome('ev.trigger-elicitation-request', {});
    expect(elicited.ok).toBe(true);
    expect(asked).toEqual(['ev sampling/createMessage', 'ev elicitation/create']);
  }, 40_000);
});
