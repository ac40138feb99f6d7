import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { expectReaped, ID } from './fault-harness.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  await expectReaped();
});

/** Runs `fail` with a long message under the given cap and returns what callTool resolved. */
async function failedCallUnder(maxResultBytes: number): Promise<string> {
  const { sup } = f.create(fleetConfig([fixtureServer(ID, [], { maxResultBytes })]), {
    gate: async () => ({ ok: true }),
  });
  await sup.start();
  return sup.callTool(`${ID}.fail`, { message: 'boom '.repeat(200) });
}

describe('a failed call under a small maxResultBytes', () => {
  it('keeps its ERROR: prefix and the cap at 64 bytes', async () => {
    const text = await failedCallUnder(64);
    expect(text.startsWith('ERROR: boom')).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64);
  });

  // Under ~33 bytes the truncation marker would crowd out the `ERROR: ` prefix, callTool's only failure signal:
  // the config refuses caps that small (MIN_RESULT_BYTES).
  it('keeps its ERROR: prefix under any cap the config accepts', async () => {
    let cap: number;
    try {
      cap = parseConfig('servers:\n  x:\n    command: node\n    maxResultBytes: 16\n').servers[0]!
        .maxResultBytes;
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError); // a floor that rejects it is a fix as well
      return;
    }
    expect(cap).toBe(16);
    expect((await failedCallUnder(cap)).startsWith('ERROR: ')).toBe(true);
  });
});
