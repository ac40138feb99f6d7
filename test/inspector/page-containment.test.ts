import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startUiServer, type UiServer } from '../../src/inspector/ui-server.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { CHROMIUM_START_MS, hasChromium, launchChromium } from '../cli/browser.js';
import { FakeSource } from './fake-source.js';

if (!hasChromium) console.warn('inspector containment test did not run: no Chromium here');

const spawnError = { code: 'ENOENT', command: 'nope', cwd: '/srv', searched: '/usr/bin:/bin' };
const WHY = 'command "nope" not found on PATH (searched: /usr/bin:/bin)';

describe.skipIf(!hasChromium)('inspector page: containment and failed spawns', () => {
  let browser: Browser;
  let ui: UiServer | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  }, CHROMIUM_START_MS);
  afterEach(async () => {
    await page?.close();
    page = undefined;
    await ui?.close();
    ui = undefined;
  });
  afterAll(async () => {
    await browser?.close();
  });

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
    ui = await startUiServer(source);
    page = await browser.newPage();
    await page.goto(ui.url);
    const text = async (id: string) => (await page!.getByTestId(id).textContent()) ?? '';
    await page.getByTestId('server-card-broken').waitFor();
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
    await expect.poll(() => page!.getByTestId('timeline-row').first().textContent()).toContain(WHY);
  });
});
