import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { usePageHarness } from '../inspector/page-harness.js';
import { hasChromium, warnIfNoChromium } from './browser.js';
import { allGone, cliProcesses, ensureBuilt, pidOf, ROOT, writeFixtureConfig } from './helpers.js';

warnIfNoChromium('`run --ui` was NOT checked end to end.');

const cli = cliProcesses();
afterEach(() => cli.reap());
beforeAll(() => ensureBuilt(), 120_000);

describe.skipIf(!hasChromium)('run --ui end to end in headless Chromium', () => {
  const h = usePageHarness();

  it('serves the live fleet on 127.0.0.1: cards, a crash and its restart, and the lit statechart', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'alpha' }, { id: 'beta' }]);
    const run = cli.spawnCli(['run', config, '--trust-all', '--ui', '0']);
    await run.waitFor(/inspector UI at http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/);
    const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(run.stderr())![0];
    const { origin, searchParams } = new URL(url);
    const token = searchParams.get('token')!;
    // Without the run's token nothing of the fleet is served: the page, the API and the stream are refused.
    for (const path of ['/', '/api/status', '/api/statechart', '/events', '/browser/page.js'])
      expect((await fetch(`${origin}${path}`)).status, path).toBe(403);
    // The built program serves the page's script from the file built beside it.
    const script = await fetch(`${origin}/browser/page.js?token=${token}`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const built = readFileSync(join(ROOT, 'dist', 'inspector', 'browser', 'page.js'));
    expect(Buffer.from(await script.arrayBuffer()).equals(built)).toBe(true);
    await run.waitFor(/msg=started/);
    const page = await h.browser.newPage();
    h.page = page;
    await page.goto(url);
    await expect.poll(() => page.getByTestId('server-state-alpha').textContent()).toContain('ready');
    await expect.poll(() => page.getByTestId('server-state-beta').textContent()).toContain('ready');
    // The first server is selected: the one chart lights its state.
    await expect.poll(() => page.getByTestId('detail-id').textContent()).toBe('alpha');
    expect(await page.getByTestId('chart-node-ready').getAttribute('data-active')).toBe('true');
    // alpha's stderr, from the log ring `logs` reads too.
    await expect.poll(() => page.getByTestId('detail-logs').textContent()).toMatch(/fixture\[\d+\]: started/);

    const status = (await (await fetch(`${origin}/api/status?token=${token}`)).json()) as {
      servers: Array<{ id: string; pid: number }>;
    };
    const beta = status.servers.find((s) => s.id === 'beta')!;
    process.kill(beta.pid, 'SIGKILL');
    await expect
      .poll(() => page.getByTestId('timeline-row').allTextContents(), { timeout: 5000 })
      .toEqual(expect.arrayContaining([expect.stringMatching(/beta.*ready.*backoff|beta.*backoff/)]));
    await expect
      .poll(() => page.getByTestId('server-restarts-beta').textContent(), { timeout: 5000 })
      .toContain('1');

    const pids = [await pidOf(dir, 'alpha'), await pidOf(dir, 'beta')];
    run.child.kill('SIGINT');
    const result = await run.exited;
    expect(result.code).toBe(0);
    expect(await allGone(pids)).toBe(true);
    // The page's header does not keep saying "ready": the run told it the fleet stopped before it closed.
    await expect.poll(() => page.getByTestId('fleet-phase').textContent()).toBe('fleet stopped');
    expect(await page.getByTestId('server-state-alpha').textContent()).toBe('stopped');
    await page.close();
  }, 40_000);
});
