import { connect } from 'node:net';
import {
  CONTROL_PROTOCOL_VERSION,
  type ControlAnswer,
  type ControlRequest,
  type ControlStreamLine,
} from './protocol.js';

// A status or a full 1 MiB ring as JSON is well under this; a peer that sends more is not our server.
const MAX_ANSWER_CHARS = 64 * 1024 * 1024;

/** Why a request got no answer, as data. */
export type ClientFailure = { code: 'CONNECT_FAILED' | 'NO_ANSWER' | 'BAD_ANSWER'; detail: string };

export type ClientResult = { ok: true; answer: ControlAnswer } | { ok: false; failure: ClientFailure };

export interface RequestOptions {
  /** How long to wait for the first answer line (default 10 s). */
  timeoutMs?: number;
  /** With a `follow` request: each streamed line after the answer; the promise resolves when the stream ends. */
  onLine?: (line: ControlStreamLine) => void;
  /** With `onLine`: the answer as soon as it arrives, before the stream's lines. */
  onAnswer?: (answer: ControlAnswer) => void;
}

/**
 * Sends one request to the control socket at `path` and resolves its answer (after the whole stream, when
 * `onLine` is given). Never rejects.
 */
export function request(
  path: string,
  req: Omit<ControlRequest, 'v'>,
  opts: RequestOptions = {},
): Promise<ClientResult> {
  return new Promise((resolve) => {
    const socket = connect(path);
    let buffered = '';
    let answer: ControlAnswer | undefined;
    let settled = false;
    const settle = (result: ClientResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => settle({ ok: false, failure: { code: 'NO_ANSWER', detail: 'no answer in time' } }),
      opts.timeoutMs ?? 10_000,
    );
    socket.setEncoding('utf8');
    socket.once('connect', () =>
      socket.write(`${JSON.stringify({ v: CONTROL_PROTOCOL_VERSION, ...req })}\n`),
    );
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (answer) return settle({ ok: true, answer });
      settle({ ok: false, failure: { code: 'CONNECT_FAILED', detail: err.code ?? err.message } });
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          return settle({ ok: false, failure: { code: 'BAD_ANSWER', detail: 'not JSON' } });
        }
        if (!answer) {
          answer = value as ControlAnswer;
          clearTimeout(timer);
          if (!opts.onLine || !answer.ok) return settle({ ok: true, answer });
          opts.onAnswer?.(answer);
          continue;
        }
        opts.onLine?.(value as ControlStreamLine);
      }
      if (buffered.length > MAX_ANSWER_CHARS)
        settle({ ok: false, failure: { code: 'BAD_ANSWER', detail: 'line too long' } });
    });
    socket.once('close', () => {
      if (answer) return settle({ ok: true, answer });
      settle({ ok: false, failure: { code: 'NO_ANSWER', detail: 'closed without an answer' } });
    });
  });
}
