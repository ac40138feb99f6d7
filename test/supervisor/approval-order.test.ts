import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import type { ApprovalRequest } from '../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from './fleet.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An approve callback that, like a person at a terminal, takes a while, and records order and overlaps. */
function recordingApprove(msFor: (r: ApprovalRequest) => number) {
  const asked: string[] = [];
  let open = 0;
  let overlaps = 0;
  const approve = async (r: ApprovalRequest) => {
    open++;
    if (open > 1) overlaps++;
    asked.push(`${r.kind}:${r.server}`);
    await sleep(msFor(r));
    open--;
    return true;
  };
  return { approve, asked, overlaps: () => overlaps };
}

describe('approve is asked one server at a time', () => {
  it('launch questions of servers started together come one at a time, in config order', async () => {
    // The first server's question takes longest: were they asked together, the others would finish first.
    const rec = recordingApprove((r) => (r.server === 'a' ? 150 : 20));
    const { sup } = f.create(fleetConfig([fixtureServer('a'), fixtureServer('b'), fixtureServer('c')]), {
      approve: rec.approve,
    });
    await sup.start();
    expect(rec.asked).toEqual(['server:a', 'server:b', 'server:c']);
    expect(rec.overlaps()).toBe(0);
    expect(sup.status().map((s) => s.state)).toEqual(['ready', 'ready', 'ready']);
  });

  it('tool-change questions join the same line: never two at once', async () => {
    // Each server adds a tool 50 ms after its handshake, so the three tool questions arrive close together.
    const servers = ['a', 'b', 'c'].map((id) => fixtureServer(id, ['--list-changed-after', '50']));
    const rec = recordingApprove((r) => (r.kind === 'tools' ? 150 : 5));
    const { sup } = f.create(fleetConfig(servers), { approve: rec.approve });
    await sup.start();
    await eventually(
      () => rec.asked.filter((q) => q.startsWith('tools:')).length === 3,
      8000,
      'three tool questions',
    );
    await eventually(
      () => sup.listTools().filter((t) => t.tool.startsWith('added_')).length === 3,
      8000,
      'added tools',
    );
    expect(rec.asked.slice(0, 3)).toEqual(['server:a', 'server:b', 'server:c']);
    expect(rec.asked.slice(3).sort()).toEqual(['tools:a', 'tools:b', 'tools:c']);
    expect(rec.overlaps()).toBe(0);
  });

  it('a tool added the moment the first listing is answered is still asked about, never pinned unasked', async () => {
    // The re-list that list_changed starts races the first listing's pinning; both once saw "first sight".
    const rec = recordingApprove(() => 1);
    const approve = async (r: ApprovalRequest) => (await rec.approve(r)) && r.kind === 'server';
    const { sup } = f.create(fleetConfig([fixtureServer('a', ['--list-changed-after', '0'])]), { approve });
    await sup.start();
    await eventually(() => rec.asked.includes('tools:a'), 8000, 'the question about the added tool');
    expect(rec.asked).toEqual(['server:a', 'tools:a']);
    expect(sup.listTools().map((t) => t.name)).not.toContain('a.added_1');
  });
});

describe('a launch put to a person', () => {
  it('is approving while the question is open, then spawns; a launch the store trusts never is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-approving-'));
    const trustStore = join(dir, 'trust.json');
    try {
      let answer: (yes: boolean) => void = () => {};
      const question = new Promise<boolean>((r) => {
        answer = r;
      });
      const { sup, events } = f.create(fleetConfig([fixtureServer('a')]), {
        approve: () => question,
        trustStore,
      });
      const started = sup.start();
      await eventually(() => sup.status()[0]!.state === 'approving', 5000, 'approving');
      // Nothing is spawned while the person thinks.
      expect(sup.status()[0]!.pid).toBeUndefined();
      answer(true);
      await started;
      expect(transitions(events, 'a').slice(-3)).toEqual([
        'spawning>approving',
        'approving>handshaking',
        'handshaking>ready',
      ]);
      await sup.stop();
      // Trusted now: the next start goes from spawning straight to handshaking, with nobody asked.
      const again = f.create(fleetConfig([fixtureServer('a')]), { approve: () => false, trustStore });
      await again.sup.start();
      expect(transitions(again.events, 'a').slice(-2)).toEqual(['spawning>handshaking', 'handshaking>ready']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
