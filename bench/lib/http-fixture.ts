// The fixture server's path, without the rest of fixture-fleet.ts (which loads our runtime): the HTTP benchmark's
// child processes import only this.
import { fileURLToPath } from 'node:url';

export const FIXTURE = fileURLToPath(new URL('../../test/fixtures/mcp-server.mjs', import.meta.url));
