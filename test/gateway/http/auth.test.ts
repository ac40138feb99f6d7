// biome-ignore-all lint/suspicious/noTemplateCurlyInString: secret references are written literally on purpose
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configTokens, loadTokens, readTokenFile } from '../../../src/cli/serve/tokens.js';
import { parseConfig } from '../../../src/config/parse-config.js';
import { authenticate, tokenVerifier } from '../../../src/gateway/http/auth.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-tokens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const A = 'a'.repeat(20);
const B = 'b'.repeat(20);

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('serve.auth tokens', () => {
  it('reads one TOKEN [SCOPE …] per line, skipping blanks and # comments', async () => {
    const path = file('ok.txt', `# the gateway's callers\n\n${A} mcp.read mcp.write\n  ${B}\t\n`);
    expect(await readTokenFile(path)).toEqual([
      { token: A, scopes: ['mcp.read', 'mcp.write'], id: 'ok.txt:3' },
      { token: B, scopes: [], id: 'ok.txt:4' },
    ]);
  });

  it('locates a short or repeated token at its file and line, and names no token in the message', async () => {
    const path = file('bad.txt', `${A}\nshort-token x\n# fine\n   ${A} other\n`);
    const err = await readTokenFile(path).catch((e: unknown) => e as Error);
    expect((err as Error).message).toBe(
      [
        `${path}:2:1: a token must be at least 16 characters`,
        `${path}:4:4: this token is already given at bad.txt:1`,
      ].join('\n'),
    );
    expect((err as Error).message).not.toContain(A);
  });

  it('an unreadable file is one line naming it', async () => {
    await expect(readTokenFile(join(dir, 'missing.txt'))).rejects.toThrow(
      `cannot read serve.auth.tokensFile ${join(dir, 'missing.txt')}: ENOENT`,
    );
  });

  it('the config’s tokens come first, then the file’s; a config with serve.auth but no token is refused', async () => {
    file('more.txt', `${B} mcp.read\n`);
    const config = parseConfig(
      `serve:\n  auth:\n    tokens: [{ token: "${A}", scopes: [x] }]\n    tokensFile: more.txt\nservers: { x: { command: node } }\n`,
      { source: join(dir, 'fleet.yaml'), env: {}, baseDir: dir },
    );
    expect(await loadTokens(config, await configTokens(config))).toEqual([
      { token: A, scopes: ['x'], id: 'serve.auth.tokens[0]' },
      { token: B, scopes: ['mcp.read'], id: 'more.txt:1' },
    ]);
    const none = parseConfig('serve:\n  auth: {}\nservers: { x: { command: node } }\n', {
      source: join(dir, 'f.yaml'),
      env: {},
    });
    await expect(loadTokens(none, [])).rejects.toThrow('serve.auth lists no token');
    const off = parseConfig('servers: { x: { command: node } }\n', { source: join(dir, 'g.yaml'), env: {} });
    expect(await loadTokens(off, [])).toBeUndefined();
  });

  it('a token kept in a file is read when serve starts; the config holds only the reference', async () => {
    file('token.txt', `${A}\n`);
    const config = parseConfig(
      'serve:\n  auth:\n    tokens: [{ token: "${file:token.txt}", scopes: [x] }]\nservers: { x: { command: node } }\n',
      { source: join(dir, 'fleet.yaml'), env: {}, baseDir: dir },
    );
    expect(JSON.stringify(config)).not.toContain(A);
    expect(await configTokens(config)).toEqual([{ token: A, scopes: ['x'], id: 'serve.auth.tokens[0]' }]);
    const missing = parseConfig(
      'serve:\n  auth:\n    tokens: [{ token: "${file:gone.txt}" }]\nservers: { x: { command: node } }\n',
      { source: join(dir, 'fleet.yaml'), env: {}, baseDir: dir },
    );
    await expect(configTokens(missing)).rejects.toMatchObject({
      code: 'secret_unavailable',
      message: expect.stringContaining(`serve.auth.tokens[0]: \${file:${join(dir, 'gone.txt')}}: no file at`),
    });
  });

  it('a valid bearer token gives its caller; none gets the challenge, a wrong one invalid_token', async () => {
    const verifier = tokenVerifier([
      { token: A, scopes: ['r'], id: 'one' },
      { token: B, scopes: [], id: 'two' },
    ]);
    expect(await authenticate(`Bearer ${B}`, verifier)).toEqual({
      ok: true,
      caller: { id: 'two', scopes: [] },
    });
    expect(await authenticate(`bearer ${A}`, verifier)).toMatchObject({ ok: true, caller: { id: 'one' } });
    expect(await authenticate(undefined, verifier)).toEqual({
      ok: false,
      code: 'NO_TOKEN',
      wwwAuthenticate: 'Bearer realm="mcp-supervisor"',
    });
    expect(await authenticate(`Basic ${A}`, verifier)).toMatchObject({ code: 'NO_TOKEN' });
    expect(await authenticate(`Bearer ${A}x`, verifier)).toEqual({
      ok: false,
      code: 'INVALID_TOKEN',
      wwwAuthenticate: 'Bearer realm="mcp-supervisor", error="invalid_token"',
    });
    // A prefix of a token is no token.
    expect(await authenticate(`Bearer ${A.slice(0, 19)}`, verifier)).toMatchObject({ code: 'INVALID_TOKEN' });
  });
});
