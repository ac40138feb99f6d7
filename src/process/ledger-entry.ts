import type { LedgerEntry } from './ledger.js';
import { unsafeGroup } from './ledger.js';

/** Why an entry of an on-disk ledger is not acted on. */
export type IgnoredCode = 'UNPARSABLE' | 'UNSAFE_PGID';

const KINDS = new Set(['cgroup', 'pidns', 'pgroup']);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Checks one group entry read from a ledger file. A file is data another process wrote (or anyone who could write
 * the state directory): a group id of 0, 1 or our own would make a kill hit us or everything, so such an entry,
 * and one with a field missing or of the wrong type, is refused with a code rather than guessed at.
 */
export function parseLedgerEntry(
  raw: unknown,
):
  | { ok: true; entry: LedgerEntry }
  | { ok: false; code: IgnoredCode; server: string | null; detail: string } {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const server = typeof r.serverId === 'string' ? r.serverId : null;
  const bad = (code: IgnoredCode, detail: string) => ({ ok: false as const, code, server, detail });
  if (server === null) return bad('UNPARSABLE', 'serverId is not a string');
  if (!isInt(r.pgid)) return bad('UNPARSABLE', `pgid ${JSON.stringify(r.pgid)} is not a pid`);
  if (unsafeGroup(r.pgid))
    return bad('UNSAFE_PGID', `pgid ${r.pgid} is 0, 1, or this host's own process or group`);
  if (!isInt(r.procStart)) return bad('UNPARSABLE', 'procStart (the leader start time) is missing');
  if (r.containment !== undefined && !KINDS.has(r.containment as string))
    return bad('UNPARSABLE', `containment ${JSON.stringify(r.containment)} is unknown`);
  if (r.cgroup !== undefined && typeof r.cgroup !== 'string')
    return bad('UNPARSABLE', 'cgroup is not a path');
  let init: LedgerEntry['init'];
  if (r.init !== undefined) {
    const i = (typeof r.init === 'object' && r.init !== null ? r.init : {}) as Record<string, unknown>;
    if (!isInt(i.pid) || i.pid <= 1 || !isInt(i.procStart))
      return bad('UNPARSABLE', 'init is not a pid with its start time');
    init = { pid: i.pid, procStart: i.procStart };
  }
  return {
    ok: true,
    entry: {
      pgid: r.pgid,
      serverId: server,
      startedAt: isInt(r.startedAt) ? r.startedAt : 0,
      procStart: r.procStart,
      ...(r.containment !== undefined
        ? { containment: r.containment as LedgerEntry['containment'] & string }
        : {}),
      ...(typeof r.cgroup === 'string' ? { cgroup: r.cgroup } : {}),
      ...(init ? { init } : {}),
    },
  };
}
