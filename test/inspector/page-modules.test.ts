import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BROWSER_DIR, BROWSER_MODULES, inspectorPage, loadBrowserModules } from '../../src/inspector/page.js';
import { startUiServer, type UiServer } from '../../src/inspector/ui-server.js';
import { FakeSource, sampleFleet } from './fake-source.js';

const servers: UiServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(): Promise<UiServer> {
  const ui = await startUiServer(new FakeSource(sampleFleet()));
  servers.push(ui);
  return ui;
}

const onDisk = (name: string): Buffer => readFileSync(new URL(name, BROWSER_DIR));

/** A GET with the path sent as written (fetch would normalise `..` away). */
function rawGet(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the page is served from its browser modules on disk', () => {
  it('serves every module as the bytes of its file, as JavaScript, behind the token', async () => {
    const ui = await start();
    const origin = `http://127.0.0.1:${ui.port}`;
    for (const name of BROWSER_MODULES) {
      const res = await fetch(`${origin}/browser/${name}?token=${ui.token}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(Buffer.from(await res.arrayBuffer()).equals(onDisk(name)), name).toBe(true);
      expect((await fetch(`${origin}/browser/${name}`)).status, name).toBe(403);
      expect((await fetch(`${origin}/browser/${name}?token=x${ui.token}`)).status, name).toBe(403);
    }
  });

  it('serves nothing else from the folder or beside it', async () => {
    const ui = await start();
    const q = `?token=${ui.token}`;
    for (const path of [
      '/browser/',
      '/browser/nope.js',
      '/browser/../page.ts',
      '/browser/%2e%2e/page.ts',
      '/page.js',
      '/browser/page.js/',
    ]) {
      expect(await rawGet(ui.port, path + q), path).toBe(404);
    }
  });

  it('lists every file of the folder, each one typechecked (@ts-check)', () => {
    const files = readdirSync(BROWSER_DIR).sort();
    expect(files).toEqual([...BROWSER_MODULES].sort());
    for (const name of files) expect(onDisk(name).toString('utf8'), name).toMatch(/^\/\/ @ts-check\n/);
  });

  it('imports only its own listed modules, which the import map gives the token', () => {
    for (const name of BROWSER_MODULES) {
      const code = onDisk(name).toString('utf8');
      const specifiers = [...code.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'/gm)].map(
        (m) => m[1],
      );
      expect(code, name).not.toMatch(/\bimport\s*\(/);
      for (const s of specifiers)
        expect(
          BROWSER_MODULES.map((n) => `./${n}`),
          `${name} imports ${s}`,
        ).toContain(s);
    }
    // The regex above does see imports: page.js pulls in the others.
    const page = onDisk('page.js').toString('utf8');
    expect(page).toMatch(/^import \{[^}]+\} from '\.\/card\.js';$/m);
  });

  it('maps each module to its tokened path and allows only this origin and the map as scripts', () => {
    const token = 'a b&c"<';
    const { html, csp } = inspectorPage(token);
    const enc = encodeURIComponent(token);
    const map = /<script type="importmap">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    const imports = (JSON.parse(map) as { imports: Record<string, string> }).imports;
    expect(Object.keys(imports).sort()).toEqual(BROWSER_MODULES.map((n) => `/browser/${n}`).sort());
    for (const [from, to] of Object.entries(imports)) expect(to).toBe(`${from}?token=${enc}`);
    expect(html).toContain(`<script type="module" src="/browser/page.js?token=${enc}"></script>`);
    expect(html).not.toContain(token);
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src ')) ?? '';
    expect(scriptSrc).toMatch(/^script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'$/);
  });

  it('names the missing file when a module cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-browser-'));
    dirs.push(dir);
    for (const name of BROWSER_MODULES) if (name !== 'chart.js') writeFileSync(join(dir, name), onDisk(name));
    const got = await loadBrowserModules(pathToFileURL(`${dir}/`));
    expect(got).toEqual({ missing: join(dir, 'chart.js') });
    const all = await loadBrowserModules();
    expect(all instanceof Map && [...all.keys()]).toEqual(BROWSER_MODULES.map((n) => `/browser/${n}`));
  });
});
