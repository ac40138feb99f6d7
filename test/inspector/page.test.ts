import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startUiServer, type UiServer } from '../../src/inspector/ui-server.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { hasChromium, warnIfNoChromium } from '../cli/browser.js';
import { FakeSource, sampleFleet } from './fake-source.js';
import { usePageHarness } from './page-harness.js';

warnIfNoChromium('The inspector page was NOT checked in a real browser.');

/** The fleet as the page first sees it: search is up again after an earlier crash; history already has rows. */
function openingFleet(now: number): ServerStatus[] {
  const [files, search, git] = sampleFleet(now);
  return [
    files!,
    { ...search!, state: 'ready', pid: 48377, restarts: 1, since: now - 95_000, tools: 4 },
    git!,
  ];
}

function replayHistory(source: FakeSource, now: number): void {
  const at = (ago: number): number => now - ago;
  source.emit({ type: 'state', server: 'files', from: null, to: 'spawning', at: at(755_000) });
  source.emit({ type: 'state', server: 'files', from: 'spawning', to: 'handshaking', at: at(754_600) });
  source.emit({ type: 'state', server: 'files', from: 'handshaking', to: 'ready', at: at(754_000) });
  source.emit({
    type: 'tools',
    server: 'files',
    added: ['list', 'read'],
    removed: [],
    changed: [],
    at: at(753_900),
  });
  source.emit({ type: 'refused', server: 'search', method: 'sampling/createMessage', at: at(96_000) });
  source.emit({ type: 'state', server: 'git', from: 'wedged', to: 'backoff', at: at(48_000) });
  source.emit({
    type: 'exit',
    server: 'git',
    code: null,
    signal: 'SIGKILL',
    reason: 'wedged',
    stderrTail: '',
    at: at(42_100),
  });
  source.emit({ type: 'state', server: 'git', from: 'backoff', to: 'failed', at: at(42_000) });
}

