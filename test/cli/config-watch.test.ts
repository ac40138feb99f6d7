import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchConfigFiles } from '../../src/cli/config-watch.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { SupervisorConfig } from '../../src/config/types.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A config file in a temp dir and a second directory holding the manifest it names, watched with a short quiet time. */
function watched(debounceMs = 100) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-watch-'));
  const other = mkdtempSync(join(tmpdir(), 'mcp-sup-watch-m-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => rmSync(other, { recursive: true, force: true }));
  const path = join(dir, 'fleet.yaml');
  const manifest = join(other, 'plugin.yaml');
  writeFileSync(path, 'servers:\n  a: { command: node }\n');
  writeFileSync(manifest, 'name: p\n');
  const config: SupervisorConfig = parseConfig('servers:\n  a: { command: node }\n', {
    source: path,
    env: {},
  });
  config.servers[0]!.manifest = manifest;
  const reloads: number[] = [];
  let release: () => void = () => {};
  let slow = false;
  const stop = watchConfigFiles(
    path,
    () => config,
    async () => {
      reloads.push(Date.now());
      if (slow) await new Promise<void>((r) => (release = r));
    },
    { debounceMs },
  );
  cleanups.push(stop);
  const count = async (n: number, ms = 3000) => {
    const end = Date.now() + ms;
    while (reloads.length < n) {
      if (Date.now() > end) throw new Error(`${reloads.length} reloads, not ${n}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return {
    dir,
    path,
    manifest,
    reloads,
    count,
    stop,
    slowly: () => {
      slow = true;
    },
    release: () => release(),
  };
}

describe('run --watch: the config file and its manifests', () => {
  it('a burst of writes is one reload, after the quiet time', async () => {
    const w = watched();
    const first = Date.now();
    for (let i = 0; i < 5; i++) {
      writeFileSync(w.path, `servers:\n  a: { command: node, args: ["${i}"] }\n`);
      await new Promise((r) => setTimeout(r, 10));
    }
    await w.count(1);
    expect(w.reloads[0]! - first).toBeGreaterThanOrEqual(100);
    // The next reload is the one of a later write: the burst above was one.
    const later = Date.now();
    writeFileSync(w.path, 'servers: {}\n');
    await w.count(2);
    expect(w.reloads[1]!).toBeGreaterThanOrEqual(later + 100);
  });

  it('an editor that saves by renaming a new file over the old one, and a manifest elsewhere, are seen', async () => {
    const w = watched();
    const tmp = join(w.dir, '.fleet.yaml.swp');
    writeFileSync(tmp, 'servers: {}\n');
    renameSync(tmp, w.path);
    await w.count(1);
    writeFileSync(w.manifest, 'name: q\n');
    await w.count(2);
  });

  it('a change during a reload is read once that reload is done; nothing after stop()', async () => {
    const w = watched(50);
    w.slowly();
    writeFileSync(w.path, 'servers: {}\n');
    await w.count(1);
    writeFileSync(w.path, 'servers:\n  b: { command: node }\n');
    // The second change waits for the first reload: its reload starts only once that one is released.
    await new Promise((r) => setTimeout(r, 100));
    const released = Date.now();
    w.release();
    await w.count(2);
    expect(w.reloads[1]!).toBeGreaterThanOrEqual(released);
    w.release();
    w.stop();
    w.stop();
    // A watcher of the same file with the same quiet time hears the next write: by then a live one would have too.
    const witness: number[] = [];
    cleanups.push(
      watchConfigFiles(
        w.path,
        () => parseConfig('servers:\n  a: { command: node }\n', { env: {} }),
        async () => {
          witness.push(Date.now());
        },
        { debounceMs: 50 },
      ),
    );
    writeFileSync(w.path, 'servers: {}\n');
    while (witness.length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(w.reloads).toHaveLength(2);
  });
});
