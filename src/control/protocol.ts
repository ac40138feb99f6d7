import { isRecord } from '../framing/is-record.js';

/**
 * The control socket's protocol: one JSON request per line, answered by one JSON line (a `logs` request with
 * `follow` then goes on with one line per entry, and an `end` line when the fleet stops). Every line carries `v`.
 */
export const CONTROL_PROTOCOL_VERSION = 1;

/** The longest request line accepted; a longer one is answered `TOO_LARGE`. */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** How long a connection may take to send its request line before it is answered `TIMEOUT`. */
export const REQUEST_TIMEOUT_MS = 5000;

export interface ControlRequest {
  v: number;
  cmd: string;
  /** The server a per-server command acts on. */
  server?: string;
  /** `logs`: go on streaming new entries after those kept. */
  follow?: boolean;
}

/** Why a request was refused, as data; what people read is rendered by the client. */
export type ControlErrorCode =
  | 'BAD_REQUEST'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'UNSUPPORTED_VERSION'
  | 'UNKNOWN_COMMAND'
  | 'UNKNOWN_SERVER'
  | 'NOT_STARTED'
  | 'STOPPED'
  | 'NOT_SUPPORTED'
  /** `reload`: the config file has problems (`problems`, located); nothing changed. */
  | 'INVALID_CONFIG'
  | 'INTERNAL';

/** A located problem of a config, as `reload` answers it (`file:line:col field: message` once rendered). */
export interface ControlProblem {
  source: string;
  line: number;
  col: number;
  path: string;
  message: string;
  code?: string;
}

export type ControlAnswer =
  | { v: number; ok: true; data: unknown }
  | {
      v: number;
      ok: false;
      code: ControlErrorCode;
      detail?: string;
      servers?: string[];
      problems?: ControlProblem[];
    };

/** A streamed line after a `follow` answer: one more entry, or the end of the stream and why. */
export type ControlStreamLine = { v: number; entry: unknown } | { v: number; end: 'FLEET_STOPPED' };

/** Who answers on a socket: sent back by `hello`, so a client can tell instances sharing a directory apart. */
export interface InstanceInfo {
  pid: number;
  /** The config file's absolute path. */
  config: string;
  /** `run` or `serve` (and how: `serve --http`), for people choosing between instances. */
  command: string;
  startedAt: number;
  /** Where the instance serves people and tools besides the socket (`ui`, `metrics`, `http`), once it does. */
  urls?: Partial<Record<InstanceUrl, string>>;
}

/** The addresses an instance may publish in `status`. */
export type InstanceUrl = 'ui' | 'metrics' | 'http';

export function answerOk(data: unknown): ControlAnswer {
  return { v: CONTROL_PROTOCOL_VERSION, ok: true, data };
}

export function answerError(
  code: ControlErrorCode,
  extra: { detail?: string; servers?: string[]; problems?: ControlProblem[] } = {},
): ControlAnswer {
  return { v: CONTROL_PROTOCOL_VERSION, ok: false, code, ...extra };
}

/** Reads one request line; a refusal comes back as the answer to send. */
export function parseRequest(
  line: string,
): { ok: true; request: ControlRequest } | { ok: false; answer: ControlAnswer } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, answer: answerError('BAD_REQUEST', { detail: 'not JSON' }) };
  }
  if (!isRecord(value)) return { ok: false, answer: answerError('BAD_REQUEST', { detail: 'not an object' }) };
  if (value['v'] !== CONTROL_PROTOCOL_VERSION)
    return {
      ok: false,
      answer: answerError('UNSUPPORTED_VERSION', { detail: `this side speaks v${CONTROL_PROTOCOL_VERSION}` }),
    };
  const { cmd, server, follow } = value;
  if (typeof cmd !== 'string' || cmd === '')
    return { ok: false, answer: answerError('BAD_REQUEST', { detail: 'cmd must be a string' }) };
  if (server !== undefined && typeof server !== 'string')
    return { ok: false, answer: answerError('BAD_REQUEST', { detail: 'server must be a string' }) };
  if (follow !== undefined && typeof follow !== 'boolean')
    return { ok: false, answer: answerError('BAD_REQUEST', { detail: 'follow must be true or false' }) };
  return {
    ok: true,
    request: {
      v: CONTROL_PROTOCOL_VERSION,
      cmd,
      ...(server !== undefined ? { server } : {}),
      ...(follow !== undefined ? { follow } : {}),
    },
  };
}
