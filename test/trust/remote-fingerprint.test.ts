// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are written literally on purpose
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { buildApprovalRequest } from '../../src/trust/approval-request.js';
import { describeChanges } from '../../src/trust/changes.js';
import { computeFingerprint } from '../../src/trust/fingerprint.js';
import { MASK } from '../../src/trust/mask.js';
import { parseStore } from '../../src/trust/store-file.js';

const SECRET = 'tok-7f3a9c2e51d04b88';

function remoteServer(yaml: string, env: Record<string, string> = { API_TOKEN: SECRET }) {
  return parseConfig(`servers:\n  web:\n${yaml}`, { env }).servers[0]!;
}

describe('the fingerprint of a url server', () => {
  it('covers the URL and each header, keeps no header value, and resolves no executable', async () => {
    const server = remoteServer(
      '    url: https://mcp.example.com/mcp\n    headers: { Authorization: "Bearer ${API_TOKEN}", X-Team: core }\n',
    );
    const { fingerprint, facts } = await computeFingerprint(server);
    expect(facts).toMatchObject({ command: '', executable: null, executableSha256: null, scripts: [] });
    expect(facts.remote?.url).toBe('https://mcp.example.com/mcp');
    expect(Object.keys(facts.remote?.headers ?? {})).toEqual(['authorization', 'x-team']);
    // The store keeps the headers as written: the reference, never the value behind it.
    expect(facts.remote?.headersAsWritten).toEqual({
      Authorization: 'Bearer ${API_TOKEN}',
      'X-Team': 'core',
    });
    expect(JSON.stringify(facts)).not.toContain(SECRET);

    const otherToken = remoteServer(
      '    url: https://mcp.example.com/mcp\n    headers: { Authorization: "Bearer ${API_TOKEN}", X-Team: core }\n',
      { API_TOKEN: 'another-token-value' },
    );
    const changed = await computeFingerprint(otherToken);
    expect(changed.fingerprint).not.toBe(fingerprint);
    expect(describeChanges(facts, changed.facts)).toEqual(['header authorization changed']);

    const moved = await computeFingerprint({
      ...server,
      remote: { ...server.remote!, url: 'https://other/mcp' },
    });
    expect(moved.fingerprint).not.toBe(fingerprint);
    expect(describeChanges(facts, moved.facts)).toEqual([
      'url: https://mcp.example.com/mcp → https://other/mcp',
    ]);
  });

  it('is shown with its URL and masked header values, and survives the store', async () => {
    const server = remoteServer(
      `    url: https://user:pw@mcp.example.com/mcp\n    headers: { Authorization: "Bearer ${SECRET}" }\n`,
    );
    const { fingerprint, facts } = await computeFingerprint(server);
    const request = buildApprovalRequest('server', 'web', facts, fingerprint);
    expect(request.url).toBe(`https://user:${MASK}@mcp.example.com/mcp`);
    expect(request.headers).toEqual({ authorization: MASK });
    expect(JSON.stringify(request)).not.toContain(SECRET);

    const text = JSON.stringify({
      version: 1,
      servers: { web: { id: 'web', fingerprint, facts, approvedAt: '2026-01-01T00:00:00.000Z' } },
    });
    expect(parseStore(text, 'trust.json').servers['web']?.facts).toEqual(facts);
  });
});
