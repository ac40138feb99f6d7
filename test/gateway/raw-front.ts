import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../../src/gateway/gateway.js';

/** A 2026-07-28 request's `_meta` envelope, from a client that can answer elicitation. */
export const ENVELOPE_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

/** Connects the gateway to an in-memory front end; resolves with a function sending one raw request, resolving its answer. */
export async function rawFront(
  gateway: Gateway,
): Promise<(method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>> {
  const answers = new Map<number, (m: JSONRPCMessage) => void>();
  let nextId = 1;
  const [front, server] = InMemoryTransport.createLinkedPair();
  front.onmessage = (m) => {
    if ('id' in m && typeof m.id === 'number') answers.get(m.id)?.(m);
  };
  await front.start();
  await gateway.connect(server);
  return (method, params) => {
    const id = nextId++;
    return new Promise((resolve) => {
      answers.set(id, (m) => resolve(m as unknown as Record<string, unknown>));
      void front.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  };
}
