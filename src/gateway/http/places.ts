import type { ServerResponse } from 'node:http';

/** How long a client refused for want of a place is asked to wait (`Retry-After`, seconds). */
const FULL_RETRY_S = 5;

/** A place held; `free()` gives it back, once however often it is called. */
export interface Place {
  readonly ok: true;
  free(): void;
}

/** Why no place was given: every one is taken (503), or this credential holds its share (429). */
export type Full =
  | { readonly ok: false; readonly max: number }
  | { readonly ok: false; readonly share: number };

/**
 * The places of `serve --http`: what a client may hold open at once, each costing a Gateway and its fleet
 * subscriptions. A 2025 session holds one from its `initialize` until it ends; a 2026 `subscriptions/listen`
 * stream holds one while it is open. `max` is for everyone (`serve.maxSessions`), `share` for one credential
 * (`serve.maxSessionsPerToken`), so no one token can take every place.
 */
export class Places {
  private held = 0;
  private readonly by = new Map<string | undefined, number>();

  constructor(
    private readonly max: number,
    private readonly share: number | undefined,
  ) {}

  /** A place for `callerId`, or why there is none. */
  take(callerId: string | undefined): Place | Full {
    if (this.held >= this.max) return { ok: false, max: this.max };
    const mine = this.by.get(callerId) ?? 0;
    if (this.share !== undefined && mine >= this.share) return { ok: false, share: this.share };
    this.held += 1;
    this.by.set(callerId, mine + 1);
    let freed = false;
    return {
      ok: true,
      free: () => {
        if (freed) return;
        freed = true;
        this.held -= 1;
        const left = (this.by.get(callerId) ?? 1) - 1;
        if (left > 0) this.by.set(callerId, left);
        else this.by.delete(callerId);
      },
    };
  }
}

/** Answers a request that got no place: 503 or 429, `Retry-After`, and a JSON-RPC error with its code in `data`. */
export function refuseFull(res: ServerResponse, body: unknown, full: Full): void {
  const id = (body as { id?: unknown }).id;
  const error =
    'max' in full
      ? {
          code: -32000,
          message: `Too many sessions: ${full.max} are open; retry later`,
          data: { code: 'TOO_MANY_SESSIONS', maxSessions: full.max },
        }
      : {
          code: -32000,
          message: `Too many sessions for this credential: it holds ${full.share}; close one or retry later`,
          data: { code: 'TOO_MANY_SESSIONS_FOR_TOKEN', maxSessionsPerToken: full.share },
        };
  res
    .writeHead('max' in full ? 503 : 429, {
      'Content-Type': 'application/json',
      'Retry-After': String(FULL_RETRY_S),
    })
    .end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: typeof id === 'string' || typeof id === 'number' ? id : null,
        error,
      }),
    );
}
