import { execFile, spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { ensureBuilt, ROOT } from '../cli/helpers.js';

const run = promisify(execFile);

/** What the context's `app/` holds once the package is installed there, and the Containerfile copies. */
export const INSTALLED = 'app/lib/node_modules/mcp-supervisor';

/**
 * The build context deploy/Containerfile asks for, made as its header says: the package packed, installed with
 * its dependencies under `app/`, and the recipe beside it.
 */
export async function makeContext(dir: string): Promise<void> {
  await ensureBuilt();
  // Without its scripts: `prepack` would rebuild dist/ under test files running beside this one.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: ROOT,
    timeout: 60_000,
    maxBuffer: 16 << 20,
  });
  const [entry] = JSON.parse(pack.stdout) as { filename: string }[];
  // npm's own cache, preferred to the registry, as the install test does.
  await run(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      join(dir, 'app'),
      '--omit=dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(dir, entry!.filename),
    ],
    { cwd: dir, timeout: 150_000, maxBuffer: 16 << 20 },
  );
  copyFileSync(join(ROOT, 'deploy', 'Containerfile'), join(dir, 'Containerfile'));
}

/**
 * Builds the context into `tag` through the engine's API, with `base` as BASE. The context goes as a plain tar:
 * the client's own packing gzips it, which costs more than the transfer it saves over a local socket.
 */
export async function buildImage(docker: Docker, dir: string, tag: string, base: string): Promise<string[]> {
  const tar = spawn('tar', ['-c', '-C', dir, 'Containerfile', INSTALLED], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const stream = await docker.buildImage(tar.stdout, {
      t: tag,
      dockerfile: 'Containerfile',
      buildargs: { BASE: base },
    });
    const steps = await new Promise<{ error?: string }[]>((resolve, reject) =>
      docker.modem.followProgress(stream, (err, out) => (err ? reject(err) : resolve(out))),
    );
    return steps.flatMap((s) => (s.error === undefined ? [] : [s.error]));
  } finally {
    if (tar.exitCode === null && tar.signalCode === null) tar.kill();
  }
}
