import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/cli/durations.js';

describe('formatDuration', () => {
  it('uses the two largest units', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(185_000)).toBe('3m05s');
    expect(formatDuration(2 * 3_600_000 + 7 * 60_000)).toBe('2h07m');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000)).toBe('3d04h');
  });

  it('shows a dash for what is not a duration', () => {
    expect(formatDuration(-1)).toBe('-');
    expect(formatDuration(Number.NaN)).toBe('-');
  });
});
