import { describe, expect, it } from 'vitest';
import { ParamHeaders } from '../../src/protocol/http-param-headers.js';

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
    where: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    bad: { type: 'string', 'x-mcp-header': 'has space' },
    plain: { type: 'string' },
  },
};

/** A map that carried one listing of `tools` (one page). */
function listed(tools: unknown[], params: ParamHeaders = new ParamHeaders(), id = 1): ParamHeaders {
  params.sent({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
  params.received({ jsonrpc: '2.0', id, result: { tools } });
  return params;
}

const call = (name: string, args: unknown) => ({ method: 'tools/call', params: { name, arguments: args } });

describe('the Mcp-Param headers of a 2026 tools/call', () => {
  it('mirror each declared primitive argument, nested ones too, and nothing a header name cannot hold', () => {
    const params = listed([{ name: 'geo', inputSchema: schema }]);
    expect(
      params.headersFor(
        call('geo', { region: 'eu-west', count: 3, flag: false, where: { zone: 'b' }, bad: 'x', plain: 'y' }),
      ),
    ).toEqual([
      ['Mcp-Param-Region', 'eu-west'],
      ['Mcp-Param-Count', '3'],
      ['Mcp-Param-Flag', 'false'],
      ['Mcp-Param-Zone', 'b'],
    ]);
  });

  it('carry as base64 what a header cannot hold as written, and leave out absent or structured values', () => {
    const params = listed([{ name: 'geo', inputSchema: schema }]);
    const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
    for (const region of ['zürich', ' padded ', '', '=?base64?abc?=', 'line\nbreak'])
      expect(params.headersFor(call('geo', { region }))).toEqual([['Mcp-Param-Region', b64(region)]]);
    expect(params.headersFor(call('geo', { region: { nested: 1 }, count: 2 ** 60, where: 'flat' }))).toEqual(
      [],
    );
  });

  it('follow the latest listing: a tool relisted without declarations, or gone, has none', () => {
    const params = listed([{ name: 'geo', inputSchema: schema }]);
    listed(
      [{ name: 'geo', inputSchema: { type: 'object', properties: { region: { type: 'string' } } } }],
      params,
      2,
    );
    expect(params.headersFor(call('geo', { region: 'eu' }))).toEqual([]);
    listed([{ name: 'geo', inputSchema: schema }], params, 3);
    listed([{ name: 'other', inputSchema: {} }], params, 4);
    expect(params.headersFor(call('geo', { region: 'eu' }))).toEqual([]);
  });

  it('take a later page into the same listing, and only answers to listings this link posted', () => {
    const params = listed([{ name: 'a', inputSchema: schema }]);
    params.sent({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'p2' } });
    params.received({ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'b', inputSchema: schema }] } });
    params.received({ jsonrpc: '2.0', id: 9, result: { tools: [{ name: 'c', inputSchema: schema }] } });
    expect(params.headersFor(call('a', { region: 'x' }))).toEqual([['Mcp-Param-Region', 'x']]);
    expect(params.headersFor(call('b', { region: 'y' }))).toEqual([['Mcp-Param-Region', 'y']]);
    expect(params.headersFor(call('c', { region: 'z' }))).toEqual([]);
  });
});
