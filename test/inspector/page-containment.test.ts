import { describe, expect, it } from 'vitest';
import { startUiServer } from '../../src/inspector/ui-server.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { hasChromium, warnIfNoChromium } from '../cli/browser.js';
import { FakeSource } from './fake-source.js';
import { usePageHarness } from './page-harness.js';

warnIfNoChromium('inspector containment test');

const spawnError = { code: 'ENOENT', command: 'nope', cwd: '/srv', searched: '/usr/bin:/bin' };
const WHY = 'command "nope" not found on PATH (searched: /usr/bin:/bin)';

describe.skipIf(!hasChromium)('inspector page: containment and failed spawns', () => {
  const h = usePageHarness();

  it("shows each server's containment, and why a spawn failed, on the card and in the timeline", async () => {
    const now = Date.now();
    const fleet: ServerStatus[] = [
      {
        id: 'files',
        state: 'ready',
        pid: 48121,
        restarts: 0,
        since: now - 5000,
        tools: 6,
        containment: 'cgroup',
      },
      {
        id: 'broken',
        state: 'failed',
        restarts: 0,
        since: now - 1000,
        tools: 0,
        containment: 'cgroup',
        lastExit: {
          code: null,
          signal: null,
          reason: 'spawn_failed',
          stderrTail: '',
          at: now - 1000,
          spawnError,
        },
      },
    ];
    const source = new FakeSource(fleet);
    h.ui = await startUiServer(source);
    h.page = await h.browser.newPage();
    await h.page.goto(h.ui.url);
    const text = async (id: string) => (await h.page!.getByTestId(id).textContent()) ?? '';
    await h.page.getByTestId('server-card-broken').waitFor();
    await expect.poll(() => text('detail-info')).toBe('no handshake yet \u00b7 cgroup');
    expect(await text('server-exit-broken')).toContain(`could not start: ${WHY}`);
    source.emit({
      type: 'exit',
      server: 'broken',
      code: null,
      signal: null,
      reason: 'spawn_failed',
      stderrTail: '',
      at: Date.now(),
      spawnError,
    });
    await expect.poll(() => h.page!.getByTestId('timeline-row').first().textContent()).toContain(WHY);
  });
});
