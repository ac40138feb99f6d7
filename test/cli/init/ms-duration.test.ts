import { describe, expect, it } from 'vitest';
import { msDuration } from '../../../src/cli/init/ms-duration.js';

describe('msDuration', () => {
  it.each([
    [90_000, '90s'],
    [60_000, '1m'],
    [7_200_000, '2h'],
    [1500, '1500ms'],
    [500, '500ms'],
    [61_000, '61s'],
  ])('%i ms is %s, exactly', (ms, text) => {
    expect(msDuration(ms)).toBe(text);
  });
});
