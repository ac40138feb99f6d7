// One 32 MiB tool result: ours flattens and caps it on a worker; the SDK's stdio transport has a buffer limit.
import { cappedOk } from './call-rounds.js';
import { connectSdk, startOurs } from './contenders.js';
import { measureLoop } from './loop.js';
import { fullGc } from './memory.js';

const MiB = 1024 * 1024;

/** Ours: each 32 MiB call, and what came back. */
export interface OursHuge {
  wallMs: number;
  msPerMiB: number;
  /** Main-thread CPU (schedstat) per MiB: unlike ELU, not inflated by waiting for a core. */
  cpuMsPerMiB: number;
  p99Ms: number;
  ok: boolean;
  answerBytes: number;
}

/** What the SDK did with the same call. */
export interface SdkHuge {
  label: string;
  wallMs: number;
  msPerMiB: number;
  p99Ms: number;
  /** `ok` or the rejection's message. */
  outcome: string;
  /** Distinct messages its `onerror` saw, in order. */
  errors: string[];
  /** From the call to the first `onerror`, ms (NaN when there was none). */
  firstErrorMs: number;
  /** Whether a small call still worked afterwards on the same client. */
  usableAfter: boolean;
}

/** `rounds` calls of `big` with `bytes` through our supervisor. */
export async function oursHuge(bytes: number, rounds: number): Promise<OursHuge[]> {
  const ours = await startOurs();
  const out: OursHuge[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      fullGc();
      const { value, cost } = await measureLoop(() => ours.call('big', { bytes }));
      out.push({
        wallMs: cost.wallMs,
        msPerMiB: cost.activeMs / (bytes / MiB),
        cpuMsPerMiB: cost.cpuMs / (bytes / MiB),
        p99Ms: cost.p99Ms,
        ok: cappedOk(value),
        answerBytes: Buffer.byteLength(value),
      });
    }
  } finally {
    await ours.close();
  }
  return out;
}

/** One call of `big` with `bytes` through a fresh SDK client (default options unless `maxBufferSize`). */
export async function sdkHuge(bytes: number, label: string, maxBufferSize?: number): Promise<SdkHuge> {
  const errors: string[] = [];
  let t0 = Number.NaN;
  let firstErrorMs = Number.NaN;
  const onError = (err: Error) => {
    if (Number.isNaN(firstErrorMs)) firstErrorMs = performance.now() - t0;
    if (!errors.includes(err.message)) errors.push(err.message);
  };
  const sdk = await connectSdk({ onError, ...(maxBufferSize !== undefined ? { maxBufferSize } : {}) });
  try {
    fullGc();
    const { value, cost } = await measureLoop(async () => {
      t0 = performance.now();
      try {
        const text = await sdk.call('big', { bytes });
        return text.length === bytes ? 'ok' : `wrong length ${text.length}`;
      } catch (err) {
        return (err as Error).message;
      }
    });
    let usableAfter = false;
    try {
      usableAfter = (await sdk.call('echo', { text: 'after' })) === 'after';
    } catch {
      usableAfter = false;
    }
    return {
      label,
      wallMs: cost.wallMs,
      msPerMiB: cost.activeMs / (bytes / MiB),
      p99Ms: cost.p99Ms,
      outcome: value,
      errors: errors.map((m) => (m.length > 160 ? `${m.slice(0, 160)}…` : m)),
      firstErrorMs,
      usableAfter,
    };
  } finally {
    await sdk.close();
  }
}
