import { describe, expect, it } from 'vitest';
import type { ContainerSettings } from '../../src/container/settings.js';
import { describeChanges } from '../../src/trust/changes.js';
import { computeFingerprint, type FingerprintInput } from '../../src/trust/fingerprint.js';

const ID_A = `sha256:${'a'.repeat(64)}`;
const ID_B = `sha256:${'b'.repeat(64)}`;

function boxed(container: Partial<ContainerSettings> = {}): FingerprintInput {
  return {
    id: 'box',
    command: '/usr/bin/node',
    args: ['/srv/server.js'],
    cwd: '/nowhere/on/this/host',
    env: { LOG_LEVEL: 'info' },
    container: {
      image: 'localhost/tools:1',
      imageId: ID_A,
      pull: 'never',
      engine: 'unix:///run/podman/podman.sock',
      network: 'none',
      readOnly: true,
      mounts: [],
      ...container,
    },
  };
}

describe('the fingerprint of a container launch', () => {
  it('covers the image id, the engine and every setting, and no host executable', async () => {
    const base = await computeFingerprint(boxed());
    expect(base.facts).toMatchObject({ executable: null, scripts: [], container: { imageId: ID_A } });
    const variants: Array<Partial<ContainerSettings>> = [
      { imageId: ID_B },
      { engine: 'tcp://10.0.0.2:2375' },
      { memoryBytes: 64 * 1024 * 1024 },
      { cpus: 0.5 },
      { pids: 64 },
      { network: 'bridge' },
      { readOnly: false },
      { user: '65534:65534' },
      { mounts: [{ source: '/data', target: '/data', readOnly: true }] },
      { workdir: '/srv' },
      { pull: 'missing' },
    ];
    const prints = await Promise.all(
      variants.map(async (v) => (await computeFingerprint(boxed(v))).fingerprint),
    );
    expect(new Set([base.fingerprint, ...prints]).size).toBe(variants.length + 1);
  });

  it('names a tag that now points at other content, and each changed setting', async () => {
    const before = (await computeFingerprint(boxed())).facts;
    const moved = (await computeFingerprint(boxed({ imageId: ID_B }))).facts;
    expect(describeChanges(before, moved)).toEqual(['image localhost/tools:1 now names other content']);
    const looser = (await computeFingerprint(boxed({ network: 'bridge', readOnly: false }))).facts;
    expect(describeChanges(before, looser)).toEqual([
      'container network: "none" → "bridge"',
      'container readOnly: true → false',
    ]);
  });
});
