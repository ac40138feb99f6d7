import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../src/supervisor/json-rpc.js';
import { ServerRequestHandler } from '../../src/supervisor/server-requests.js';

function handler(roots?: string[]) {
  const sent: JsonRpcMessage[] = [];
  const refused: string[] = [];
  const h = new ServerRequestHandler(
    roots,
    (m) => sent.push(m) > 0,
    (m) => refused.push(m),
  );
  return { h, sent, refused };
}

describe('ServerRequestHandler', () => {
  it('answers a ping with {} (id 0 included) and refuses nothing', () => {
    const { h, sent, refused } = handler();
    h.handle({ jsonrpc: '2.0', id: 0, method: 'ping' });
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 0, result: {} }]);
    expect(refused).toEqual([]);
  });

  it('answers roots/list with the configured roots, named by their last segment', () => {
    const { h, sent } = handler(['file:///srv/data/', 'file:///home/me/project']);
    h.handle({ jsonrpc: '2.0', id: 'r', method: 'roots/list' });
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 'r',
        result: {
          roots: [
            { uri: 'file:///srv/data/', name: 'data' },
            { uri: 'file:///home/me/project', name: 'project' },
          ],
        },
      },
    ]);
  });

  it('refuses sampling, elicitation, unconfigured roots and unknown methods with -32601 at once', () => {
    const { h, sent, refused } = handler();
    const methods = ['sampling/createMessage', 'elicitation/create', 'roots/list', 'x/unknown'];
    for (const [id, method] of methods.entries()) h.handle({ jsonrpc: '2.0', id, method });
    expect(
      sent.map((m) => [(m as { id: number }).id, (m as { error: { code: number } }).error.code]),
    ).toEqual([
      [0, -32601],
      [1, -32601],
      [2, -32601],
      [3, -32601],
    ]);
    expect(refused).toEqual(methods);
  });
});
