// One large `resources/read` answer (text: lines of source with quotes and a tab, so its JSON has escapes) from a
// server (fixture `--resources 1`, unlisted URI `fixture://big/<bytes>`): the host's busy time and worst stall
// while it arrives, ours against the SDK client. The caller needs the whole text, so nothing is capped: what is
// measured is where it is parsed.
import { BenchError } from './bench-error.js';
import { connectSdk, startOurs } from './contenders.js';
import { CALL_TIMEOUT_MS } from './fixture-fleet.js';
import { interleave } from './interleave.js';
import { type LoopCost, measureLoop } from './loop.js';

const ARGS = ['--resources', '1'];
const settle = () => new Promise((r) => setTimeout(r, 5));

export interface ReadFigures {
  bytes: number;
  ours: LoopCost[];
  sdk: LoopCost[];
}

interface Reader {
  /** The length of the text read. */
  read(): Promise<number>;
  close(): Promise<void>;
}

async function oursReader(bytes: number): Promise<Reader> {
  const ours = await startOurs('bypass', ARGS);
  const uri = ours.sup.resourceUriOf('fx', `fixture://big/${bytes}`);
  return {
    read: async () => {
      const out = await ours.sup.readResource(uri);
      if (!out.ok) throw new BenchError('WRONG_ANSWER', `our read failed: ${out.code}: ${out.message}`);
      const first = out.contents[0];
      return first && 'text' in first && typeof first.text === 'string' ? first.text.length : -1;
    },
    close: () => ours.close(),
  };
}

async function sdkReader(bytes: number): Promise<Reader> {
  const { client } = await connectSdk({ args: ARGS });
  const limits = { timeout: CALL_TIMEOUT_MS, maxTotalTimeout: CALL_TIMEOUT_MS };
  return {
    read: async () => {
      const out = await client.readResource({ uri: `fixture://big/${bytes}` }, limits);
      const first = out.contents[0];
      return first && 'text' in first && typeof first.text === 'string' ? first.text.length : -1;
    },
    close: () => client.close(),
  };
}

/** `rounds` interleaved rounds of one read of `bytes` through ours and the SDK client. */
export async function largeReadRounds(bytes: number, rounds: number): Promise<ReadFigures> {
  const started: Reader[] = [];
  try {
    const ours = await oursReader(bytes);
    started.push(ours);
    const sdk = await sdkReader(bytes);
    started.push(sdk);
    const once = (r: Reader) => async () => {
      const { value, cost } = await measureLoop(async () => {
        const length = await r.read();
        // a stall that ends with the answer is booked by the delay monitor's next timer tick, not before it
        await settle();
        return length;
      });
      if (value !== bytes) throw new BenchError('WRONG_ANSWER', `read ${value} characters, not ${bytes}`);
      return cost;
    };
    for (const r of started) await once(r)();
    const out = await interleave(rounds, { ours: once(ours), sdk: once(sdk) });
    return { bytes, ...out };
  } finally {
    await Promise.allSettled(started.map((r) => r.close()));
  }
}
