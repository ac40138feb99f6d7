import { ENGINE_CALL_MS, engineClient } from './engine-client.js';
import { type EngineFailure, engineFailure } from './engine-errors.js';
import type { ContainerSettings } from './settings.js';

export type ImageAnswer = { ok: true; imageId: string } | { ok: false; failure: EngineFailure };

/**
 * The id (`sha256:…`) of the image a launch will run, pulling first where `pull` says so. What a start is approved
 * for and created from: the tag is read once, here.
 */
export async function resolveImage(
  settings: Pick<ContainerSettings, 'image' | 'engine' | 'pull'>,
  timeoutMs = ENGINE_CALL_MS,
): Promise<ImageAnswer> {
  const { image, engine, pull } = settings;
  if (pull === 'always') {
    const pulled = await pullImage(engine, image, timeoutMs);
    if (pulled) return { ok: false, failure: pulled };
  }
  const first = await inspectImage(engine, image, timeoutMs);
  if (first.ok || first.failure.code !== 'IMAGE_MISSING' || pull !== 'missing') return first;
  const pulled = await pullImage(engine, image, timeoutMs);
  return pulled ? { ok: false, failure: pulled } : inspectImage(engine, image, timeoutMs);
}

async function inspectImage(engine: string, image: string, timeoutMs: number): Promise<ImageAnswer> {
  try {
    const info = await engineClient(engine, timeoutMs).getImage(image).inspect();
    return { ok: true, imageId: info.Id };
  } catch (err) {
    if ((err as { statusCode?: unknown }).statusCode === 404)
      return {
        ok: false,
        failure: { code: 'IMAGE_MISSING', engine, image, status: 404, detail: 'no such image' },
      };
    return { ok: false, failure: engineFailure(err, engine, image) };
  }
}

/** Pulls `image` on the engine; undefined when it came, else why not. A pull's progress is read and dropped. */
async function pullImage(
  engine: string,
  image: string,
  timeoutMs: number,
): Promise<EngineFailure | undefined> {
  const client = engineClient(engine, timeoutMs);
  try {
    const stream = await client.pull(image);
    const error = await new Promise<string | undefined>((resolve) => {
      let said: string | undefined;
      client.modem.followProgress(
        stream,
        (err: Error | null) => resolve(err ? err.message : said),
        (event: { error?: unknown }) => {
          if (typeof event.error === 'string') said ??= event.error;
        },
      );
    });
    return error === undefined ? undefined : { code: 'PULL_FAILED', engine, image, detail: error };
  } catch (err) {
    const f = engineFailure(err, engine, image);
    return f.code === 'ENGINE_ERROR' ? { ...f, code: 'PULL_FAILED' } : f;
  }
}