/** A loopback TCP relay in front of the inspector: a test cuts it to lose the page's stream, and restores it. */
async function relay(
  target: number,
): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const listen = (port: number): Promise<Server> =>
    new Promise((resolve, reject) => {
      const server = createServer((inbound) => {
        const outbound = connect(target, '127.0.0.1');
        const drop = (): void => {
          inbound.destroy();
          outbound.destroy();
          sockets.delete(inbound);
          sockets.delete(outbound);
        };
        for (const s of [inbound, outbound]) {
          sockets.add(s);
          s.on('error', drop);
          s.on('close', drop);
        }
        inbound.pipe(outbound);
        outbound.pipe(inbound);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  let server: Server | undefined = await listen(0);
  const port = (server.address() as AddressInfo).port;
  const cut = async (): Promise<void> => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  return {
    port,
    cut,
    restore: async () => {
      server ??= await listen(port);
    },
  };
}

describe.skipIf(!hasChromium)('inspector page in headless Chromium', () => {
  const requests: string[] = [];
  const problems: string[] = [];
  const cleanups: Array<() => Promise<void> | void> = [];
  const h = usePageHarness(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    requests.length = 0;
    problems.length = 0;
  });

  async function open(
    source: FakeSource,
    beforeVisit?: () => void,
    url?: (ui: UiServer) => string,
  ): Promise<Page> {
    h.ui = await startUiServer(source);
    beforeVisit?.();
    h.page = await h.browser.newPage({ viewport: { width: 1480, height: 1000 } });
    h.page.on('request', (r) => requests.push(r.url()));
    h.page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    h.page.on('pageerror', (e) => problems.push(e.message));
    await h.page.goto(url ? url(h.ui) : h.ui.url);
    return h.page;
  }

  const attr = (p: Page, testId: string, name: string): Promise<string | null> =>
    p.getByTestId(testId).getAttribute(name);
  const text = async (p: Page, testId: string): Promise<string> =>
    (await p.getByTestId(testId).textContent()) ?? '';

  it('shows the fleet as compact cards, lights the selected server on the one chart, and follows a crash', async () => {
    const now = Date.now();
    const source = new FakeSource(openingFleet(now));
    source.fleetPhase = 'running';
    // Emitted after the server starts and before the page connects: the page must get them replayed.
    const p = await open(source, () => replayHistory(source, now));

    await p.getByTestId('server-card-git').waitFor();
    expect(await text(p, 'server-state-files')).toBe('ready');
    expect(await text(p, 'server-state-search')).toBe('ready');
    expect(await text(p, 'server-state-git')).toBe('failed');
    expect(await text(p, 'server-exit-git')).toContain('killed by SIGKILL');
    expect(await p.locator('svg').count()).toBe(1);
    // The first server is selected until another is clicked.
    await expect.poll(() => text(p, 'detail-id')).toBe('files');
    expect(await attr(p, 'server-card-files', 'aria-selected')).toBe('true');
    expect(await attr(p, 'chart-node-ready', 'data-active')).toBe('true');
    expect(await attr(p, 'chart-node-alive', 'data-contains-active')).toBe('true');
    await p.getByTestId('server-card-git').click();
    await expect.poll(() => attr(p, 'chart-node-failed', 'data-active')).toBe('true');
    expect(await p.locator('g.n[data-active="true"]').count()).toBe(1);
    expect(await attr(p, 'chart-node-alive', 'data-contains-active')).toBeNull();
    expect(await text(p, 'chart-for')).toContain('git: failed');
    await expect.poll(() => p.getByTestId('timeline-row').count()).toBe(8);
    // History is replayed oldest first, so the newest row is on top.
    expect(await p.getByTestId('timeline-row').first().textContent()).toMatch(/git\s*backoff → failed/);
    // With nothing kept in a log ring, the pane shows the last exit's tail.
    expect(await text(p, 'detail-logs')).toContain('repository lock held');
    expect(await text(p, 'fleet-phase')).toBe('fleet running');

    await p.getByTestId('server-card-search').click();
    await expect.poll(() => text(p, 'detail-id')).toBe('search');
    const rowsBefore = await p.getByTestId('timeline-row').count();
    source.call({ server: 'search', tool: 'search.query', ms: 41.6, code: 'OK', bytes: 2300 });
    await expect.poll(() => text(p, 'detail-calls')).toMatch(/search\.query\s*42\s*OK\s*2\.2 KiB/);
    source.call({ server: 'files', tool: 'files.read', ms: 3, code: 'OK', bytes: 10 });
    source.stderr('search', 'reloading index');
    await expect.poll(() => text(p, 'detail-logs')).toContain('reloading index');
    expect(await text(p, 'detail-calls')).not.toContain('files.read');
    // A long tool name scrolls inside its pane, never over the next one.
    source.call({
      server: 'search',
      tool: `search.${'a_rather_long_tool_name_'.repeat(4)}`,
      ms: 2,
      code: 'OK',
      bytes: 1,
    });
    await expect.poll(() => text(p, 'detail-calls')).toContain('a_rather_long_tool_name_a_rather');
    const pane = await p.getByTestId('detail-calls').locator('xpath=../..').boundingBox();
    const scroller = await p.getByTestId('detail-calls').locator('xpath=..').boundingBox();
    const restarts = await p.getByTestId('detail-restarts').locator('xpath=../..').boundingBox();
    expect(scroller!.x + scroller!.width).toBeLessThanOrEqual(pane!.x + pane!.width + 0.5);
    expect(pane!.x + pane!.width).toBeLessThanOrEqual(restarts!.x);
    // The chart says what its boxes mean.
    expect(await text(p, 'chart-legend')).toMatch(
      /the state it is in\s+the states just before it\s+a group of states/,
    );
    source.exit('search', {
      code: 1,
      signal: null,
      reason: 'crashed',
      stderrTail: sampleFleet(now)[1]!.lastExit!.stderrTail,
    });
    source.servers[1]!.restarts = 2;
    source.transition('search', 'backoff');

    await expect.poll(() => text(p, 'server-state-search')).toBe('backoff');
    await expect.poll(() => attr(p, 'chart-node-backoff', 'data-active')).toBe('true');
    expect(await attr(p, 'chart-node-ready', 'data-active')).toBe('false');
    // The state it came from is marked as the recent path.
    expect(await attr(p, 'chart-node-ready', 'data-trail')).toBe('1');
    await expect.poll(() => p.getByTestId('timeline-row').count()).toBe(rowsBefore + 2);
    const rows = p.getByTestId('timeline-row');
    expect(await rows.nth(0).textContent()).toMatch(/search\s*ready → backoff/);
    expect(await rows.nth(1).textContent()).toMatch(/search\s*exit code 1 — crashed/);
    await expect
      .poll(() => p.getByTestId('restart-row').allTextContents())
      .toEqual([expect.stringMatching(/→ backoff/), expect.stringMatching(/exit code 1 — crashed/)]);
    await expect.poll(() => text(p, 'server-restarts-search')).toBe('2');
    expect(await text(p, 'server-exit-search')).toContain('last exit: exit code 1');
    expect(await attr(p, 'connection', 'data-state')).toBe('live');

    const origin = new URL(h.ui!.url).origin;
    expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'))).toEqual([]);
    // Every request of the page carries the run's token: the page keeps it for its own fetches and stream.
    const own = requests.filter((u) => u.startsWith(origin));
    expect(own.length).toBeGreaterThanOrEqual(3);
    for (const u of own) expect(new URL(u).searchParams.get('token'), u).toBe(h.ui!.token);
    expect(problems).toEqual([]);
  });

  it('says so in the header when the stream is lost, comes back, and says stopped when the fleet stopped', async () => {
    const source = new FakeSource(sampleFleet());
    source.fleetPhase = 'running';
    h.ui = await startUiServer(source);
    const front = await relay(h.ui.port);
    cleanups.push(() => front.cut());
    h.page = await h.browser.newPage();
    const url = new URL(h.ui.url);
    url.port = String(front.port);
    await h.page.goto(url.href);
    const p = h.page;
    await expect.poll(() => attr(p, 'fleet-phase', 'data-phase')).toBe('running');
    expect(await attr(p, 'connection', 'data-state')).toBe('live');

    await front.cut();
    await expect.poll(() => attr(p, 'fleet-phase', 'data-phase')).toBe('lost');
    expect(await text(p, 'fleet-phase')).toBe('connection lost');
    expect(await attr(p, 'connection', 'data-state')).toBe('down');
    expect(await p.locator('body').getAttribute('data-stale')).toBe('true');

    source.servers[2]!.state = 'stopped';
    await front.restore();
    await expect.poll(() => text(p, 'server-state-git'), { timeout: 10_000 }).toBe('stopped');
    expect(await attr(p, 'fleet-phase', 'data-phase')).toBe('running');
    expect(await attr(p, 'connection', 'data-state')).toBe('live');

    // The host stops its fleet, then the inspector: the page's last word is the fleet's, not a lost line.
    source.fleetPhase = 'stopped';
    for (const s of source.servers) s.state = 'stopped';
    await h.ui.close();
    h.ui = undefined;
    await expect.poll(() => attr(p, 'fleet-phase', 'data-phase')).toBe('stopped');
    expect(await text(p, 'fleet-phase')).toBe('fleet stopped');
    expect(await text(p, 'summary')).toBe('3 servers \u00b7 3 stopped');
    expect(await text(p, 'server-state-files')).toBe('stopped');
    expect(await attr(p, 'connection', 'data-state')).toBe('closed');
  });

  it('fits twenty servers and the chart on one 1480×1000 screen', async () => {
    const now = Date.now();
    const three = sampleFleet(now);
    const fleet = Array.from({ length: 20 }, (_, i) => ({
      ...three[i % 3]!,
      id: `server-${i + 1}`,
      pid: 4000 + i,
    }));
    const source = new FakeSource(fleet);
    source.fleetPhase = 'running';
    const p = await open(source);
    await p.getByTestId('server-card-server-20').waitFor();
    for (let i = 1; i <= 20; i++) {
      const box = await p.getByTestId(`server-card-server-${i}`).boundingBox();
      expect(box!.y + box!.height, `server-${i}`).toBeLessThanOrEqual(1000);
    }
    const chart = await p.locator('svg.statechart').boundingBox();
    expect(chart!.y + chart!.height).toBeLessThanOrEqual(1000);
    expect(await p.locator('svg').count()).toBe(1);

    // Its host closes the inspector while the fleet runs on: the page can no longer say the fleet is running.
    await expect.poll(() => attr(p, 'fleet-phase', 'data-phase')).toBe('running');
    await h.ui!.close();
    h.ui = undefined;
    await expect.poll(() => attr(p, 'fleet-phase', 'data-phase')).toBe('closed');
    expect(await text(p, 'fleet-phase')).toBe('inspector closed');
  });

  it('shows nothing of the fleet to a page opened without the token', async () => {
    const source = new FakeSource(sampleFleet());
    h.ui = await startUiServer(source);
    h.page = await h.browser.newPage();
    const response = await h.page.goto(new URL(h.ui.url).origin);
    expect(response?.status()).toBe(403);
    expect(await h.page.content()).not.toContain('search');
    expect(await h.page.getByTestId('fleet').count()).toBe(0);
  });

  it('renders hostile ids and stderr as text, never as markup', async () => {
    const source = new FakeSource([
      {
        id: 'x<img src=x onerror=alert(1)>',
        state: 'backoff',
        restarts: 1,
        since: Date.now(),
        tools: 0,
        lastExit: {
          code: 2,
          signal: null,
          reason: '<b>bad</b>',
          stderrTail: '<script>alert(2)</script>',
          at: 1,
        },
      },
    ]);
    const id = source.servers[0]!.id;
    source.tools = [
      {
        name: `${id}.t`,
        server: id,
        tool: 't',
        description: '<i>desc</i>',
        inputSchema: {},
        scopesRequired: [],
      },
    ];
    const p = await open(source);
    await p.getByTestId(`server-card-${id}`).waitFor();
    await expect.poll(() => text(p, 'detail-logs')).toBe('<script>alert(2)</script>');
    source.call({ server: id, tool: '<u>tool</u>', ms: 1, code: 'OK', bytes: 1 });
    source.stderr(id, '<em>line</em>');
    await expect.poll(() => text(p, 'detail-logs')).toBe('<em>line</em>');
    await expect.poll(() => text(p, 'detail-calls')).toContain('<u>tool</u>');
    expect(await text(p, 'detail-tools')).toContain('<i>desc</i>');
    expect(await text(p, `server-exit-${id}`)).toContain('<b>bad</b>');
    expect(await p.locator('img, b, i, u, em, main script').count()).toBe(0);
  });
});
