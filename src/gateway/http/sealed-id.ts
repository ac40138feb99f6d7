import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What a sealed `Mcp-Session-Id` carries: enough for any replica with the key to take the session up. */
export interface SealedSession {
  /** The protocol version the initialize negotiated. */
  v: string;
  /** The client's `initialize` params: its capabilities and clientInfo, as it sent them. */
  caps: Record<string, unknown>;
  info: Record<string, unknown>;
  /** The caller the session is bound to (the bearer token's id); absent without auth. */
  caller?: string;
  /** ms since the epoch after which no replica accepts it. */
  exp: number;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Marks the format, so a later one can be told apart (and an unsealed UUID is never mistaken for one). */
const PREFIX = 's1.';

/** Seals a session under the key: AES-256-GCM, a fresh IV each time, the result URL-safe and header-safe. */
export function sealSession(key: Buffer, session: SealedSession): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/**
 * The session an id seals under this key, or undefined for anything else: another key's, altered, made up, not
 * sealed at all, or expired at `now`. Every such id is the same answer (404), so nothing is learnt from it.
 */
export function openSession(key: Buffer, id: string, now: number): SealedSession | undefined {
  if (!id.startsWith(PREFIX) || id.length > 16 * 1024) return undefined;
  const text = id.slice(PREFIX.length);
  const raw = Buffer.from(text, 'base64url');
  // Only the one spelling we write: unused low bits of the last character would otherwise name the same bytes.
  if (raw.length < IV_BYTES + TAG_BYTES + 2 || raw.toString('base64url') !== text) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const text = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]);
    const session = JSON.parse(text.toString('utf8')) as SealedSession;
    if (typeof session.exp !== 'number' || session.exp <= now || typeof session.v !== 'string')
      return undefined;
    return session;
  } catch {
    return undefined;
  }
}
