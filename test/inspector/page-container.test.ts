import { describe, expect, it } from 'vitest';
import { startUiServer } from '../../src/inspector/ui-server.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { hasChromium, warnIfNoChromium } from '../cli/browser.js';
import { FakeSource } from './fake-source.js';
import { usePageHarness } from './page-harness.js';

warnIfNoChromium('inspector container test');

describe.skipIf(!hasChromium)('inspector page: a server in a container', () => {
  const h = usePageHarness();

  it('shows the container where a process shows its pid, and the container and engine in the detail', async () => {
    const now = Date.now();
    const id = `${'c0ffee'.repeat(10)}abcd`;
    const fleet: ServerStatus[] = [
      {
        id: 'boxed',
        state: 'ready',
        restarts: 0,
        since: now - 1000,
        tools: 2,
        containment: 'container',
        container: {
          id,
          engine: 'unix:///run/podman/podman.sock',
          image: 'localhost/tools:1',
          imageId: `sha256:${'a'.repeat(64)}`,
        },
      },
      {
        id: 'plain',
        state: 'ready',
        pid: 4242,
        restarts: 0,
        since: now - 1000,
        tools: 1,
        containment: 'cgroup',
      },
    ];
    h.ui = await startUiServer(new FakeSource(fleet));
    h.page = await h.browser.newPage();
    await h.page.goto(h.ui.url);
    await h.page.getByTestId('server-card-boxed').waitFor();
    expect(await h.page.getByTestId('server-pid-boxed').textContent()).toBe(id.slice(0, 12));
    expect(await h.page.getByTestId('server-pid-plain').textContent()).toBe('4242');
    await h.page.getByTestId('server-card-boxed').click();
    await expect
      .poll(() => h.page!.getByTestId('detail-info').textContent())
      .toBe(`no handshake yet \u00b7 container ${id.slice(0, 12)} on unix:///run/podman/podman.sock`);
  });
});
