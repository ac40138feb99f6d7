import { toJsonRpcMessage } from '../framing/json-rpc.js';
import { RemoteError, SupervisorError } from './errors.js';

export interface HttpProbe {
  url: string;
  /** The server's configured headers (a token, an API key): the probe is a request like any other. */
  headers: Record<string, string>;
  method: string;
  params: Record<string, unknown>;
  /** The MCP-Protocol-Version the request's `_meta` names. */
  protocolVersion: string;
  timeoutMs: number;
  /** Aborted when the link stops: the probe ends at once. */
  signal: AbortSignal;
}

// An answer to one discover request is small; anything past this is not the answer looked for.
const MAX_ANSWER_BYTES = 1024 * 1024;
const PROBE_ID = 'era-probe';

/**
 * One 2026 request over a plain POST of its own, outside the session transport: a sessionful 2025 server answers
 * it with an HTTP error, which here is only a fact about the server's era, never the end of a link (the SDK
 * transport would take it as one, and remember nothing else either). Resolves with the result; rejects with
 * RemoteError for a JSON-RPC error in the body (whatever the status: a 2026 server answers its own errors with
 * 400 or 404), REQUEST_TIMEOUT past the bound, and INVALID_RESPONSE for anything else — an HTTP error with no
 * JSON-RPC body, a body that is no answer, a failed connection, the link stopped — each of which means "not a
 * 2026 server" to the caller. None is final here: the `initialize` after it meets the same refusal or stop over
 * the session transport and fails as a connect does. (Over stdio a probe's fatal end marks the server as one that
 * exits on unknown requests; nothing over HTTP is that.)
 */
export async function probeOverHttp(p: HttpProbe): Promise<unknown> {
  const own = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    own.abort();
  }, p.timeoutMs);
  const stop = () => own.abort();
  if (p.signal.aborted) stop();
  else p.signal.addEventListener('abort', stop, { once: true });
  try {
    const headers = new Headers(p.headers);
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('mcp-protocol-version', p.protocolVersion);
    headers.set('mcp-method', p.method);
    const res = await fetch(p.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: PROBE_ID, method: p.method, params: p.params }),
      signal: own.signal,
    });
    const type = (res.headers.get('content-type') ?? '').toLowerCase();
    const answer = type.startsWith('text/event-stream') ? await fromEvents(res) : await fromJson(res);
    if (answer === undefined) {
      throw new SupervisorError(
        'INVALID_RESPONSE',
        `${p.method} answered HTTP ${res.status} without a JSON-RPC answer`,
      );
    }
    if ('error' in answer) throw new RemoteError(answer.error.code, answer.error.message, answer.error.data);
    if (res.status >= 300) {
      throw new SupervisorError('INVALID_RESPONSE', `${p.method} answered HTTP ${res.status} with a result`);
    }
    return answer.result;
  } catch (err) {
    if (err instanceof RemoteError || err instanceof SupervisorError) throw err;
    if (timedOut)
      throw new SupervisorError('REQUEST_TIMEOUT', `no answer to ${p.method} within ${p.timeoutMs} ms`);
    if (p.signal.aborted)
      throw new SupervisorError('INVALID_RESPONSE', `the link stopped during ${p.method}`);
    throw new SupervisorError('INVALID_RESPONSE', `${p.method} failed: ${describe(err)}`);
  } finally {
    clearTimeout(timer);
    p.signal.removeEventListener('abort', stop);
    // Whatever is left of the body (the rest of a stream) is not waited for.
    own.abort();
  }
}

type Answer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** Our answer, or an error with no id (a server that could not read the request's id says so with `null`). */
function answerIn(value: unknown): Answer | undefined {
  const m = toJsonRpcMessage(value);
  if (!m || 'method' in m) return undefined;
  if ('error' in m) return m.id === PROBE_ID || m.id === null || m.id === undefined ? m : undefined;
  return m.id === PROBE_ID ? m : undefined;
}

async function fromJson(res: Response): Promise<Answer | undefined> {
  const text = await readBounded(res);
  if (text === undefined) return undefined;
  try {
    return answerIn(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Events until our answer; notifications before it (progress, logs) are passed over. */
async function fromEvents(res: Response): Promise<Answer | undefined> {
  if (!res.body) return undefined;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return undefined;
    seen += value.byteLength;
    if (seen > MAX_ANSWER_BYTES) return undefined;
    buffered += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const data = buffered
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
        .join('\n');
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
      if (data === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        continue;
      }
      const answer = answerIn(parsed);
      if (answer) return answer;
    }
  }
}

async function readBounded(res: Response): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) return undefined;
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { message?: unknown } } | null)?.cause;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}
