import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean } from '../../src/cli/closest-names.js';

describe('closestNames', () => {
  const tools = ['notes.add_note', 'notes.list_notes', 'notes.word_count', 'fx.echo', 'fx.echo_slow'];

  it('finds a typo, a swap, and a different spelling of _ and -', () => {
    expect(closestNames('notes.add_ntoe', tools)).toEqual(['notes.add_note']);
    expect(closestNames('fx.ecoh', tools)).toEqual(['fx.echo']);
    expect(closestNames('notes.word-count', tools)).toEqual(['notes.word_count']);
    expect(closestNames('Notes.List_Notes', tools)).toEqual(['notes.list_notes']);
  });

  it('names nothing far away, nor the name itself', () => {
    expect(closestNames('weather.forecast', tools)).toEqual([]);
    expect(closestNames('fx.echo', ['fx.echo'])).toEqual([]);
  });

  it('keeps the nearest first and at most three', () => {
    expect(closestNames('a.bb', ['a.bc', 'a.b', 'a.bbxx', 'a.bd', 'a.be'])).toEqual(['a.bc', 'a.b', 'a.bd']);
  });
});

describe('didYouMean', () => {
  it('joins one, two or three names, and says nothing for none', () => {
    expect(didYouMean(['a'])).toBe("did you mean 'a'?");
    expect(didYouMean(['a', 'b'])).toBe("did you mean 'a' or 'b'?");
    expect(didYouMean(['a', 'b', 'c'])).toBe("did you mean 'a', 'b' or 'c'?");
    expect(didYouMean([])).toBeUndefined();
  });
});
