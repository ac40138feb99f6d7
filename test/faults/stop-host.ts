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
// The fixture writes its pid file, and so answers the handshake, only once the grandchild ignores SIGTERM.
await sup.start();
await sup.stop();
process.stdout.write('stopped\n');
