import { createHash, randomBytes } from 'node:crypto';

/**
 * What each running server's secrets were at its start, as a salted digest held in memory only: a reload asks
 * whether they changed since (a rotated token restarts its server) without keeping any value.
 */
export class SecretDigests {
  private readonly salt = randomBytes(16);
  private readonly digests = new Map<string, string>();

  digest(values: readonly string[]): string {
    const h = createHash('sha256').update(this.salt);
    for (const v of values) h.update(`${v.length}:`).update(v);
    return h.digest('hex');
  }

  /** The secrets a server started with (none: it reads none). */
  started(id: string, values: readonly string[]): void {
    if (values.length === 0) this.digests.delete(id);
    else this.digests.set(id, this.digest(values));
  }

  /** True when `values` differ from what the server's current run started with; false when it has none recorded. */
  differ(id: string, values: readonly string[]): boolean {
    const before = this.digests.get(id);
    return before !== undefined && before !== this.digest(values);
  }
}
