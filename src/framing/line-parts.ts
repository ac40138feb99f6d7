import type { FramePart } from './frame-job.js';

/** Pieces smaller than this are copied rather than transferred: a transfer has its own fixed cost. */
export const MIN_TRANSFER_BYTES = 16 * 1024;

/**
 * True when a chunk is the only view of its whole ArrayBuffer, so the buffer may be transferred. A small pooled
 * Buffer shares an 8 KiB slab with others, and a view may cover part of a larger buffer: those are copied.
 */
export function ownsWholeBuffer(chunk: Uint8Array): boolean {
  return (
    chunk.buffer instanceof ArrayBuffer &&
    chunk.byteOffset === 0 &&
    chunk.byteLength === chunk.buffer.byteLength
  );
}

/**
 * Packs a line's pieces for a worker: pieces in buffers the stream owns are transferred as they are (offset and
 * length passed along), the rest, including the piece that shares its chunk with the next line, are copied
 * into one fresh buffer per run of consecutive pieces, which is transferred too.
 */
export function packLineParts(
  pieces: readonly Uint8Array[],
  lastShared: boolean,
  owned: WeakSet<ArrayBuffer>,
): { parts: FramePart[]; transfer: ArrayBuffer[] } {
  const parts: FramePart[] = [];
  const transfer = new Set<ArrayBuffer>();
  let run: Uint8Array[] = [];
  let runBytes = 0;
  const flush = () => {
    if (runBytes === 0) return;
    const copy = new Uint8Array(runBytes);
    let at = 0;
    for (const p of run) {
      copy.set(p, at);
      at += p.byteLength;
    }
    parts.push({ buffer: copy.buffer, offset: 0, length: runBytes });
    transfer.add(copy.buffer);
    run = [];
    runBytes = 0;
  };
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const buffer = p.buffer as ArrayBuffer;
    const shared = lastShared && i === pieces.length - 1;
    if (!shared && p.byteLength >= MIN_TRANSFER_BYTES && owned.has(buffer) && !transfer.has(buffer)) {
      flush();
      parts.push({ buffer, offset: p.byteOffset, length: p.byteLength });
      transfer.add(buffer);
    } else {
      run.push(p);
      runBytes += p.byteLength;
    }
  }
  flush();
  return { parts, transfer: [...transfer] };
}
