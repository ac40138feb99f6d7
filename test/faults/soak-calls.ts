/** One call the soak makes: what to send, its timeout, and what a correct non-error answer looks like. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
  timeoutMs: number;
  /** True when a non-`ERROR: ` answer is the right one for this very call (no cross-talk, no corruption). */
  expect(text: string): boolean;
}

/** A small seeded PRNG (mulberry32), so that a soak run can be replayed from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The cap every soak server has (the fixtureServer default). */
export const SOAK_MAX_RESULT_BYTES = 65536;
const CALL_MS = 3000;

type Maker = (random: () => number, i: number) => Omit<PlannedCall, 'name'> & { tool: string };

// Weighted mix: mostly small calls, some large (the pool path) and some that fail, hang or crash the server.
const MIX: Array<[number, Maker]> = [
  [
    45,
    (random, i) => {
      const text = `c${i}-${Math.floor(random() * 1e9)}-é🎉`;
      return { tool: 'echo', args: { text }, timeoutMs: CALL_MS, expect: (t) => t === text };
    },
  ],
  [
    14,
    (random) => {
      const a = Math.floor(random() * 1e6);
      const b = Math.floor(random() * 1e6);
      return { tool: 'add', args: { a, b }, timeoutMs: CALL_MS, expect: (t) => t === String(a + b) };
    },
  ],
  [
    10,
    (random) => ({
      tool: 'slow',
      args: { ms: Math.floor(random() * 80) },
      timeoutMs: CALL_MS,
      expect: (t) => t === 'done',
    }),
  ],
  [
    8,
    (random) => {
      const bytes = 1 + Math.floor(random() * 200_000);
      const fits = bytes <= SOAK_MAX_RESULT_BYTES;
      return {
        tool: 'big',
        args: { bytes },
        timeoutMs: CALL_MS,
        expect: (t) =>
          fits
            ? t.length === bytes && /^x*$/.test(t)
            : Buffer.byteLength(t) <= SOAK_MAX_RESULT_BYTES && /^x+… \[truncated \d+ bytes\]$/.test(t),
      };
    },
  ],
  [
    4,
    () => ({ tool: 'mixed', args: {}, timeoutMs: CALL_MS, expect: (t) => t.startsWith('mixed\n[image: ') }),
  ],
  [3, () => ({ tool: 'pid', args: {}, timeoutMs: CALL_MS, expect: (t) => /^\d+$/.test(t) })],
  [5, (_r, i) => ({ tool: 'fail', args: { message: `f${i}` }, timeoutMs: CALL_MS, expect: () => false })],
  [3, () => ({ tool: 'error', args: {}, timeoutMs: CALL_MS, expect: () => false })],
  [
    7,
    (random) => ({
      tool: 'hang',
      args: {},
      timeoutMs: 50 + Math.floor(random() * 250),
      expect: () => false,
    }),
  ],
  [1, () => ({ tool: 'crash', args: {}, timeoutMs: CALL_MS, expect: () => false })],
];
const TOTAL = MIX.reduce((n, [w]) => n + w, 0);

/** Picks the i-th call of a run, for one server. */
export function pickCall(random: () => number, serverId: string, i: number): PlannedCall {
  let roll = random() * TOTAL;
  for (const [weight, make] of MIX) {
    roll -= weight;
    if (roll < 0) {
      const { tool, ...rest } = make(random, i);
      return { name: `${serverId}.${tool}`, ...rest };
    }
  }
  const { tool, ...rest } = MIX[0]![1](random, i);
  return { name: `${serverId}.${tool}`, ...rest };
}
