import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { raw } from '../../gateway/http/helpers.js';
import { serveClients, until } from '../../gateway/serve-helpers.js';
import { writeFixtureConfig } from '../helpers.js';

// A replica cannot ask anyone: it starts only the servers the trust store it is given approves (a file mounted
// read-only, as a ConfigMap is), refuses the rest loudly, and writes nothing into that store.
const { cli } = serveClients();
afterEach(() => cli.reap());

it('serve --http without a terminal starts only what the given store approves, says so of the rest, and leaves the store as it was', async () => {
  const dir = cli.tempDir();
  const store = join(dir, 'trust.json');
  // The store is made as docs/scale-out.md says, for the config with `a` alone.
  writeFixtureConfig(dir, [{ id: 'a' }]);
  const made = await cli.runCli(['tools', join(dir, 'fleet.yaml'), '--trust-all', '--store', store]);
  expect(made.code).toBe(0);
  const config = writeFixtureConfig(dir, [{ id: 'a' }, { id: 'b' }]);
  const before = readFileSync(store);

  const proc = cli.spawnCli(['serve', config, '--http', '127.0.0.1:0', '--no-auth', '--store', store]);
  await proc.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
  const url = new URL(/^listening on (\S+)$/m.exec(proc.stderr())![1]!);
  // The readiness probe starts the fleet; ready once its first start settled, b refused.
  await until(
    async () => ((await raw(url, { path: '/readyz' })).status === 200 ? true : undefined),
    15_000,
    'ready',
  );
  const health = JSON.parse((await raw(url, { path: '/healthz' })).body) as {
    servers: Array<{ id: string; state: string }>;
  };
  expect(health.servers.map((s) => [s.id, s.state])).toEqual([
    ['a', 'ready'],
    ['b', 'untrusted'],
  ]);
  // Loudly: a warning naming the server, and its fingerprint as data (the log is logfmt without a terminal).
  await proc.waitFor(/level=warn event=untrusted server=b fingerprint=[0-9a-f]{64}$/m);
  expect(proc.stderr()).toMatch(/level=warn event=log msg="command line of server 'b' not trusted;/);
  expect(proc.stderr()).not.toMatch(/event=untrusted server=a\b/);
  proc.child.kill('SIGINT');
  expect((await proc.exited).code).toBe(0);
  // Nothing was approved or pinned on the way: the store's bytes are those it was given.
  expect(readFileSync(store).equals(before)).toBe(true);
}, 60_000);
