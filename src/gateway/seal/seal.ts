import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Past this a token is refused unread: what we seal is a few hundred bytes, a server's state a few KiB. */
const MAX_TOKEN_CHARS = 64 * 1024;

/**
 * Seals `value` as JSON under the key: AES-256-GCM, a fresh IV each time, URL-safe and header-safe. The prefix
 * names the kind and is bound into the tag (as associated data), so a token of one kind never opens as another's
 * even under the same key.
 */
export function sealJson(key: Buffer, prefix: string, value: unknown): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(prefix, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return prefix + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/**
 * What a token {@link sealJson} made under this key and prefix holds, or undefined for anything else: another
 * key's or kind's, altered, made up, or not sealed at all — one answer for all, so nothing is learnt from it.
 */
export function openJson(key: Buffer, prefix: string, token: string): unknown {
  if (!token.startsWith(prefix) || token.length > MAX_TOKEN_CHARS) return undefined;
  const text = token.slice(prefix.length);
  const raw = Buffer.from(text, 'base64url');
  // Only the one spelling we write: unused low bits of the last character would otherwise name the same bytes.
  if (raw.length < IV_BYTES + TAG_BYTES + 2 || raw.toString('base64url') !== text) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(prefix, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
}
