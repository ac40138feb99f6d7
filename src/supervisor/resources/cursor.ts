import { isRecord } from '../../framing/is-record.js';

/** Where a walk over the fleet's resources stands: a server, and that server's own cursor within its list. */
export interface ResourceCursor {
  s: string;
  c?: string;
}

/** The cursor `listResources` hands out: opaque to clients, base64url of JSON. */
export function encodeCursor(at: ResourceCursor): string {
  return Buffer.from(JSON.stringify(at)).toString('base64url');
}

/** The position a cursor names, or undefined for one this supervisor did not make. */
export function decodeCursor(cursor: string): ResourceCursor | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!isRecord(v) || typeof v.s !== 'string') return undefined;
    if (v.c !== undefined && typeof v.c !== 'string') return undefined;
    return v.c === undefined ? { s: v.s } : { s: v.s, c: v.c };
  } catch {
    return undefined;
  }
}
