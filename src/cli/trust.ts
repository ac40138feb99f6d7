import { resolve } from 'node:path';
import type { SupervisorConfig } from '../config/types.js';
import { buildChildEnv } from '../process/child-env.js';
import { computeFingerprint, type FingerprintFacts } from '../trust/fingerprint.js';
import { MASK, maskArgs, maskHeaders, maskInline } from '../trust/mask.js';
import { TrustStoreError } from '../trust/trust-error.js';
import { parseTrustKey, trustKey } from '../trust/trust-key.js';
import { TrustStore } from '../trust/trust-store.js';
import { displayCommand } from './approval.js';
import { checkServerIds, readConfigFile } from './config-file.js';
import { CliError } from './errors.js';
import { trustStorePath } from './store-path.js';

type Write = (s: string) => void;
const out: Write = (s) => void process.stdout.write(s);

/** `trust list`: every trusted server with its fingerprint, approval time, command line and pinned tools. */
export async function trustListCommand(store: string | undefined, write: Write = out): Promise<number> {
  const ts = await openStore(store);
  const records = ts.list();
  if (records.length === 0) {
    write(`no trusted servers in ${ts.path}\n`);
    return 0;
  }
  const width = Math.max(2, ...records.map((r) => r.id.length));
  write(`${'ID'.padEnd(width)}  FINGERPRINT   APPROVED                  TOOLS  COMMAND\n`);
  // The config file on a line of its own under each record: a path is often wider than the rest together.
  for (const r of records) {
    const tools = r.tools === undefined ? '-' : String(Object.keys(r.tools).length);
    const cmd = r.facts.remote
      ? remoteShown(r.facts.remote)
      : displayCommand(r.facts.command, maskArgs(r.facts.args));
    write(
      `${r.id.padEnd(width)}  ${r.fingerprint.slice(0, 12)}  ${r.approvedAt.padEnd(24)}  ${tools.padEnd(5)}  ${cmd}\n`,
    );
    write(`${' '.repeat(width)}  for ${r.config ?? '(any config: an approval kept by id alone)'}\n`);
  }
  write(`(${records.length} in ${ts.path})\n`);
  return 0;
}

/** `trust add <config> <id>`: trusts the server's current command line without starting it. */
export async function trustAddCommand(
  configPath: string,
  id: string,
  store: string | undefined,
  write: Write = out,
): Promise<number> {
  const config = await readConfigFile(configPath);
  checkServerIds(config, [id], 'trust add');
  const server = serverOf(config, id);
  const ts = await openStore(store);
  // The same PATH the gate resolves the command with: the child's, not this shell's.
  const childPath = buildChildEnv(process.env, server.inheritEnv, server.env).PATH;
  const { fingerprint, facts } = await computeFingerprint(
    server,
    childPath !== undefined ? { pathEnv: childPath } : {},
  );
  await guard(() => ts.approve(trustKey(id, config.file), fingerprint, facts));
  write(
    `trusted '${id}' (${fingerprint.slice(0, 12)}): ${facts.remote ? remoteShown(facts.remote) : displayCommand(server.command, maskArgs(facts.args))}\n`,
  );
  return 0;
}

/**
 * `trust revoke <id> [--config <path>]`: forgets a server, so its next start asks again. Without `--config` the id
 * must name one record; with several (one per config file) the error lists them.
 */
export async function trustRevokeCommand(
  id: string,
  store: string | undefined,
  configPath?: string,
  write: Write = out,
): Promise<number> {
  const ts = await openStore(store);
  const keys = configPath === undefined ? ts.keysOf(id) : [trustKey(id, resolve(configPath))];
  if (keys.length > 1) {
    const configs = keys.map((k) => parseTrustKey(k).config ?? '(by id alone)');
    throw new CliError(
      'trust_store',
      `'${id}' is trusted for ${keys.length} configs; say which with --config <path>: ${configs.join(', ')}`,
    );
  }
  const removed = keys.length === 1 && (await guard(() => ts.revoke(keys[0]!)));
  if (!removed) {
    const where = configPath === undefined ? '' : ` for ${resolve(configPath)}`;
    throw new CliError('trust_store', `'${id}'${where} is not in the trust store ${ts.path}`);
  }
  write(`revoked '${id}'${configPath === undefined ? '' : ` for ${resolve(configPath)}`}\n`);
  return 0;
}

function serverOf(config: SupervisorConfig, id: string) {
  return config.servers.find((s) => s.id === id)!;
}

async function openStore(flag: string | undefined): Promise<TrustStore> {
  return guard(() => TrustStore.open(trustStorePath(flag)));
}

// Store failures (corrupt file, permissions) are the user's to fix: one line, no stack.
async function guard<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof TrustStoreError)
      throw new CliError('trust_store', `trust store ${err.path}: ${err.message}`);
    throw err;
  }
}

/** A url server in the store: its URL and header names, values masked (only their hashes are kept, or `${VAR}`). */
function remoteShown(remote: NonNullable<FingerprintFacts['remote']>): string {
  const shown = remote.headersAsWritten
    ? maskHeaders(remote.headersAsWritten)
    : Object.fromEntries(Object.keys(remote.headers).map((name) => [name, MASK]));
  const headers = Object.entries(shown).map(([name, value]) => `${name}: ${value}`);
  return `${maskInline(remote.url)}${headers.length > 0 ? ` (headers ${headers.join(', ')})` : ''}`;
}
