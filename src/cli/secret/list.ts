// `secret list CONFIG`: every secret reference a config uses, where, and whether it can be read now — never a value.
import type { SupervisorConfig } from '../../config/types.js';
import { fieldValue } from '../../secrets/field.js';
import { readSecret } from '../../secrets/read.js';
import type { SecretReference } from '../../secrets/reference.js';
import { pieces } from '../../secrets/scan.js';
import { readConfigFile } from '../config-file.js';

/** One reference of the config and how reading it went. */
export interface SecretRow {
  /** The server's id, or `serve` for a token of `serve.auth` or the session key. */
  owner: string;
  /** Where it stands: `env.TOKEN`, `args.2`, `remote.headers.Authorization`, `serve.auth.tokens[0]`. */
  field: string;
  ref: string;
  kind: SecretReference['kind'];
  /** `ok`, or why it cannot be read (`file_missing`, `keyring_missing`, `keyring_unreachable`, …). */
  status: string;
  /** Why not, for people (names the reference, never a value). */
  detail?: string;
}

/** The references of a config: each server's secret fields, then `serve.auth`'s tokens and `serve.sessionKey`. */
function references(config: SupervisorConfig): Array<{ owner: string; field: string; text: string }> {
  const out: Array<{ owner: string; field: string; text: string }> = [];
  for (const server of config.servers) {
    for (const field of server.secretFields ?? []) {
      const text = fieldValue(server, field);
      if (typeof text === 'string') out.push({ owner: server.id, field, text });
    }
  }
  for (const [i, t] of (config.serve?.auth?.tokens ?? []).entries())
    if (t.secret) out.push({ owner: 'serve', field: `serve.auth.tokens[${i}]`, text: t.token });
  const key = config.serve?.sessionKey;
  if (config.serve?.sessionKeySecret && key !== undefined)
    out.push({ owner: 'serve', field: 'serve.sessionKey', text: key });
  return out;
}

/** Reads every reference once (the value is dropped at once) and says how it went. */
export async function secretRows(config: SupervisorConfig): Promise<SecretRow[]> {
  const rows: SecretRow[] = [];
  for (const { owner, field, text } of references(config)) {
    for (const piece of pieces(text)) {
      if (!('secret' in piece)) continue;
      const got = await readSecret(piece.secret);
      const base = { owner, field, ref: piece.secret.ref, kind: piece.secret.kind };
      rows.push(
        got.ok
          ? { ...base, status: 'ok' }
          : { ...base, status: got.failure.reason, detail: got.failure.detail },
      );
    }
  }
  return rows;
}

/** Prints the table (or `--json`); exit 1 when one cannot be read, as a start of its server would fail. */
export async function secretListCommand(
  configPath: string,
  flags: { json?: boolean },
  write: (s: string) => void = (s) => void process.stdout.write(s),
): Promise<number> {
  const rows = await secretRows(await readConfigFile(configPath));
  if (flags.json) write(`${JSON.stringify({ config: configPath, secrets: rows })}\n`);
  else if (rows.length === 0) write(`${configPath} names no secret\n`);
  else {
    const cells = rows.map((r) => [
      r.owner,
      r.field,
      r.ref,
      r.status === 'ok' ? 'ok' : `${r.status}: ${r.detail ?? ''}`,
    ]);
    const head = ['SERVER', 'FIELD', 'REFERENCE', 'STATUS'];
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
    for (const row of [head, ...cells])
      write(`${row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')}\n`);
  }
  return rows.every((r) => r.status === 'ok') ? 0 : 1;
}
