import { describe, expect, it } from 'vitest';
import {
  type CallErrorCode,
  callFailure,
  codeOfError,
  failureFromError,
  failureText,
  OUTCOME_CODE_META_KEY,
  outcomeResult,
  outcomeText,
} from '../../src/protocol/call-outcome.js';
import { RemoteError, SupervisorError, type SupervisorErrorCode } from '../../src/protocol/errors.js';

describe('the code of a failure', () => {
  // Every SupervisorErrorCode is a key here: a new one without a row fails the typecheck of the table below.
  const table: Record<SupervisorErrorCode, CallErrorCode> = {
    SPAWN_FAILED: 'SERVER_DOWN',
    HANDSHAKE_TIMEOUT: 'SERVER_DOWN',
    HANDSHAKE_FAILED: 'SERVER_DOWN',
    UNSUPPORTED_PROTOCOL: 'SERVER_DOWN',
    CLOSED: 'SERVER_DOWN',
    WRITE_FAILED: 'SERVER_DOWN',
    UNWRITABLE_REQUEST: 'INVALID_CALL',
    SERVER_EXITED: 'SERVER_EXITED',
    REQUEST_TIMEOUT: 'TIMEOUT',
    REQUEST_CANCELLED: 'CANCELLED',
    RESULT_TOO_LARGE: 'TOO_LARGE',
    INVALID_RESPONSE: 'INVALID_RESULT',
    QUEUE_FULL: 'QUEUE_FULL',
    CONNECT_FAILED: 'SERVER_DOWN',
    SERVER_DISCONNECTED: 'SERVER_DISCONNECTED',
  };
  it.each(Object.entries(table))('%s is %s', (raw, code) => {
    const err = new SupervisorError(raw as SupervisorErrorCode, 'what happened');
    expect(codeOfError(err)).toBe(code);
    expect(failureFromError(err, { server: 's', tool: 's.t' })).toEqual({
      ok: false,
      code,
      message: 'what happened',
      server: 's',
      tool: 's.t',
    });
  });

  it("keeps a server's JSON-RPC error code and message as data beside the text callers have always read", () => {
    expect(failureFromError(new RemoteError(-32602, 'unknown tool: x'))).toEqual({
      ok: false,
      code: 'REMOTE_ERROR',
      message: 'server error -32602: unknown tool: x',
      rpcCode: -32602,
      rpcMessage: 'unknown tool: x',
    });
  });

  it('calls anything else thrown an internal fault, whatever it is', () => {
    expect(failureFromError(new Error('boom'))).toEqual({ ok: false, code: 'INTERNAL', message: 'boom' });
    expect(failureFromError('just a string')).toMatchObject({ code: 'INTERNAL', message: 'just a string' });
    expect(failureFromError(undefined)).toMatchObject({ code: 'INTERNAL', message: 'undefined' });
  });
});

describe('rendering at the edge', () => {
  const timeout = callFailure('TIMEOUT', "tool 'a.hang' timed out after 150 ms", {
    server: 'a',
    tool: 'a.hang',
  });

  it('renders a failure as ERROR: and its message, and a success as its text', () => {
    expect(failureText(timeout)).toBe("ERROR: tool 'a.hang' timed out after 150 ms");
    expect(outcomeText(timeout)).toBe("ERROR: tool 'a.hang' timed out after 150 ms");
    expect(outcomeText({ ok: true, text: 'hi' })).toBe('hi');
    // A success is never rendered as a failure, whatever its text says.
    expect(outcomeText({ ok: true, text: 'ERROR: looks bad' })).toBe('ERROR: looks bad');
  });

  it('makes a failure one isError text block with its code in _meta', () => {
    expect(outcomeResult(timeout)).toEqual({
      isError: true,
      content: [{ type: 'text', text: "ERROR: tool 'a.hang' timed out after 150 ms" }],
      _meta: { [OUTCOME_CODE_META_KEY]: 'TIMEOUT' },
    });
    expect(OUTCOME_CODE_META_KEY).toBe('mcp-supervisor/code');
  });

  it("keeps a tool's own error result, its blocks and its _meta, and adds the code", () => {
    const result = {
      isError: true,
      content: [
        { type: 'text', text: 'nope' },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
      ],
      _meta: { 'example.com/trace': 'abc' },
    };
    expect(outcomeResult({ ...callFailure('TOOL_ERROR', 'nope'), result })).toEqual({
      ...result,
      _meta: { 'example.com/trace': 'abc', [OUTCOME_CODE_META_KEY]: 'TOOL_ERROR' },
    });
  });

  it('passes a success through untouched', () => {
    const result = { content: [{ type: 'text', text: 'ok' }] };
    expect(outcomeResult({ ok: true, result })).toBe(result);
  });

  it('drops a code a server put under our key itself: a success stays one', () => {
    const result = {
      content: [{ type: 'text', text: 'ok' }],
      _meta: { [OUTCOME_CODE_META_KEY]: 'TIMEOUT', 'example.com/trace': 'abc' },
    };
    expect(outcomeResult({ ok: true, result })).toEqual({
      content: [{ type: 'text', text: 'ok' }],
      _meta: { 'example.com/trace': 'abc' },
    });
    expect(result._meta[OUTCOME_CODE_META_KEY]).toBe('TIMEOUT');
  });
});
