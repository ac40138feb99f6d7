import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startUiServer, type UiServer } from '../../src/inspector/ui-server.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { CHROMIUM, hasChromium, launchChromium } from '../cli/browser.js';
import { FakeSource, sampleFleet } from './fake-source.js';

// README's picture is refreshed on request only (MCP_SUPERVISOR_SCREENSHOT=1), so a test run leaves the tree clean.
const SCREENSHOT = process.env.MCP_SUPERVISOR_SCREENSHOT
  ? fileURLToPath(new URL('../../docs/ui.png', import.meta.url))
  : join(tmpdir(), `mcp-supervisor-ui-${process.pid}.png`);

if (!hasChromium) {
  console.warn(
    [
      '',
      '#'.repeat(78),
      `#  BROWSER TEST DID NOT RUN: ${CHROMIUM} does not exist.`,
      '#  The inspector page was NOT checked in a real browser and docs/ui.png was NOT refreshed.',
      '#  Install Chromium (apt-get install chromium) and run this test again.',
      '#'.repeat(78),
      '',
    ].join('\n'),
  );
}

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

describe.skipIf(!hasChromium)('inspector page in headless Chromium', () => {
  let browser: Browser;
  let ui: UiServer | undefined;
  let page: Page | undefined;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterEach(async () => {
    await page?.close();
    page = undefined;
    await ui?.close();
    ui = undefined;
    requests.length = 0;
    problems.length = 0;
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function open(source: FakeSource, beforeVisit?: () => void): Promise<Page> {
    ui = await startUiServer(source);
    beforeVisit?.();
    page = await browser.newPage({ viewport: { width: 1480, height: 1000 } });
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(ui.url);
    return page;
  }

  const attr = (p: Page, testId: string, name: string): Promise<string | null> =>
    p.getByTestId(testId).getAttribute(name);
  const text = async (p: Page, testId: string): Promise<string> =>
    (await p.getByTestId(testId).textContent()) ?? '';

  it('shows the fleet, follows a crash live, and saves a screenshot', async () => {
    const now = Date.now();
    const source = new FakeSource(openingFleet(now));
    // Emitted after the server starts and before the page connects: the page must get them replayed.
    const p = await open(source, () => replayHistory(source, now));

    await p.getByTestId('server-card-git').waitFor();
    expect(await text(p, 'server-state-files')).toBe('ready');
    expect(await text(p, 'server-state-search')).toBe('ready');
    expect(await text(p, 'server-state-git')).toBe('failed');
    expect(await attr(p, 'chart-node-files-ready', 'data-active')).toBe('true');
    expect(await attr(p, 'chart-node-git-failed', 'data-active')).toBe('true');
    expect(await p.locator('[data-testid^="chart-node-git-"][data-active="true"]').count()).toBe(1);
    expect(await text(p, 'server-exit-git')).toContain('killed by SIGKILL');
    await expect.poll(() => p.getByTestId('timeline-row').count()).toBe(8);
    // History is replayed oldest first, so the newest row is on top.
    expect(await p.getByTestId('timeline-row').first().textContent()).toMatch(/git\s*backoff → failed/);

    const rowsBefore = await p.getByTestId('timeline-row').count();
    source.exit('search', {
      code: 1,
      signal: null,
      reason: 'crashed',
      stderrTail: sampleFleet(now)[1]!.lastExit!.stderrTail,
    });
    source.servers[1]!.restarts = 2;
    source.transition('search', 'backoff');

    await expect.poll(() => text(p, 'server-state-search')).toBe('backoff');
    await expect.poll(() => attr(p, 'chart-node-search-backoff', 'data-active')).toBe('true');
    expect(await attr(p, 'chart-node-search-ready', 'data-active')).toBe('false');
    expect(await attr(p, 'chart-node-files-ready', 'data-active')).toBe('true');
    await expect.poll(() => p.getByTestId('timeline-row').count()).toBe(rowsBefore + 2);
    const rows = p.getByTestId('timeline-row');
    expect(await rows.nth(0).textContent()).toMatch(/search\s*ready → backoff/);
    expect(await rows.nth(1).textContent()).toMatch(/search\s*exit code 1 — crashed/);
    await expect.poll(() => text(p, 'server-stderr-search')).toContain('ENOENT');
    await expect.poll(() => text(p, 'server-restarts-search')).toBe('2');
    expect(await text(p, 'server-exit-search')).toContain('last exit: exit code 1');
    expect(await attr(p, 'connection', 'data-state')).toBe('live');

    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await p.screenshot({ path: SCREENSHOT, fullPage: true });

    const origin = new URL(ui!.url).origin;
    expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'))).toEqual([]);
    // Every request of the page carries the run's token: the page keeps it for its own fetches and stream.
    const own = requests.filter((u) => u.startsWith(origin));
    expect(own.length).toBeGreaterThanOrEqual(3);
    for (const u of own) expect(new URL(u).searchParams.get('token'), u).toBe(ui!.token);
    expect(problems).toEqual([]);
  });

  it('reconnects after the server goes away and comes back', async () => {
    const source = new FakeSource(sampleFleet());
    const p = await open(source);
    await expect.poll(() => attr(p, 'connection', 'data-state')).toBe('live');
    const { port, token } = ui!;
    await ui!.close();
    ui = undefined;
    await expect.poll(() => attr(p, 'connection', 'data-state')).not.toBe('live');

    source.servers[2]!.state = 'stopped';
    // Same port and token, as a restarted run would give its open page only if it kept both.
    ui = await startUiServer(source, { port, token });
    await expect.poll(() => text(p, 'server-state-git'), { timeout: 10_000 }).toBe('stopped');
    expect(await attr(p, 'chart-node-git-stopped', 'data-active')).toBe('true');
    expect(await attr(p, 'connection', 'data-state')).toBe('live');
  });

  it('shows nothing of the fleet to a page opened without the token', async () => {
    const source = new FakeSource(sampleFleet());
    ui = await startUiServer(source);
    page = await browser.newPage();
    const response = await page.goto(new URL(ui.url).origin);
    expect(response?.status()).toBe(403);
    expect(await page.content()).not.toContain('search');
    expect(await page.getByTestId('fleet').count()).toBe(0);
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
    const p = await open(source);
    const id = source.servers[0]!.id;
    await p.getByTestId(`server-card-${id}`).waitFor();
    expect(await p.locator('img, b, main script').count()).toBe(0);
    expect(await text(p, `server-stderr-${id}`)).toBe('<script>alert(2)</script>');
  });
});
