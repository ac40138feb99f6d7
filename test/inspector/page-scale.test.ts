import { describe, expect, it } from 'vitest';
import { startUiServer } from '../../src/inspector/ui-server.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { hasChromium, warnIfNoChromium } from '../cli/browser.js';
import { FakeSource } from './fake-source.js';
import { usePageHarness } from './page-harness.js';

warnIfNoChromium('The inspector page was NOT checked at 1,000 servers in a real browser.');

// The page of a 1,000-server fleet: one server's restart repaints that server's card, not a thousand.
describe.skipIf(!hasChromium)('inspector page at 1,000 servers in headless Chromium', () => {
  const h = usePageHarness();

  it("paints only the restarted server's card", async () => {
    const now = Date.now();
    const rows: ServerStatus[] = Array.from({ length: 1000 }, (_, i) => ({
      id: `s${i}`,
      state: 'ready',
      pid: 10_000 + i,
      restarts: 0,
      since: now - 60_000,
      tools: 20,
    }));
    const source = new FakeSource(rows);
    h.ui = await startUiServer(source);
    const page = await h.browser.newPage();
    h.page = page;
    await page.goto(h.ui.url);
    await expect
      .poll(() => page.locator('[data-testid^="server-card-"]').count(), { timeout: 20_000 })
      .toBe(1000);
    // The first push after a page attached is whole (it tells the fleet's order); let it come and go first.
    source.transition('s1', 'wedged');
    await expect.poll(() => page.getByTestId('server-state-s1').textContent()).toBe('wedged');
    source.transition('s1', 'ready');
    await expect.poll(() => page.getByTestId('server-state-s1').textContent()).toBe('ready');
    // From here on, every state pill written is recorded (the per-second clock writes only the uptime).
    await page.evaluate(() => {
      const touched = new Set<string>();
      (window as unknown as { touched: Set<string> }).touched = touched;
      new MutationObserver((records) => {
        for (const r of records) {
          const id = (r.target as Element).getAttribute?.('data-testid');
          if (id?.startsWith('server-state-')) touched.add(id.slice('server-state-'.length));
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    source.exit('s500', { code: 1, signal: null, reason: 'crashed', stderrTail: 'boom' });
    source.transition('s500', 'backoff');
    source.transition('s500', 'spawning');
    // The exit shows once the row itself arrived, after the events that moved the pill.
    await expect.poll(() => page.getByTestId('server-exit-s500').textContent()).toContain('crashed');
    await expect.poll(() => page.getByTestId('server-state-s500').textContent()).toBe('spawning');
    const touched = await page.evaluate(() => [...(window as unknown as { touched: Set<string> }).touched]);
    expect(touched).toEqual(['s500']);
  }, 60_000);
});
