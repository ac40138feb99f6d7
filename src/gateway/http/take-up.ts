import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { SealedSession } from './sealed-id.js';

/** The bound on the replayed handshake: it runs in this process, against a Gateway made a moment ago. */
const TAKE_UP_MS = 10_000;

/**
 * Takes up on this replica a session another replica (or this one before a restart) opened: the client's own
 * `initialize` and `notifications/initialized`, as the sealed id carries them, are replayed into a fresh transport
 * whose id generator gives that id, so its Gateway knows the client as the first replica did. The answers are read
 * and dropped. False when the transport refused (it then holds no session).
 */
export async function takeUp(
  transport: WebStandardStreamableHTTPServerTransport,
  sealed: SealedSession,
): Promise<boolean> {
  const post = async (message: Record<string, unknown>, session?: string): Promise<number> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (session !== undefined) {
      headers['mcp-session-id'] = session;
      headers['mcp-protocol-version'] = sealed.v;
    }
    const request = new Request('http://localhost/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
    });
    const answer = await transport.handleRequest(request);
    const reading = answer.body ? answer.text() : Promise.resolve('');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the replayed handshake did not end')), TAKE_UP_MS);
    });
    try {
      await Promise.race([reading, late]);
    } finally {
      clearTimeout(timer);
    }
    return answer.status;
  };
  const init = {
    jsonrpc: '2.0',
    id: 'take-up',
    method: 'initialize',
    params: { protocolVersion: sealed.v, capabilities: sealed.caps, clientInfo: sealed.info },
  };
  if ((await post(init)) !== 200 || transport.sessionId === undefined) return false;
  const done = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, transport.sessionId);
  return done === 202;
}
