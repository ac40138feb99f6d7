import type { IncomingHttpHeaders } from 'node:http';

/**
 * The `Mcp-Param-*` headers of a 2026 `tools/call` against its body: each string, number or boolean property of
 * the tool's input schema that declares `x-mcp-header: NAME` is mirrored in `Mcp-Param-NAME` (so a proxy can route
 * on it without reading the body), and must say exactly what the body's argument says. A value may come as
 * `=?base64?…?=` (UTF-8 inside); leading and trailing whitespace is not part of it. The problem, if any, as text
 * for the −32020 answer; undefined when the headers agree.
 */
export function paramHeaderProblem(
  headers: IncomingHttpHeaders,
  inputSchema: unknown,
  args: Record<string, unknown> | undefined,
): string | undefined {
  const properties = (inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return undefined;
  for (const [param, schema] of Object.entries(properties)) {
    const name = (schema as { 'x-mcp-header'?: unknown } | null)?.['x-mcp-header'];
    if (typeof name !== 'string' || name === '') continue;
    const header = `Mcp-Param-${name}`;
    const raw = headers[header.toLowerCase()];
    const sent = Array.isArray(raw) ? raw[0] : raw;
    const value = args?.[param];
    const expected = headerText(value);
    if (expected === undefined) {
      if (sent !== undefined && value === undefined)
        return `Header mismatch: ${header} is sent but the body has no ${param}`;
      continue;
    }
    if (sent === undefined) return `Header mismatch: ${header} header is required (the body has ${param})`;
    const decoded = decodeParam(sent);
    if (decoded === undefined) return `Header mismatch: ${header} is not valid base64`;
    if (decoded !== expected) return `Header mismatch: ${header} does not match the body's ${param}`;
  }
  return undefined;
}

/** A primitive argument as its header carries it; undefined for absent or structured values (not mirrored). */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A header value as sent: `=?base64?…?=` is decoded (undefined when not canonical base64, padding included);
 * anything else, a value merely starting or ending like it included, is the literal text.
 */
export function decodeParam(value: string): string | undefined {
  const v = value.trim();
  const m = /^=\?base64\?(.*)\?=$/.exec(v);
  if (!m) return v;
  const b64 = m[1]!;
  if (!BASE64.test(b64)) return undefined;
  return Buffer.from(b64, 'base64').toString('utf8');
}
