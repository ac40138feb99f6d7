// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${keyring:…} references are written literally on purpose
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { deleteKeyring, storeKeyring } from '../../src/secrets/keyring.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { describeKeyring, useKeyringBus } from './keyring-facts.js';

const f = fleets();
afterEach(() => f.reap());

/** A server whose env holds a keyring reference, with no restart left: a failed start fails it at once. */
const keyed = (id: string, ref: string) => ({
  ...fixtureServer(id, [], { env: { API_TOKEN: `Bearer ${ref}` }, secretFields: ['env.API_TOKEN'] }),
  restart: {
    policy: 'on-failure' as const,
    backoff: fixtureServer(id).restart.backoff,
    limit: { maxRestarts: 0, windowMs: 60_000 },
  },
});

describeKeyring('a ${keyring:…} secret', (bus) => {
  useKeyringBus(bus);
  const service = `mcp-supervisor-test-${randomUUID()}`;
  const value = `kr-${randomUUID()}`;
  beforeAll(async () => {
    expect(await storeKeyring(service, 'ci', value)).toEqual({ ok: true });
  });
  afterAll(async () => {
    await deleteKeyring(service, 'ci');
  });

  it('is read from the keyring when its server starts; one that is missing fails only its server', async () => {
    const { sup, events } = f.create(
      fleetConfig([
        keyed('found', `\${keyring:${service}/ci}`),
        keyed('missing', `\${keyring:${service}/nobody}`),
      ]),
    );
    await sup.start();
    expect(JSON.parse(await sup.callTool('found.env'))['API_TOKEN']).toBe(`Bearer ${value}`);
    expect(sup.status()[1]).toMatchObject({
      state: 'failed',
      lastExit: { spawnError: { code: 'SECRET_UNAVAILABLE' } },
    });
    expect(sup.status()[1]?.lastExit?.spawnError?.detail).toContain(`\${keyring:${service}/nobody}`);
    expect(JSON.stringify(events)).not.toContain(value);
  });

  it('without a reachable keyring fails clearly, and a file or env reference beside it still works', async () => {
    process.env['DBUS_SESSION_BUS_ADDRESS'] = 'unix:path=/nonexistent/bus';
    try {
      const { sup } = f.create(
        fleetConfig([keyed('kr', `\${keyring:${service}/ci}`), fixtureServer('plain')]),
      );
      await sup.start();
      expect(sup.status()[0]?.lastExit?.spawnError?.detail).toMatch(/no keyring reachable: /);
      expect(sup.status()[1]?.state).toBe('ready');
    } finally {
      process.env['DBUS_SESSION_BUS_ADDRESS'] = bus;
    }
  });
});
