import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_MODULES } from '../../src/inspector/page.js';
import { ensureBuilt, ROOT } from '../cli/helpers.js';

beforeAll(() => ensureBuilt(), 120_000);

describe('the published package', () => {
  it("carries the page's browser modules beside the built inspector", () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
    const files = new Set(pack?.files.map((f) => f.path));
    expect(files.has('dist/inspector/ui-server.js')).toBe(true);
    for (const name of BROWSER_MODULES) expect(files, name).toContain(`dist/inspector/browser/${name}`);
  }, 90_000);
});
