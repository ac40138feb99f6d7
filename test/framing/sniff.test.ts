import { describe, expect, it } from 'vitest';
import { sniffHead, sniffResponseId, sniffTail } from '../../src/framing/sniff.js';

const b = (s: string) => new TextEncoder().encode(s);

describe('sniffResponseId', () => {
  it('reads the id of a response from its first bytes, numbers and strings', () => {
    expect(sniffResponseId(b('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"te'))).toBe(7);
    expect(sniffResponseId(b('{ "jsonrpc" : "2.0" , "id" : "a\\"b" , "error" : {'))).toBe('a"b');
    expect(sniffResponseId(b('{"id":0,"jsonrpc":"2.0","result":'))).toBe(0);
    expect(sniffResponseId(b('{"jsonrpc":"2.0","result":{"a":{"id":9}},"id":3,'))).toBe(3);
  });

  it('finds the id at the end when the result comes first', () => {
    const tail = b('xxxxx"}]},"jsonrpc":"2.0","id":12}\r');
    expect(sniffResponseId(b('{"result":{"content":[{"type":"text","text":"aaaa'), tail)).toBe(12);
    expect(sniffTail(b('e"}]}, "jsonrpc":"2.0", "id" : "k-1" } '))).toBe('k-1');
  });

  it('gives nothing for requests, notifications, or an id cut off by the window', () => {
    expect(sniffResponseId(b('{"jsonrpc":"2.0","id":4,"method":"ping"}'))).toBeUndefined();
    expect(
      sniffResponseId(b('{"method":"x","params":{"a":1},"jsonrpc":"2.0","id":5}'), b(',"id":5}')),
    ).toBeUndefined();
    expect(sniffResponseId(b('{"jsonrpc":"2.0","id":12'))).toBeUndefined();
    expect(sniffResponseId(b('{"jsonrpc":"2.0","id":"abc'))).toBeUndefined();
    expect(sniffResponseId(b('not json'))).toBeUndefined();
  });

  it('is not fooled by nested or escaped ids at the end', () => {
    expect(sniffTail(b('{"result":{"id":5}}'))).toBeUndefined();
    expect(sniffTail(b('"text":"x\\",\\"id\\":5}"}'))).toBeUndefined();
    expect(sniffTail(b('"x":["id",1],"id":2}'))).toBe(2);
  });

  it('tells the kind of message from its first key', () => {
    expect(sniffHead(b('{"result":'))).toEqual({ kind: 'result' });
    expect(sniffHead(b('{"jsonrpc":"2.0","method":"a","id":2}'))).toEqual({ kind: 'request', id: 2 });
    expect(sniffHead(b('{"jsonrpc":"2.0","id":2,"error":{"code":1}}'))).toEqual({ kind: 'error', id: 2 });
  });
});
