import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { eventually, fleets, transitions } from '../supervisor/fleet.js';
import { gone, readLog } from '../supervisor/helpers.js';
import { expectReaped, type FaultRow, ID, runFaultRow } from './fault-harness.js';

const MiB = 1024 * 1024;
/** Lets what a timer fired inside increment() set off run to its end: nothing here waits for real time. */
const turn = () => new Promise((r) => setImmediate(r));
// The clocks of the rows whose time is the subject: each row makes one supervisor.
const handshakeClock = new SimulatedClock();
const callClock = new SimulatedClock();
const once = { restart: { limit: { maxRestarts: 1, windowMs: 60_000 } } };
const timeouts = (t: { startupMs?: number; callMs?: number }) => ({
  timeouts: { startupMs: 3000, callMs: 3000, shutdownMs: 300, ...t },
});

const rows: FaultRow[] = [
  {
    name: 'crash at start, even with exit code 0, is a failed start that counts',
    flags: ['--exit-at-start', '0'],
    server: once,
    act: async ({ call }) => expect((await call('echo')).text).toMatch(/^ERROR: server 'x' is failed/),
    state: 'failed',
    restarts: 1,
    exits: 2,
    events: ['exit exited 0', 'state backoff>spawning', /^state \w+>failed$/],
    never: ['state handshaking>ready'],
  },
  {
    name: 'crash mid-call: the call and every call in flight resolve at once, then a restart',
    flags: [],
    act: async ({ call, sup }) => {
      const before = sup.status()[0]!.pid;
      // A timeout no test lives to see: only the crash can end the hung call, and its text says it did.
      const hung = call('hang', {}, 10 * 60_000);
      const crash = await call('crash');
      expect(crash.text).toMatch(/^ERROR: server exited \(code 1\) during the call/);
      expect((await hung).text).toMatch(/^ERROR: server exited/);
      await eventually(() => sup.status()[0]!.state === 'ready', 5000, 'ready again');
      expect((await call('echo', { text: 'back' })).text).toBe('back');
      expect(sup.status()[0]!.pid).not.toBe(before);
    },
    state: 'ready',
    restarts: 1,
    exits: 1,
    events: ['exit exited 1', 'state ready>backoff', 'state backoff>spawning'],
  },
  {
    name: 'crash in the handshake: nothing but the era probe and initialize was ever sent',
    flags: ['--crash-in-handshake'],
    server: once,
    act: async ({ logged }) =>
      expect(logged()).toEqual(['server/discover', 'initialize', 'server/discover', 'initialize']),
    state: 'failed',
    restarts: 1,
    exits: 2,
    events: ['exit exited 3', 'state spawning>handshaking', /^state handshaking>(backoff|failed)$/],
    never: [/>ready$/],
  },
  {
    name: 'hang in the handshake: the startup timeout (600 ms) fails the start, which counts',
    flags: ['--hang-initialize'],
    server: { ...once, ...timeouts({ startupMs: 600 }) },
    // The budget runs on the clock, which the row moves: a loaded machine can slow the real handshake, never run
    // the budget out. The approval before the first spawn takes 250 ms of it, which is not the server's time.
    options: {
      clock: handshakeClock,
      approve: async () => {
        await turn();
        handshakeClock.increment(250);
        return true;
      },
    },
    start: async ({ sup, logged }) => {
      const started = sup.start();
      const state = () => sup.status()[0]!.state;
      for (const launch of [1, 2]) {
        // This launch's initialize is read and will never be answered: only the budget can end its start.
        const read = () => logged().filter((m) => m === 'initialize').length === launch;
        await eventually(read, 10_000, `initialize of launch ${launch}`);
        // Timers fire inside increment(): the state right after it is the whole answer.
        handshakeClock.increment(599);
        expect(state()).toBe('handshaking');
        handshakeClock.increment(1);
        expect(state()).toBe('stopping');
        if (launch === 1) {
          await eventually(() => state() === 'backoff', 10_000, 'the backoff');
          handshakeClock.increment(20);
        }
      }
      await started;
    },
    act: async ({ events, logged }) => {
      expect(logged()).toEqual(['server/discover', 'initialize', 'server/discover', 'initialize']);
      const at = (to: string) => events.filter((e) => e.type === 'state' && e.to === to).map((e) => e.at);
      // the budget runs from the spawn (the trust decision before it is not the server's time)
      expect(at('handshaking')).toEqual([250, 870]);
      expect(at('stopping')).toEqual([850, 1470]);
    },
    state: 'failed',
    restarts: 1,
    exits: 2,
    events: ['state handshaking>stopping', /^exit startup_timeout /],
    never: [/>ready$/],
  },
  {
    name: 'hang in a call: it times out at 100 ms, the server is told to cancel, and keeps serving',
    flags: [],
    // The call's deadline runs on the clock, which the row moves.
    options: { clock: callClock },
    act: async ({ sup, logged }) => {
      let settled = false;
      // Written, and its deadline armed on the clock, before callTool returns.
      const hang = sup.callTool(`${ID}.hang`, {}, { timeoutMs: 100 }).finally(() => {
        settled = true;
      });
      callClock.increment(99);
      await turn();
      expect(settled).toBe(false);
      callClock.increment(1);
      expect(await hang).toBe(`ERROR: tool 'x.hang' timed out after 100 ms`);
      await eventually(() => logged().includes('notifications/cancelled'), 2000, 'cancel notification');
      expect(await sup.callTool(`${ID}.echo`, { text: 'still here' })).toBe('still here');
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: [],
    never: [/^exit /],
  },
  {
    name: 'consecutive call timeouts (threshold 2) mean wedged: killed and restarted as a failure',
    flags: [],
    server: { health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 2 } },
    act: async ({ call, sup }) => {
      for (let i = 0; i < 2; i++) expect((await call('hang', {}, 60)).text).toMatch(/timed out/);
      await eventually(() => sup.status()[0]!.restarts === 1 && sup.status()[0]!.state === 'ready', 5000);
      expect((await call('echo', { text: 'fresh' })).text).toBe('fresh');
    },
    state: 'ready',
    restarts: 1,
    exits: 1,
    events: ['state ready>wedged', 'exit wedged SIGKILL'],
  },
  {
    name: 'no pong (health 30 ms / 30 ms / threshold 2): wedged, restarted, and it counts toward the limit',
    flags: ['--no-pong'],
    server: { ...once, health: { intervalMs: 30, timeoutMs: 30, failureThreshold: 2 } },
    act: async ({ sup }) => eventually(() => sup.status()[0]!.state === 'failed', 5000, 'failed'),
    state: 'failed',
    restarts: 1,
    exits: 2,
    events: ['state ready>wedged', 'exit wedged SIGKILL', 'state wedged>backoff', 'state wedged>failed'],
  },
  {
    name: 'SIGTERM and stdin EOF ignored: stop still completes, by SIGKILL after the shutdown timeout',
    flags: ['--ignore-sigterm', '--ignore-stdin-eof'],
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: [],
    afterStop: ({ sup, stopMs }) => {
      const exit = sup.status()[0]!.lastExit!;
      expect(exit).toMatchObject({ signal: 'SIGKILL', reason: 'stopped' });
      // SIGTERM went first (the fixture said it ignored it), SIGKILL only after grace 100 + shutdown 300: a
      // lower bound on the process's real waits, which a loaded machine can only lengthen (a stop that never
      // ended would time the test out).
      expect(exit.stderrTail).toMatch(/got SIGTERM, ignoring it/);
      expect(stopMs).toBeGreaterThanOrEqual(380);
    },
  },
  {
    name: 'grandchild left behind (SIGTERM-proof): gone after stop',
    flags: ['--grandchild'],
    act: async ({ pidRecord }) => {
      const gc = pidRecord()?.grandchild;
      // the fixture names its grandchild only once the grandchild ignores SIGTERM
      expect(gc).toBeTypeOf('number');
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: [],
    afterStop: async ({ pids }) => expect(pids.size).toBe(2),
  },
  {
    name: 'grandchildren left behind by a crash: gone without waiting for stop',
    flags: ['--grandchild'],
    act: async ({ call, pidRecord, sup }) => {
      const first = pidRecord()!.grandchild!;
      const later = Number((await call('spawn_grandchild')).text);
      expect((await call('crash')).text).toMatch(/^ERROR: server exited/);
      expect(await gone(first, 3000)).toBe(true);
      expect(await gone(later, 3000)).toBe(true);
      await eventually(() => sup.status()[0]!.state === 'ready', 5000, 'ready again');
    },
    state: 'ready',
    restarts: 1,
    exits: 1,
    events: ['exit exited 1'],
  },
  {
    name: 'stdout noise before every message: calls work',
    flags: ['--noise'],
    act: async ({ call }) => {
      expect((await call('echo', { text: 'clean' })).text).toBe('clean');
      expect((await call('add', { a: 2, b: 3 })).text).toBe('5');
      expect((await call('fail', { message: 'nope' })).text).toBe('ERROR: nope');
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: [],
    never: [/^exit /],
  },
  {
    name: 'dribbled bytes (2 at a time, splitting UTF-8): handshake, list and calls intact',
    flags: ['--dribble', '2'],
    server: timeouts({ startupMs: 15_000 }),
    act: async ({ call, sup }) => {
      expect(sup.listTools().map((t) => t.tool)).toContain('spawn_grandchild');
      expect((await call('echo', { text: 'héllo → 世界 🎉' })).text).toBe('héllo → 世界 🎉');
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: [],
  },
  {
    name: 'oversize line (64 MiB + 1, the default line limit): that call fails, the connection lives',
    flags: ['--oversize', String(64 * MiB + 1)],
    act: async ({ call, sup }) => {
      const pid = sup.status()[0]!.pid;
      const big = await call('big', { bytes: 1 }, 30_000);
      expect(big.text).toBe(
        `ERROR: response of ${64 * MiB + 1} bytes exceeds the line limit and was discarded`,
      );
      expect((await call('echo', { text: 'after' })).text).toBe('after');
      expect(sup.status()[0]!.pid).toBe(pid);
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: [],
  },
  {
    name: 'result over maxResultBytes (1 MiB into 1 KiB): capped with a marker, not an error',
    flags: [],
    server: { maxResultBytes: 1024 },
    act: async ({ call }) => {
      const { text } = await call('big', { bytes: MiB });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024);
      const m = /^(x+)… \[truncated (\d+) bytes\]$/.exec(text);
      expect(m).not.toBeNull();
      expect(m![1]!.length + Number(m![2])).toBe(MiB);
      const fail = (await call('fail', { message: 'y'.repeat(5000) })).text;
      expect(fail.startsWith('ERROR: y')).toBe(true);
      expect(Buffer.byteLength(fail)).toBeLessThanOrEqual(1024);
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: [],
  },
  {
    name: 'invalid JSON-RPC lines (v1.0 with a live id, arrays, unknown ids): every call gets its own answer',
    flags: ['--invalid-jsonrpc'],
    act: async ({ call }) => {
      const texts = await Promise.all([0, 1, 2, 3, 4].map((i) => call('echo', { text: `t${i}` })));
      expect(texts.map((t) => t.text)).toEqual(['t0', 't1', 't2', 't3', 't4']);
      expect((await call('error')).text).toBe('ERROR: server error -32000: fixture error');
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: [],
  },
  {
    name: 'sampling, elicitation and roots requests: refused at once (-32601), the server keeps working',
    flags: ['--server-requests'],
    act: async ({ call, events, logFile }) => {
      await eventually(() => events.filter((e) => e.type === 'refused').length >= 3, 3000, 'refusals');
      // The refusals are told as they are written; the server logs each answer when it has read it.
      const read = () => readLog(logFile).filter((m) => !m.method);
      await eventually(() => read().length >= 3, 3000, 'the answers read by the server');
      const answers = read();
      expect(answers.map((a) => [a.id, (a.error as { code?: number }).code])).toEqual([
        [0, -32601],
        [1, -32601],
        [2, -32601],
      ]);
      expect((await call('echo', { text: 'fine' })).text).toBe('fine');
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: ['refused sampling/createMessage', 'refused elicitation/create', 'refused roots/list'],
  },
  {
    name: 'exit-code loop (exit 3 at start, maxRestarts 2): failed after exactly 2 restarts, then quiet',
    flags: ['--exit-at-start', '3'],
    server: { restart: { limit: { maxRestarts: 2, windowMs: 60_000 } } },
    act: async ({ call, events }) => {
      expect((await call('echo')).text).toMatch(/^ERROR: server 'x' is failed: more than 2 restarts/);
      // `failed` is where the supervisor gave up: no restart timer is left that could spawn it again.
      expect(transitions(events, ID).filter((t) => t.endsWith('>spawning'))).toHaveLength(3);
    },
    state: 'failed',
    restarts: 2,
    exits: 3,
    events: ['exit exited 3', /^state \w+>failed$/],
    never: ['state handshaking>ready', /^exit exited [^3]/],
  },
  {
    name: 'list_changed storm (50): the list converges to include added_50, re-lists are coalesced',
    flags: ['--list-changed-storm', '50'],
    act: async ({ sup }) => {
      await eventually(() => sup.listTools().some((t) => t.name === 'x.added_50'), 5000, 'added_50');
      expect(sup.listTools()).toHaveLength(18 + 50);
    },
    state: 'ready',
    restarts: 0,
    exits: 0,
    events: ['tools'],
    never: [],
    afterStop: ({ events, logged }) => {
      // Counted once the server is gone, when no re-list can be sent any more: one list in the handshake, then at
      // most one running and one queued re-list for the whole storm.
      expect(logged().filter((m) => m === 'tools/list').length).toBeLessThanOrEqual(3);
      const lists = events.filter((e) => e.type === 'tools' && e.added.length > 0);
      expect(lists.length).toBeGreaterThanOrEqual(1);
      expect(lists.length).toBeLessThanOrEqual(3);
    },
  },
  {
    name: 'stderr flood (20 000 lines at start): drained, never blocks; the exit carries a bounded tail',
    flags: ['--stderr-spam', '20000'],
    act: async ({ call, sup }) => {
      expect((await call('crash', { code: 9 })).text).toMatch(/^ERROR: server exited \(code 9\)/);
      // The fixture's own stderr writes are asynchronous and process.exit drops what it still queues, so the
      // tail need not hold the very last spam line; it must be bounded and made of whole lines.
      const tail = sup.status()[0]!.lastExit!.stderrTail;
      expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(16 * 1024);
      const lines = tail.split('\n');
      expect(lines.length).toBeGreaterThan(1);
      // The first lines are kept too, then a marker of what was skipped between them and the last ones.
      expect(lines.filter((l) => /^\[… \d+ lines skipped …\]$/.test(l))).toHaveLength(1);
      expect(tail).toContain('spam line 0 ');
      for (const line of lines.filter((l) => !l.startsWith('[…'))) {
        expect(line).toMatch(/^fixture\[\d+\]: /);
        if (line.includes('spam line')) expect(line).toMatch(/^fixture\[\d+\]: spam line \d+ \.{60}$/);
      }
      await eventually(() => sup.status()[0]!.state === 'ready', 5000, 'ready again');
    },
    state: 'ready',
    restarts: 1,
    exits: 1,
    events: ['exit exited 9'],
  },
];

const f = fleets();
afterEach(async () => {
  await f.reap();
  await expectReaped();
});

describe('fault matrix: one real fixture server per row', () => {
  it.each(rows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    await runFaultRow(row, f);
  });
});
