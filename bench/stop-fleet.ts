// A fleet of fixture servers stopped at once, as a one_for_one stop does: how long the stop takes and how much of
// it goes to asking whether each server's containment still holds anything. Prints figures, asserts nothing.
// Run: node --import tsx bench/stop-fleet.ts [--servers 100] [--containment cgroup|pidns|pgroup]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildChildEnv } from '../src/process/child-env.js';
import { type ContainmentKind, chooseContainment } from '../src/process/containment.js';
import { Jail } from '../src/process/jail.js';
import { ServerProcess } from '../src/process/server-process.js';

const FIXTURE = fileURLToPath(new URL('../test/fixtures/mcp-server.mjs', import.meta.url));
const { values } = parseArgs({
  options: { servers: { type: 'string', default: '100' }, containment: { type: 'string', default: 'auto' } },
});
const count = Number(values.servers);
const containment = chooseContainment(values.containment as ContainmentKind | 'auto');

// Every alive() call is timed: that is the check that runs once or more per server exit.
let aliveMs = 0;
let aliveCalls = 0;
const alive = Jail.prototype.alive;
Jail.prototype.alive = function (this: Jail) {
  const t = performance.now();
  try {
    return alive.call(this);
  } finally {
    aliveMs += performance.now() - t;
    aliveCalls++;
  }
};

const procs = Array.from({ length: count }, (_, i) =>
  ServerProcess.spawn({
    serverId: `s${i}`,
    command: process.execPath,
    args: [FIXTURE],
    cwd: process.cwd(),
    env: buildChildEnv(process.env, [], {}),
    shutdownMs: 2000,
    containment,
  }),
);
// Every server up: each fixture has printed nothing yet, so wait until every one's process is a node, not a shell.
await new Promise((r) => setTimeout(r, Math.max(2000, count * 40)));
aliveMs = 0;
aliveCalls = 0;
const t0 = performance.now();
await Promise.all(procs.map((p) => p.stop()));
const stopMs = performance.now() - t0;
const left = procs.flatMap((p) => p.pids());
console.log(`servers        ${count} (${containment})`);
console.log(`stop           ${stopMs.toFixed(0)} ms`);
console.log(`alive checks   ${aliveCalls} calls, ${aliveMs.toFixed(0)} ms in all`);
console.log(`processes left ${left.length}`);
