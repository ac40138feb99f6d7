import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt } from '../../cli/helpers.js';
import { serveConformance } from '../../conformance/serve-fixtures.js';
import { MCP_POST, raw } from './helpers.js';

// `serve --http` over the 2026-only conformance fixture, whose `test_missing_capability` asks for sampling.
const cli = cliProcesses();
let url: URL;

beforeAll(async () => {
  await ensureBuilt();
  url = new URL((await serveConformance(cli, cli.tempDir(), ['modern'])).url);
}, 120_000);

afterAll(async () => {
  await cli.reap();
});

const MODERN = '2026-07-28';

function call(id: number, name: string) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return raw(url, {
    method: 'POST',
    headers: { ...MCP_POST, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: {}, _meta: meta },
    }),
  });
}

describe('serve --http: the HTTP status of a 2026 answer', () => {
  it("a server's -32021 (a capability the request did not declare) is HTTP 400 with the error as a JSON body", async () => {
    const r = await call(41, 'test_missing_capability');
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('application/json');
    // The server's error whole: its code, and the capabilities it names as a ClientCapabilities object.
    expect(JSON.parse(r.body)).toMatchObject({
      jsonrpc: '2.0',
      id: 41,
      error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
    });
  });

  it('a result that comes alone is answered 200 with it as a JSON body', async () => {
    const r = await call(42, 'test_logging_tool');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toMatchObject({
      id: 42,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  });
});
