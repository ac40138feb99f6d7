import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/config/types.js';
import { liveGroups } from '../../../src/process/ledger.js';
import { OUTCOME_CODE_META_KEY } from '../../../src/protocol/call-outcome.js';
import { fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { tempDir } from '../helpers.js';

const FILESYSTEM = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);
const SLOW = { startupMs: 15_000, callMs: 15_000, shutdownMs: 1000 };
const MiB = 1024 * 1024;

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
  expect(liveGroups()).toEqual([]);
});

/** server-filesystem serving a fresh temp dir, as server `fs`. */
function filesystem(): { server: ServerConfig; dir: string } {
  const t = tempDir();
  dirs.push(t);
  return { server: fixtureServer('fs', [], { args: [FILESYSTEM, t.dir], timeouts: SLOW }), dir: t.dir };
}

describe('tool results against server-filesystem', () => {
  it('callTool returns a file read once: no JSON copy of structuredContent beside its text', async () => {
    const { server, dir } = filesystem();
    writeFileSync(join(dir, 'note.txt'), 'hello, file\n');
    const { sup } = f.create(fleetConfig([server]));
    await sup.start();
    const path = join(dir, 'note.txt');
    expect(await sup.callTool('fs.read_text_file', { path })).toBe('hello, file\n');
    const outcome = await sup.callToolOutcome('fs.read_text_file', { path });
    expect(outcome).toEqual({ ok: true, text: 'hello, file\n' });
  }, 30_000);

  it('callToolResult caps a 20 MiB read whole: TOO_LARGE with the capped text, and the next call works', async () => {
    const { server, dir } = filesystem();
    writeFileSync(join(dir, 'big.txt'), 'y'.repeat(20 * MiB));
    const { sup } = f.create(fleetConfig([server]));
    await sup.start();
    const result = await sup.callToolResult('fs.read_text_file', { path: join(dir, 'big.txt') });
    // read_text_file declares an outputSchema: a result without its structuredContent would be invalid.
    expect(result.isError).toBe(true);
    expect(result._meta?.[OUTCOME_CODE_META_KEY]).toBe('TOO_LARGE');
    expect(result.structuredContent).toBeUndefined();
    const bytes = JSON.stringify({ content: 'y'.repeat(20 * MiB) }).length;
    expect(result.content[0]).toEqual({
      type: 'text',
      text: `ERROR: result too large: structured content of ${bytes} bytes is over the result cap of 65536 bytes`,
    });
    expect(result.content[1]!.text).toMatch(/^y+… \[truncated \d+ bytes\]$/);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(70 * 1024);
    const dirsResult = await sup.callToolResult('fs.list_allowed_directories', {});
    expect(dirsResult.isError).toBeFalsy();
    expect(JSON.stringify(dirsResult.content)).toContain(dir.split('/').at(-1));
  }, 60_000);

  it('a caller cap below the server cap is the one applied', async () => {
    const { server, dir } = filesystem();
    writeFileSync(join(dir, 'mid.txt'), 'z'.repeat(2000));
    const { sup } = f.create(fleetConfig([server]));
    await sup.start();
    const path = join(dir, 'mid.txt');
    const whole = await sup.callToolResult('fs.read_text_file', { path });
    expect(whole.structuredContent).toEqual({ content: 'z'.repeat(2000) });
    const capped = await sup.callToolResult('fs.read_text_file', { path }, { maxResultBytes: 1000 });
    expect(capped._meta?.[OUTCOME_CODE_META_KEY]).toBe('TOO_LARGE');
    const junk = await sup.callToolOutcome('fs.read_text_file', { path }, { maxResultBytes: -1 });
    expect(junk).toMatchObject({ ok: false, code: 'INVALID_CALL' });
  }, 30_000);
});

describe('tool results against the fixture', () => {
  it('huge structuredContent of a tool with an outputSchema is TOO_LARGE; of the rest, dropped and said', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('fx', ['--rich-tools'])]));
    await sup.start();
    const result = await sup.callToolResult('fx.structured', { bytes: 200_000 });
    expect(result._meta?.[OUTCOME_CODE_META_KEY]).toBe('TOO_LARGE');
    expect(result.isError).toBe(true);
    expect(result.content.map((b) => b.text)).toEqual([
      `ERROR: result too large: structured content of ${200_000 + 11} bytes is over the result cap of 65536 bytes`,
      'structured',
    ]);
    const small = await sup.callToolResult('fx.structured', { bytes: 10 });
    expect(small).toEqual({
      content: [{ type: 'text', text: 'structured' }],
      structuredContent: { text: 'x'.repeat(10) },
    });
    const dropped = await sup.callToolResult('fx.unschemed', { bytes: 200_000 });
    expect(dropped).toEqual({
      content: [
        { type: 'text', text: 'structured' },
        { type: 'text', text: `[structured content of ${200_000 + 11} bytes omitted]` },
      ],
    });
    // A big image counts against the same budget: it is named, not sent.
    const image = await sup.callToolResult('fx.image', { bytes: 100_000 });
    expect(image.content).toEqual([
      { type: 'text', text: '[image: image/png, 97.7 KiB, omitted: over the result cap of 65536 bytes]' },
    ]);
  }, 30_000);
});
