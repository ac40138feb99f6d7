// Items of the OS keyring, read, stored and deleted as data: an outcome, or a `SecretFailure` whose words never
// carry a value. On Linux the keyring is the Secret Service on the session bus that DBUS_SESSION_BUS_ADDRESS names;
// each call reads that variable afresh to probe the bus. The library itself (libdbus) reads it once, at the first
// call a process makes, and keeps that bus: a process that moves to another bus mid-run is probed on the new one
// but served by the first.
import { keyringRef } from './keyring-item.js';
import type { KeyringAnswer, KeyringJob } from './keyring-job.js';
import { runKeyringJob } from './keyring-thread.js';
import type { SecretFailure } from './reference.js';
import { probeSessionBus } from './session-bus.js';

/** How long one keyring operation may take, probe of the bus included, before it counts as unreachable. */
export const KEYRING_TIMEOUT_MS = 5000;

export interface KeyringOptions {
  /** The reference as the config wrote it, carried by a failure (default `${keyring:SERVICE/ACCOUNT}`). */
  ref?: string;
  /** The bound on the whole operation in ms (default `KEYRING_TIMEOUT_MS`). */
  timeoutMs?: number;
}

export type KeyringRead = { ok: true; value: string } | { ok: false; failure: SecretFailure };
export type KeyringDone = { ok: true } | { ok: false; failure: SecretFailure };

/** The item's value; `keyring_missing` when there is no such item. */
export async function readKeyring(
  service: string,
  account: string,
  options: KeyringOptions = {},
): Promise<KeyringRead> {
  const asked = await ask({ op: 'read', service, account }, options);
  if (!asked.ok) return asked;
  const { answer, fail } = asked;
  if (!answer.found) return fail('keyring_missing', `the keyring has no item ${described(service, account)}`);
  if (answer.value === undefined)
    return fail('malformed', `the keyring item ${described(service, account)} is not UTF-8 text`);
  return { ok: true, value: answer.value };
}

/** Stores `value` as the item, replacing what it held. */
export async function storeKeyring(
  service: string,
  account: string,
  value: string,
  options: KeyringOptions = {},
): Promise<KeyringDone> {
  const asked = await ask({ op: 'store', service, account, value }, options);
  return asked.ok ? { ok: true } : asked;
}

/** Deletes the item; `keyring_missing` when there was none. */
export async function deleteKeyring(
  service: string,
  account: string,
  options: KeyringOptions = {},
): Promise<KeyringDone> {
  const asked = await ask({ op: 'delete', service, account }, options);
  if (!asked.ok) return asked;
  if (!asked.answer.found)
    return asked.fail('keyring_missing', `the keyring has no item ${described(service, account)}`);
  return { ok: true };
}

type Fail = (reason: SecretFailure['reason'], detail: string) => { ok: false; failure: SecretFailure };

/** Probes the bus, then runs the job on its thread, all within the bound; the answer, or the failure. */
async function ask(
  job: KeyringJob,
  options: KeyringOptions,
): Promise<
  { ok: true; answer: KeyringAnswer & { ok: true }; fail: Fail } | { ok: false; failure: SecretFailure }
> {
  const ref = options.ref ?? keyringRef(job);
  const fail: Fail = (reason, detail) => ({
    ok: false,
    failure: { code: 'SECRET_UNAVAILABLE', reason, ref, detail },
  });
  if (job.service === '' || job.account === '')
    return fail('malformed', 'a keyring item needs a service and an account, both non-empty');
  const ms = options.timeoutMs ?? KEYRING_TIMEOUT_MS;
  const end = Date.now() + ms;
  if (usesSessionBus()) {
    const probe = await probeSessionBus(process.env['DBUS_SESSION_BUS_ADDRESS'], ms);
    if (!probe.ok) return fail('keyring_unreachable', `no keyring reachable: ${probe.words}`);
  }
  const answer = await runKeyringJob(job, Math.max(1, end - Date.now()));
  if (answer.ok) return { ok: true, answer, fail };
  const detail =
    answer.cause === 'unreachable'
      ? `no keyring reachable: ${answer.words}`
      : `the keyring refused the item ${described(job.service, job.account)}: ${answer.words}`;
  return fail('keyring_unreachable', detail);
}

/** Where the library's keyring is the Secret Service, reached over D-Bus. */
function usesSessionBus(): boolean {
  return process.platform === 'linux' || process.platform === 'freebsd';
}

function described(service: string, account: string): string {
  return `for service '${service}', account '${account}'`;
}
