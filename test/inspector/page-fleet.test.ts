import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FleetPhase } from '../../src/inspector/page-data.js';
import { toStatechart } from '../../src/inspector/statechart.js';
import { startUiServer } from '../../src/inspector/ui-server.js';
import { serverMachine } from '../../src/machines/server.machine.js';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { hasChromium, warnIfNoChromium } from '../cli/browser.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { usePageHarness } from './page-harness.js';

warnIfNoChromium(
  'The inspector page was NOT checked against a real fleet and docs/ui.png was NOT refreshed.',
);

// README's picture is refreshed on request only (MCP_SUPERVISOR_SCREENSHOT=1), so a test run leaves the tree clean.
const SCREENSHOT = process.env.MCP_SUPERVISOR_SCREENSHOT
  ? fileURLToPath(new URL('../../docs/ui.png', import.meta.url))
  : join(tmpdir(), `mcp-supervisor-ui-${process.pid}.png`);

// Twenty servers, as a real fleet's might be named: the page must show them all on one screen.
const NAMES = [
  'files',
  'search',
  'git',
  'github',
  'memory',
  'fetch',
  'postgres',
  'sqlite',
  'slack',
  'calendar',
  'browser',
  'shell',
  'time',
  'weather',
  'maps',
  'notes',
  'jira',
  'docs',
  'metrics',
  'translate',
];

// Twenty real servers take seconds to start on a small machine: the plain run takes five (page.test.ts checks that
// twenty cards fit a screen); the picture for the README is taken over all twenty.
const USED = process.env.MCP_SUPERVISOR_SCREENSHOT
  ? NAMES
  : NAMES.filter((n) => ['files', 'search', 'git', 'slack', 'jira'].includes(n));

const fleet = fleets();
const cleanup: Array<() => void> = [];

