import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../../framing/is-record.js';
import { OUTCOME_CODE_META_KEY } from '../../protocol/call-outcome.js';
import { RpcError } from '../rpc-error.js';
import { openJson, sealJson } from './seal.js';

/** How long a round handed out may be answered: a person may take a while to answer an elicitation. */
export const ROUND_FOR_MS = 60 * 60_000;
const PREFIX = 'r1.';

/** What a sealed `requestState` holds; short keys, as it travels on every retry. */
interface SealedRound {
  /** The server's own `requestState`, when it gave one. */
  s?: string;
  /** The caller it was handed to (the bearer token's id), null without auth. */
  c: string | null;
  /** ms since the epoch after which it is refused. */
  e: number;
}

/** A {@link RoundSeal} bound to one caller, as a Gateway holds it. */
export interface CallerRounds {
  seal<T>(result: T): T;
  open<P extends Record<string, unknown>>(params: P): P;
}

/** The key a process seals with when its host gives none: rounds are then answered only by this process. */
let processKey: Buffer | undefined;

/**
 * Seals the `requestState` of the `input_required` rounds `serve` hands to 2026 clients, and opens it on their
 * retries (the spec's SHOULD: requestState is bound to the caller and shows nothing of the server). The server's
 * own state travels inside, encrypted, so a retry may land on any replica with the same key; one altered,
 * expired or carried by another caller is refused (−32602) before reaching any server.
 */
export class RoundSeal {
  private readonly key: Buffer;

  constructor(
    key: Buffer | undefined,
    private readonly now: () => number = Date.now,
  ) {
    processKey ??= randomBytes(32);
    this.key = key ?? processKey;
  }

  /** This seal for one caller (null without auth). */
  forCaller(caller: string | null): CallerRounds {
    return {
      seal: (result) => this.sealResult(result, caller),
      open: (params) => this.openParams(params, caller),
    };
  }

  /** `result` with its `requestState` sealed for `caller`, when it is an `input_required` round; else as it is. */
  sealResult<T>(result: T, caller: string | null): T {
    if (!isRecord(result) || result.resultType !== 'input_required') return result;
    const { requestState, ...rest } = result;
    const round: SealedRound = {
      ...(typeof requestState === 'string' ? { s: requestState } : {}),
      c: caller,
      e: this.now() + ROUND_FOR_MS,
    };
    return { ...rest, requestState: sealJson(this.key, PREFIX, round) } as T;
  }

  /**
   * A 2026 retry's params with the server's own `requestState` in place of the sealed one (none when the server
   * gave none); params without a `requestState` as they are. Throws the −32602 the client gets for one that does
   * not open for `caller`.
   */
  openParams<P extends Record<string, unknown>>(params: P, caller: string | null): P {
    const sealed = params.requestState;
    if (sealed === undefined) return params;
    const round = typeof sealed === 'string' ? openJson(this.key, PREFIX, sealed) : undefined;
    if (!isRound(round) || round.c !== caller || round.e <= this.now()) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        'requestState was not handed out by this gateway to this caller, was altered, or has expired: send the request again without inputResponses and requestState',
        { [OUTCOME_CODE_META_KEY]: 'REQUEST_STATE_REFUSED' },
      );
    }
    const { requestState: _sealed, ...rest } = params;
    return (round.s === undefined ? rest : { ...rest, requestState: round.s }) as P;
  }
}

function isRound(v: unknown): v is SealedRound {
  return (
    isRecord(v) &&
    (v.c === null || typeof v.c === 'string') &&
    typeof v.e === 'number' &&
    (v.s === undefined || typeof v.s === 'string')
  );
}
