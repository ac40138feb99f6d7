import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResourceReadOutcome } from '../../../src/supervisor/resources/outcome.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';

// Two 2026-only servers with the same prompt and resource, unnamespaced: p holds both (first in config) until a
// reload drops it, then q's take them over. A retry carrying p's requestState must not be sent to q, which never asked.
const MODERN = join(process.cwd(), 'test/fixtures/modern-server.mjs');
const f = fleets();
afterAll(() => f.reap());

const ELICITATION = { elicitation: {} };
const VAULT = 'fixture://vault';

describe('a prompt or read retried after its name or URI changed hands', () => {
  it('is refused ROUTE_CHANGED rather than sent to a server that never asked', async () => {
    const q = fixtureServer('q', [], { args: [MODERN], namespace: false });
    const { sup } = f.create(fleetConfig([fixtureServer('p', [], { args: [MODERN], namespace: false }), q]));
    await sup.start();
    // q may be ready first and hold the names while p is away: wait until p, first in config order, holds them.
    await eventually(
      () => sup.listPrompts().some((x) => x.name === 'unlock' && x.server === 'p'),
      5000,
      "p's prompt",
    );
    const pass = { passInputRequired: true, inputCapabilities: ELICITATION };
    const prompt = await sup.getPrompt('unlock', undefined, pass);
    expect(prompt).toMatchObject({ ok: true, server: 'p', result: { resultType: 'input_required' } });
    let read: ResourceReadOutcome | undefined;
    for (const end = Date.now() + 5000; read?.server !== 'p'; ) {
      if (Date.now() > end) throw new Error(`${VAULT} never routed to p: ${JSON.stringify(read)}`);
      read = await sup.readResource(VAULT, pass);
    }
    expect(read).toMatchObject({ ok: false, code: 'INPUT_REQUIRED', server: 'p' });
    const promptState = prompt.ok ? String(prompt.result.requestState) : '';
    const readState = !read.ok ? read.input?.requestState : undefined;

    // A reload without p: its prompt and resource are q's now.
    expect(await sup.reload(fleetConfig([q]))).toMatchObject({ ok: true });
    await eventually(
      () => sup.listPrompts().some((x) => x.name === 'unlock' && x.server === 'q'),
      5000,
      "q's prompt",
    );
    // A read that does not hand its state out (no passInputRequired) tells where the URI routes now.
    let routed: ResourceReadOutcome | undefined;
    for (const end = Date.now() + 5000; routed?.server !== 'q'; ) {
      if (Date.now() > end) throw new Error(`${VAULT} never routed to q: ${JSON.stringify(routed)}`);
      routed = await sup.readResource(VAULT, { inputCapabilities: ELICITATION });
    }

    const inputResponses = { unlock: { action: 'accept', content: { ok: true } } };
    const retried = await sup.getPrompt('unlock', undefined, {
      ...pass,
      retry: { inputResponses, requestState: promptState },
    });
    expect(retried).toMatchObject({ ok: false, code: 'ROUTE_CHANGED', server: 'q' });
    expect(retried.ok ? '' : retried.message).toContain("not 'p' that asked for input");
    const reread = await sup.readResource(VAULT, {
      ...pass,
      retry: { inputResponses, ...(readState !== undefined ? { requestState: readState } : {}) },
    });
    expect(reread).toMatchObject({ ok: false, code: 'ROUTE_CHANGED', server: 'q', uri: VAULT });
  }, 20_000);
});
