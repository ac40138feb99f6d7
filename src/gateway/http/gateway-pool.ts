import type { Gateway } from '../gateway.js';
import type { Caller } from './auth.js';

/** How many idle Gateways are kept in all: about what 64 calls in flight need. */
const MAX_IDLE = 64;

/**
 * Gateways that answered a 2026 `tools/call` and may answer the next one. Making a Gateway (an SDK `Server` with
 * every handler, and the fleet subscriptions) costs more than the call it answers; a `tools/call` leaves nothing
 * in one (no `initialize`, no `server/discover`, no subscription), so a Gateway whose call was answered whole is
 * as good as new. Kept by the caller's credential and scopes, which every call is checked against.
 */
export class GatewayPool {
  private readonly idle = new Map<string, Gateway[]>();
  private count = 0;
  private closed = false;

  constructor(private readonly make: (caller: Caller | undefined) => Gateway) {}

  /** An idle Gateway for `caller`, or a new one. */
  take(caller: Caller | undefined): Gateway {
    const kept = this.idle.get(keyOf(caller))?.pop();
    if (!kept) return this.make(caller);
    this.count -= 1;
    return kept;
  }

  /** A Gateway whose request was answered whole and whose transport is closed; closed instead past the bound. */
  give(caller: Caller | undefined, gateway: Gateway): void {
    if (this.closed || this.count >= MAX_IDLE) {
      void gateway.close();
      return;
    }
    const key = keyOf(caller);
    const list = this.idle.get(key);
    if (list) list.push(gateway);
    else this.idle.set(key, [gateway]);
    this.count += 1;
  }

  /** Closes every idle Gateway; those given back later are closed at once. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle.values()].flat();
    this.idle.clear();
    this.count = 0;
    await Promise.all(all.map((g) => g.close()));
  }
}

function keyOf(caller: Caller | undefined): string {
  return caller === undefined ? '' : `${caller.id}\n${caller.scopes.join('\n')}`;
}
