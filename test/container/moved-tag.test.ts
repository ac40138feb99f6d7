import { afterEach, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/trust/approval-request.js';
import { eventually, fleetConfig, fleets } from '../supervisor/fleet.js';
import { boxedServer, engineView, uniqueId } from './boxed.js';
import { describeEngine, TEST_IMAGE } from './engine-facts.js';

const f = fleets();
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await f.reap();
  for (const c of cleanups.splice(0)) await c().catch(() => {});
});

describeEngine('the trust gate and images', (engine) => {
  it('asks again when the same tag names other content, and never starts it silently', async () => {
    const docker = engineView(engine);
    const tag = uniqueId('moved');
    const ref = `localhost/mcp-supervisor-test:${tag}`;
    await docker.getImage(TEST_IMAGE).tag({ repo: 'localhost/mcp-supervisor-test', tag });
    cleanups.push(() => docker.getImage(ref).remove({ noprune: true }));
    const asked: ApprovalRequest[] = [];
    const id = uniqueId('tagged');
    const { sup } = f.create(fleetConfig([boxedServer(id, engine, [], { image: ref })]), {
      approve: (request) => {
        asked.push(request);
        return asked.length === 1;
      },
    });
    await sup.start();
    expect(sup.status()[0]?.state).toBe('ready');
    const first = asked[0]?.container?.imageId;
    expect(first).toMatch(/[0-9a-f]{64}$/);

    // Other content under the same tag: a commit of a container made from the image is a new image.
    const made = await docker.createContainer({ Image: TEST_IMAGE, Labels: { purpose: 'moved-tag test' } });
    cleanups.push(() => made.remove({ force: true }));
    const other = (await made.commit({ repo: 'localhost/mcp-supervisor-test', tag })) as {
      Id?: string;
      id?: string;
    };
    const otherId = other.Id ?? other.id ?? '';
    cleanups.push(() => docker.getImage(otherId).remove({ force: true }));

    sup.restart(id);
    await eventually(() => sup.status()[0]?.state === 'untrusted', 20_000, 'the refusal');
    expect(asked).toHaveLength(2);
    expect(asked[1]?.container?.imageId).not.toBe(first);
    expect(asked[1]?.changes).toContain(`image ${ref} now names other content`);
  });
});
