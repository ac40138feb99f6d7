import type { FrameEvent, LineFramer } from '../../src/framing/line-framer.js';
import type { DecodedEvent, JsonRpcId, ResultRequest } from '../../src/framing/stream-decoder.js';

/** Polls until `done()` holds, failing after `ms`. */
export async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Copies `bytes` into chunks of `size` that each own their ArrayBuffer, as a child's stdout delivers them. */
export function ownedChunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.slice(at, at + size));
  return out;
}

/** A deterministic resultFor: numeric ids ≡ 0 mod 3 want text, ≡ 1 want a capped result, the rest nothing. */
export function resultForById(maxBytes: number): (id: JsonRpcId) => ResultRequest | undefined {
  return (id) => {
    if (typeof id !== 'number') return undefined;
    if (id % 3 === 0) return { mode: 'text', maxBytes };
    if (id % 3 === 1) return { mode: 'result', maxBytes };
    return undefined;
  };
}

/** A tools/call result line of roughly `size` bytes, in the key order the MCP SDK writes or the canonical one. */
export function toolResultLine(id: JsonRpcId, size: number, sdkOrder = false, char = 'x'): string {
  const result = { content: [{ type: 'text', text: char.repeat(Math.max(0, size - 80)) }] };
  return JSON.stringify(sdkOrder ? { result, jsonrpc: '2.0', id } : { jsonrpc: '2.0', id, result });
}

export type { DecodedEvent };

/** Cuts `bytes` at the given offsets (taken modulo the length, sorted, deduplicated), dropping empty pieces. */
export function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    if (p > at) out.push(bytes.slice(at, p));
    at = Math.max(at, p);
  }
  if (at < bytes.length) out.push(bytes.slice(at));
  return out;
}

/** Pushes every chunk through a framer, then ends it; every event in order. */
export function feed(framer: LineFramer, chunks: Uint8Array[]): FrameEvent[] {
  const events: FrameEvent[] = [];
  for (const c of chunks) events.push(...framer.push(c));
  events.push(...framer.end());
  return events;
}
