// A minimal embedding host, run as its own node process by host-exit.test.ts: start one fixture server with a
// SIGTERM-proof grandchild, `await stop()`, print `stopped`, and end, with nothing else keeping the loop alive.
// Run: node --import tsx test/faults/stop-host.ts <pid-file>
import { createSupervisor } from '../../src/supervisor/supervisor.js';
import { fixtureServer, fleetConfig } from '../supervisor/fleet.js';

const pidFile = process.argv[2];
if (!pidFile) throw new Error('usage: stop-host.ts <pid-file>');
const sup = createSupervisor(fleetConfig([fixtureServer('x', ['--grandchild', '--pid-file', pidFile])]), {
  gate: async () => ({ ok: true }),
  stdinGraceMs: 100,
});
await sup.start();
// old enough to have installed its SIGTERM handler (see grownUp in fault-harness.ts)
await new Promise((r) => setTimeout(r, 1000));
await sup.stop();
process.stdout.write('stopped\n');
