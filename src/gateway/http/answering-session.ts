import { parseCallerKey } from '../caller-key.js';

/** What a server may ask a client: sampling, elicitation, roots. */
export type AskKind = 'sampling' | 'elicitation' | 'roots';

/** A 2025 session of `serve --http` as the routing of servers' requests sees it. */
export interface FrontSession {
  key: string;
  /** The credential it was opened with; null without auth. */
  principal: string | null;
  /** What its client declared it can answer. */
  declared: ReadonlySet<AskKind>;
}

/** Why a server's request is put to no client: data, worded at the edge. */
export type Unrouted = 'SEVERAL_CALLERS' | 'CALLER_CANNOT_ANSWER' | 'NO_CALLER';

/** The session to put a server's request to (and the client request to relate it to), or why none. */
export type Answering =
  | { ok: true; session: FrontSession; relatedRequestId?: string | number }
  | { ok: false; why: Unrouted };

/**
 * Who answers a server's `kind` request, given who the requests in flight to that server are made for
 * (`callers`) and the live sessions in the order they initialized. A request made during calls of one credential
 * goes to the session of the latest of those calls whose client can answer, on that call's stream; calls of
 * several credentials make it ambiguous, so nobody is asked. A request made outside any call goes to the latest
 * session that can answer only when every such session holds the same credential — never to another's.
 */
export function answeringSession(
  sessions: readonly FrontSession[],
  kind: AskKind,
  callers: readonly string[],
): Answering {
  const refs = callers.flatMap((c) => {
    const ref = parseCallerKey(c);
    return ref ? [ref] : [];
  });
  const able = sessions.filter((s) => s.declared.has(kind));
  if (refs.length > 0) {
    if (new Set(refs.map((r) => r.principal)).size > 1) return { ok: false, why: 'SEVERAL_CALLERS' };
    for (const ref of [...refs].reverse()) {
      const session = able.find((s) => s.key === ref.session && s.principal === ref.principal);
      if (session) return { ok: true, session, relatedRequestId: ref.requestId };
    }
    return { ok: false, why: 'CALLER_CANNOT_ANSWER' };
  }
  if (callers.length > 0) return { ok: false, why: 'NO_CALLER' };
  const latest = able.at(-1);
  if (!latest || able.some((s) => s.principal !== latest.principal)) return { ok: false, why: 'NO_CALLER' };
  return { ok: true, session: latest };
}
