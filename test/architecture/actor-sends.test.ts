import { describe, expect, it } from 'vitest';
import { sourceLines as findings } from './source-lines.js';

// Call-health signals reach a server's machine one way: from its process actor (sendBack), as the connection
// reports them. Outside src/machines, only the root actor is sent events, by the facade.
describe('nothing outside the actor system sends to a child actor', () => {
  it('every event sent outside src/machines goes to the root actor of the facade', () => {
    // An event is an object with a `type` (written inline or opening a multi-line literal); a JSON-RPC message
    // handed to an MCP transport (`{ ...message, result }`) is not one.
    const sends = findings(/\.send\(\s*\{\s*(?:type\b|$)|\.send\(\s*event|\bsendTo\(/).filter(
      (f) => !f.startsWith('src/machines/'),
    );
    expect(sends.length).toBeGreaterThan(0);
    const elsewhere = sends.filter(
      (f) => !/^src\/supervisor\/supervisor\.ts:\d+: this\.actor\.send\(/.test(f),
    );
    expect(elsewhere).toEqual([]);
    // The pattern does find a child being sent to.
    const pattern = /\.send\(\s*\{\s*(?:type\b|$)/;
    expect(pattern.test("ref.send({ type: 'CALL.OK' });")).toBe(true);
    expect(pattern.test('ref.send({')).toBe(true);
    expect(pattern.test('transport.send({ ...message, result }, options);')).toBe(false);
  });
});
