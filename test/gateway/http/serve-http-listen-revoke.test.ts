import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, writeFixtureConfig } from '../../cli/helpers.js';
import { until } from '../serve-helpers.js';
import { type HttpServe, listen2026, type SseStream, startHttpServe } from './helpers.js';

// A token taken out of serve.auth.tokensFile loses its 2026 listen streams as it loses its sessions.
const cli = cliProcesses();
const B = 'token-b-0123456789abcdef';
const C = 'token-c-0123456789abcdef';
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
let serve: HttpServe;
let tokensFile: string;
const streams: SseStream[] = [];

beforeAll(async () => {
  await ensureBuilt();
  const dir = cli.tempDir();
  tokensFile = join(dir, 'tokens.txt');
  writeFileSync(tokensFile, `${B}\n${C}\n`);
  const config = writeFixtureConfig(dir, [{ id: 'fx' }], 'serve:\n  auth:\n    tokensFile: tokens.txt\n');
  serve = await startHttpServe(cli, config);
}, 60_000);

afterAll(() => {
  for (const s of streams) s.close();
  cli.reap();
});

/** A listen stream of `token`, once acknowledged. */
async function listening(id: number, token: string): Promise<SseStream> {
  const stream = await listen2026(serve.url, id, bearer(token));
  streams.push(stream);
  expect(stream.status).toBe(200);
  await until(() => (stream.events.length > 0 ? true : undefined), 10_000, 'the acknowledgement');
  return stream;
}

describe('serve --http: a token taken out of the tokens file', () => {
  it('ends that token’s listen streams; another token’s stream stays', async () => {
    const b = await listening(1, B);
    const c = await listening(2, C);
    let cEnded = false;
    void c.ended.then(() => {
      cEnded = true;
    });
    writeFileSync(tokensFile, `${C}\n`);
    await serve.proc.waitFor(/msg="tokens reloaded" trigger=watch .*tokens=1 added=0 removed=1/, 10_000);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      b.ended,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('the revoked token’s listen stream is still open')),
          10_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    expect(cEnded).toBe(false);
    expect((await listening(3, C)).status).toBe(200);
  }, 30_000);
});
