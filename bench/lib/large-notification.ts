// One 8 MiB notification of dense JSON arriving from a server (fixture `--large-lines`, tool `large_log`): how long
// the host's event loop stalls at most, ours against the SDK client, and ours without worker threads beside it.
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { BenchError } from './bench-error.js';
import { type Contender, connectSdk, startBareConnection, startOurs } from './contenders.js';
import { CALL_TIMEOUT_MS } from './fixture-fleet.js';
import { interleave } from './interleave.js';
import { type LoopCost, measureLoop } from './loop.js';

const ARGS = ['--large-lines', '1'];
const settle = () => new Promise((r) => setTimeout(r, 5));

/** What each side's loop went through while one notification of `bytes` arrived (then the call's answer). */
export interface NotificationFigures {
  bytes: number;
  ours: LoopCost[];
  /** A bare connection without the frame pool: every line parsed on the main thread. */
  inline: LoopCost[];
  sdk: LoopCost[];
}

/** A bare McpConnection with no pool: what the worker split is measured against. */
const startInline = () => startBareConnection(undefined, { args: ARGS, inline: true });

/** The SDK client, with a handler for log messages as a host that shows them would have. */
async function startSdk(): Promise<Contender> {
  const { client, transport } = await connectSdk({ args: ARGS });
  let logs = 0;
  client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
    logs++;
  });
  const limits = { timeout: CALL_TIMEOUT_MS, maxTotalTimeout: CALL_TIMEOUT_MS };
  return {
    pid: () => transport.pid ?? undefined,
    call: async (tool, args) => {
      const before = logs;
      const result = await client.callTool({ name: tool, arguments: args }, undefined, limits);
      const first = (result.content as Array<{ text?: string }> | undefined)?.[0];
      return logs > before ? (first?.text ?? '') : 'no log seen';
    },
    close: () => client.close(),
  };
}

/** `rounds` interleaved rounds of one `bytes` notification through each contender. */
export async function largeNotificationRounds(bytes: number, rounds: number): Promise<NotificationFigures> {
  const started: Contender[] = [];
  try {
    const ours = await startOurs('bypass', ARGS);
    started.push(ours);
    const inline = await startInline();
    started.push(inline);
    const sdk = await startSdk();
    started.push(sdk);
    const once = (c: Contender) => async () => {
      const { value, cost } = await measureLoop(async () => {
        const answer = await c.call('large_log', { bytes });
        // a stall that ends with the answer is booked by the delay monitor's next timer tick, not before it
        await settle();
        return answer;
      });
      if (value !== `sent ${bytes}`) throw new BenchError('WRONG_ANSWER', `large_log answered ${value}`);
      return cost;
    };
    for (const c of started) await once(c)();
    const out = await interleave(rounds, { ours: once(ours), inline: once(inline), sdk: once(sdk) });
    return { bytes, ...out };
  } finally {
    await Promise.allSettled(started.map((c) => c.close()));
  }
}
