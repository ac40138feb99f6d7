// The keyring thread: one job, one answer, then the thread ends. @napi-rs/keyring is synchronous where it
// matters — an entry dials the session bus as it is made, on the calling thread — so it runs here, never on the
// main thread, whose event loop a slow or prompting keyring would otherwise hold.
import { parentPort, workerData } from 'node:worker_threads';
import { Entry } from '@napi-rs/keyring';
import type { KeyringAnswer, KeyringJob } from './keyring-job.js';

function runJob(job: KeyringJob): KeyringAnswer {
  try {
    // Pinned to the Secret Service: left to choose, the library falls back to the kernel keyring when no Secret
    // Service answers, and a value stored there is gone at the next reboot. (Ignored off Linux.)
    const entry = new Entry(job.service, job.account, { linux: { store: 'secret-service' } });
    if (job.op === 'store') {
      entry.setPassword(job.value);
      return { ok: true, found: true };
    }
    if (job.op === 'delete') return { ok: true, found: entry.deleteCredential() };
    const bytes = entry.getSecret();
    if (bytes === null) return { ok: true, found: false };
    try {
      return {
        ok: true,
        found: true,
        value: new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes)),
      };
    } catch {
      return { ok: true, found: true, notText: true };
    }
  } catch (err) {
    const words = wordsOf(err, job);
    return { ok: false, cause: UNREACHABLE.test(words) ? 'unreachable' : 'refused', words };
  }
}

/**
 * The library's errors all carry one code (GenericFailure); its words tell a store it could not reach (keyring's
 * PlatformFailure and NoStorageAccess) from one that answered and refused (an item matched twice, a name too long).
 */
const UNREACHABLE = /^(Platform failure|Couldn't access platform storage)/;

/** The library's message on one line, with the value being stored masked should the library ever repeat it. */
function wordsOf(err: unknown, job: KeyringJob): string {
  const text = (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ').trim();
  return job.op === 'store' && job.value !== '' ? text.replaceAll(job.value, '***') : text;
}

parentPort?.postMessage(runJob(workerData as KeyringJob));
