import { describe, expect, it } from 'vitest';
import { startUiServer } from '../../src/inspector/ui-server.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { hasChromium, warnIfNoChromium } from '../cli/browser.js';
import { FakeSource } from './fake-source.js';
import { usePageHarness } from './page-harness.js';

warnIfNoChromium('inspector identity test');

describe.skipIf(!hasChromium)('inspector page: what each server said of itself', () => {
  const h = usePageHarness();

  it('shows serverInfo, protocol and capabilities, and the instructions as text, never as markup', async () => {
    const now = Date.now();
    const fleet: ServerStatus[] = [
      {
        id: 'ev',
        state: 'ready',
        pid: 4242,
        restarts: 0,
        since: now - 1000,
        tools: 3,
        server: {
          protocolVersion: '2025-11-25',
          info: { name: 'everything', version: '2.0.0' },
          capabilities: { tools: {}, prompts: {} },
          instructions: 'Use <b id="injected">echo</b> first.',
        },
      },
      { id: 'fx', state: 'spawning', restarts: 0, since: now, tools: 0 },
    ];
    h.ui = await startUiServer(new FakeSource(fleet));
    h.page = await h.browser.newPage();
    await h.page.goto(h.ui.url);
    await h.page.getByTestId('server-card-ev').waitFor();
    // The first server is selected: its detail pane says what it said of itself.
    await expect
      .poll(() => h.page!.getByTestId('detail-info').textContent())
      .toBe('everything 2.0.0 \u00b7 MCP 2025-11-25 \u00b7 prompts, tools');
    expect(await h.page.getByTestId('detail-instructions').textContent()).toBe(
      'Use <b id="injected">echo</b> first.',
    );
    expect(await h.page.locator('#injected').count()).toBe(0);
    // Before its handshake a server has said nothing.
    await h.page.getByTestId('server-card-fx').click();
    await expect.poll(() => h.page!.getByTestId('detail-info').textContent()).toBe('no handshake yet');
    expect(await h.page.getByTestId('detail-instructions').textContent()).toBe('(none)');
  });
});
