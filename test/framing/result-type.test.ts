import { describe, expect, it } from 'vitest';
import { resultKind } from '../../src/framing/result-type.js';
import { toolResultEvent } from '../../src/framing/tool-result.js';

describe('resultType', () => {
  it('absent or complete is a complete result; input_required keeps its requests and state as given', () => {
    expect(resultKind({ content: [] })).toEqual({ kind: 'complete' });
    expect(resultKind({ resultType: 'complete', content: [] })).toEqual({ kind: 'complete' });
    const ask = { method: 'elicitation/create', params: { message: 'ok?' } };
    expect(
      resultKind({ resultType: 'input_required', inputRequests: { a: ask }, requestState: 'é\u2028' }),
    ).toEqual({
      kind: 'input_required',
      input: { resultType: 'input_required', inputRequests: { a: ask }, requestState: 'é\u2028' },
    });
  });

  it('an unknown resultType, or an input_required of the wrong shape, is invalid', () => {
    for (const bad of [
      { resultType: 'later' },
      { resultType: 'input_required' },
      { resultType: 'input_required', inputRequests: {} },
      { resultType: 'input_required', requestState: 7 },
      { resultType: 'input_required', inputRequests: { a: { params: {} } } },
    ]) {
      expect(resultKind(bad)).toMatchObject({ kind: 'invalid' });
      expect(toolResultEvent(1, bad, { mode: 'text', maxBytes: 100 }).failed?.code).toBe('INVALID_RESULT');
    }
  });
});