describe.skipIf(!hasChromium)('inspector page on a real fleet in headless Chromium', () => {
  const h = usePageHarness(async () => {
    await fleet.reap();
    for (const c of cleanup.splice(0)) c();
  });

  const text = async (testId: string): Promise<string> =>
    (await h.page!.getByTestId(testId).textContent()) ?? '';
  const active = (key: string): Promise<string | null> =>
    h.page!.getByTestId(`chart-node-${key}`).getAttribute('data-active');

  it('shows every server on one screen, lights the selected one, shows its calls, and says stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-page-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    // As a fleet looks in use: one server came up on its second try, one never does and is given up on.
    const flags: Record<string, string[]> = {
      slack: ['--state-file', join(dir, 'slack'), '--crash-first', '1'],
      jira: ['--exit-at-start', '2'],
    };
    const servers = USED.map((id) =>
      fixtureServer(id, ['--stderr-spam', '2', '--tools', String(id.length % 4), ...(flags[id] ?? [])], {
        restart: { limit: { maxRestarts: id === 'jira' ? 1 : 5, windowMs: 60_000 } },
      }),
    );
    const { sup } = fleet.create(fleetConfig(servers));
    let phase: FleetPhase = 'running';
    h.ui = await startUiServer({
      status: () => sup.status(),
      subscribe: (l) => sup.subscribe(l),
      listTools: () => sup.listTools(),
      onCall: (l) => sup.onCall(l),
      phase: () => phase,
      statechart: toStatechart(serverMachine),
    });
    h.page = await h.browser.newPage({ viewport: { width: 1480, height: 1000 } });
    const problems: string[] = [];
    h.page.on('pageerror', (e) => problems.push(e.message));
    h.page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await h.page.goto(h.ui.url);
    await sup.start();

    for (const id of USED)
      await expect.poll(() => text(`server-state-${id}`)).toBe(id === 'jira' ? 'failed' : 'ready');
    expect(await text('server-restarts-slack')).toBe('1');
    expect(await text('server-exit-jira')).toContain('exit code 2');
    // One chart, not one per card; every card inside the first screen.
    expect(await h.page.locator('svg.statechart').count()).toBe(1);
    for (const id of USED) {
      const box = await h.page.getByTestId(`server-card-${id}`).boundingBox();
      expect(box, id).not.toBeNull();
      expect(box!.y + box!.height, id).toBeLessThanOrEqual(1000);
    }
    // The chart names states, never xstate's generated ids.
    expect(await h.page.locator('svg.statechart').textContent()).not.toMatch(/\d+\.server\.|xstate\./);

    await h.page.getByTestId('server-card-search').click();
    await expect.poll(() => text('detail-id')).toBe('search');
    expect(await active('ready')).toBe('true');
    expect(await h.page.locator('svg.statechart g.n[data-active="true"]').count()).toBe(1);
    expect(await h.page.getByTestId('chart-node-running').getAttribute('data-contains-active')).toBe('true');
    expect(await text('chart-for')).toContain('search: ready');
    await expect.poll(() => text('detail-logs')).toContain('spam line 1');
    await expect.poll(() => text('detail-tools')).toContain('search.echo');
    expect(await text('detail-info')).toContain('fixture 1.0.0');

    expect(await sup.callToolOutcome('search.echo', { text: 'héllo' })).toEqual({ ok: true, text: 'héllo' });
    await expect
      .poll(() => h.page!.getByTestId('call-row').first().textContent())
      .toMatch(/search\.echo.*OK6 B/);
    expect(await sup.callToolOutcome('search.fail', { message: 'no index' })).toMatchObject({
      code: 'TOOL_ERROR',
    });
    await expect
      .poll(() => h.page!.getByTestId('call-row').first().textContent())
      .toMatch(/search\.fail.*TOOL_ERROR/);

    // A crash: the restart timeline gets the exit and the return, and the chart shows the way back.
    const before = sup.status().find((s) => s.id === 'search')!.pid!;
    expect(await sup.callToolOutcome('search.crash', { code: 3 })).toMatchObject({ code: 'SERVER_EXITED' });
    await expect
      .poll(() => h.page!.getByTestId('restart-row').allTextContents(), { timeout: 10_000 })
      .toEqual([
        expect.stringMatching(/→ ready/),
        expect.stringMatching(/→ backoff/),
        expect.stringMatching(/exit code 3/),
      ]);
    await expect.poll(() => active('ready')).toBe('true');
    expect(await h.page.getByTestId('chart-node-backoff').getAttribute('data-trail')).not.toBeNull();
    await expect.poll(() => text('server-restarts-search')).toBe('1');
    expect(Number(await text('server-pid-search'))).not.toBe(before);

    // Another server's card lights its own state; search's calls are not shown for it.
    await h.page.getByTestId('server-card-git').click();
    await expect.poll(() => text('detail-id')).toBe('git');
    expect(await h.page.getByTestId('call-row').count()).toBe(0);
    await h.page.getByTestId('server-card-search').click();
    await expect.poll(() => h.page!.getByTestId('call-row').count()).toBe(3);

    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await h.page.screenshot({ path: SCREENSHOT });

    expect(await h.page.getByTestId('fleet-phase').getAttribute('data-phase')).toBe('running');
    phase = 'stopping';
    await stopFleet(sup);
    phase = 'stopped';
    await h.ui.close();
    h.ui = undefined;
    await expect.poll(() => h.page!.getByTestId('fleet-phase').getAttribute('data-phase')).toBe('stopped');
    expect(await text('fleet-phase')).toBe('fleet stopped');
    expect(await text('server-state-search')).toBe('stopped');
    expect(await text('summary')).toBe(
      `${USED.length} servers \u00b7 1 failed \u00b7 ${USED.length - 1} stopped`,
    );
    expect(problems).toEqual([]);
  }, 60_000);
});

async function stopFleet(sup: Supervisor): Promise<void> {
  await sup.stop();
}
