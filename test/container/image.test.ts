import { expect, it } from 'vitest';
import { resolveImage } from '../../src/container/image.js';
import { describeEngine, TEST_IMAGE } from './engine-facts.js';

describeEngine('reading an image before a start', (engine) => {
  it('gives the id of an image the engine has, whatever the pull policy', async () => {
    for (const pull of ['never', 'missing'] as const) {
      const found = await resolveImage({ image: TEST_IMAGE, engine, pull });
      expect(found).toMatchObject({ ok: true, imageId: expect.stringMatching(/[0-9a-f]{64}$/) });
    }
  });

  it('never pulls under `never`; `missing` asks the engine to, and a pull that cannot be done says so', async () => {
    // Nothing listens on port 1 of loopback: the registry is refused at once, no network needed.
    const image = 'localhost:1/nothing-here:1';
    expect(await resolveImage({ image, engine, pull: 'never' })).toMatchObject({
      ok: false,
      failure: { code: 'IMAGE_MISSING', image, engine },
    });
    const pulled = await resolveImage({ image, engine, pull: 'missing' });
    expect(pulled).toMatchObject({ ok: false, failure: { code: 'PULL_FAILED', image, engine } });
  });
});
