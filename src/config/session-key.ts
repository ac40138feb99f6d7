// `serve.sessionKey` (or `--session-key-file`): the 32 bytes that seal session ids.

/** Reads a session key: 32 bytes written as 64 hex digits or as base64 (standard or URL-safe); else why not. */
export function parseSessionKey(text: string): { ok: true; key: Buffer } | { ok: false; message: string } {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t)
    ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(t)
      ? Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : undefined;
  if (key?.length === 32) return { ok: true, key };
  return {
    ok: false,
    message: 'expected 32 random bytes, as 64 hex digits or base64 (openssl rand -hex 32)',
  };
}
