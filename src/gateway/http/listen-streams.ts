import type { ServerResponse } from 'node:http';
import type { Gateway } from '../gateway.js';
import { type Places, refuseFull } from './places.js';
import { whenClosed } from './response-end.js';

/** One open `subscriptions/listen` stream: whose it is, and the Gateway that answers it. */
interface ListenStream {
  readonly callerId: string | undefined;
  readonly gateway: Gateway;
}

/**
 * The 2026 `subscriptions/listen` streams open now. A listen stream belongs to no session, yet it holds as much
 * as one — a Gateway, the fleet's subscriptions, a response open for as long as the client likes — so it takes a
 * place under the same caps as a session, for as long as its response is open, and it ends with its credential.
 */
export class ListenStreams {
  private readonly open = new Set<ListenStream>();

  constructor(private readonly places: Places) {}

  /**
   * Gives a listen request a place and the Gateway `make` builds for it; with no place left it is refused as an
   * `initialize` is (503, or 429 past the credential's share), and undefined is returned.
   */
  admit(
    callerId: string | undefined,
    res: ServerResponse,
    body: unknown,
    make: () => Gateway,
  ): Gateway | undefined {
    const place = this.places.take(callerId);
    if (!place.ok) {
      refuseFull(res, body, place);
      return undefined;
    }
    const stream = { callerId, gateway: make() };
    this.open.add(stream);
    whenClosed(res, () => {
      this.open.delete(stream);
      place.free();
    });
    return stream.gateway;
  }

  /**
   * Ends the streams of every credential `keep` refuses (a token taken out of the tokens file). Closing a stream's
   * Gateway closes its transport, which ends the event stream, and with it the response: the place is then free.
   */
  async revoke(keep: (callerId: string | undefined) => boolean): Promise<void> {
    const gone = [...this.open].filter((s) => !keep(s.callerId));
    await Promise.all(gone.map((s) => s.gateway.close()));
  }

  /**
   * Ends every stream (a drain): a listen stream is work left open, as a session is, and its client learns of the
   * drain by the end of its stream, as a session's GET stream ends. None is admitted after: once draining, the
   * front answers every POST without a session 503 before it gets here. Idempotent.
   */
  async close(): Promise<void> {
    await Promise.all([...this.open].map((s) => s.gateway.close()));
  }
}

/** Whether a 2026 POST is a `subscriptions/listen` request (a notification holds no stream). */
export function isListen(body: unknown): boolean {
  const msg = body as { id?: unknown; method?: unknown };
  return msg.method === 'subscriptions/listen' && msg.id !== undefined;
}
