import { describe, expect, it } from 'vitest';
import { decodeParam, paramHeaderProblem } from '../../../src/gateway/http/param-headers.js';

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    note: { type: 'string' },
  },
};

describe('Mcp-Param-* headers against the body', () => {
  it('accepts headers that say what the body says, literally or in base64, whitespace aside', () => {
    const args = { region: 'Hello', count: 3, note: 'not mirrored' };
    expect(
      paramHeaderProblem({ 'mcp-param-region': 'Hello', 'mcp-param-count': '3' }, schema, args),
    ).toBeUndefined();
    const b64 = `=?base64?${Buffer.from('Hello').toString('base64')}?=`;
    expect(
      paramHeaderProblem({ 'mcp-param-region': ` ${b64} `, 'mcp-param-count': '3' }, schema, args),
    ).toBeUndefined();
    // Absent from the body: no header needed.
    expect(paramHeaderProblem({}, schema, { note: 'x' })).toBeUndefined();
  });

  it('refuses a missing, different or badly encoded header, naming it', () => {
    const args = { region: 'Hello' };
    expect(paramHeaderProblem({}, schema, args)).toMatch(/Mcp-Param-Region header is required/);
    expect(paramHeaderProblem({ 'mcp-param-region': 'Bye' }, schema, args)).toMatch(
      /Mcp-Param-Region does not match/,
    );
    expect(paramHeaderProblem({ 'mcp-param-region': '=?base64?SGVsbG8?=' }, schema, args)).toMatch(
      /not valid base64/,
    );
    expect(paramHeaderProblem({ 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }, schema, args)).toMatch(
      /not valid base64/,
    );
    expect(paramHeaderProblem({ 'mcp-param-count': '3' }, schema, {})).toMatch(
      /sent but the body has no count/,
    );
  });

  it('takes a value that only looks half like base64 as literal text', () => {
    const b64 = Buffer.from('Hello').toString('base64');
    expect(decodeParam(`=?base64?${b64}`)).toBe(`=?base64?${b64}`);
    expect(decodeParam(b64)).toBe(b64);
  });
});
