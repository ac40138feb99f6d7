// Global setup of the container tests: a Podman service answering the Docker Engine API, and the test image, made
// offline from this machine's own node binary. Started here only when nothing answers yet; stopped by teardown.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { engineAnswers, podmanConf, TEST_IMAGE } from './engine-facts.js';

const SOCKET = '/run/podman/podman.sock';
let service: ChildProcess | undefined;
let confDir: string | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const found = await findEngine();
  project.provide('containerEngine', found);
  return async () => {
    if (service?.pid !== undefined && service.exitCode === null) {
      const gone = new Promise((r) => service?.once('exit', r));
      process.kill(service.pid, 'SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
    }
    if (confDir) rmSync(confDir, { recursive: true, force: true });
  };
}

async function findEngine(): Promise<{ address?: string; why?: string }> {
  const address = `unix://${SOCKET}`;
  if (!(await engineAnswers(address))) {
    const podman = ['/usr/bin/podman', '/usr/local/bin/podman'].find((f) => existsSync(f));
    if (!podman)
      return { why: 'no container engine answers and podman is not installed (apt-get install podman runc)' };
    confDir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-podman-'));
    const conf = join(confDir, 'containers.conf');
    writeFileSync(conf, podmanConf);
    mkdirSync(dirname(SOCKET), { recursive: true });
    service = spawn(podman, ['system', 'service', '--time=0', address], {
      env: { ...process.env, CONTAINERS_CONF: conf },
      stdio: 'ignore',
    });
    for (let i = 0; i < 200 && !(await engineAnswers(address)); i++)
      await new Promise((r) => setTimeout(r, 100));
    if (!(await engineAnswers(address))) return { why: `podman system service did not answer on ${SOCKET}` };
  }
  const built = ensureImage();
  return built === undefined ? { address } : { why: built };
}

/** The test image: the host's node and the libraries it links, imported as a root filesystem (no registry). */
function ensureImage(): string | undefined {
  try {
    execFileSync('podman', ['image', 'exists', TEST_IMAGE], { stdio: 'ignore' });
    return undefined;
  } catch {
    // Not there yet: built below.
  }
  const node = process.execPath;
  const libs = execFileSync('ldd', [node], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /(\/\S+) \(0x/.exec(l)?.[1])
    .filter((l): l is string => l !== undefined);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-image-'));
  try {
    const tar = join(dir, 'root.tar');
    // -h: the libraries are symlinks on the host; the image gets the files.
    execFileSync('tar', ['-chf', tar, '-C', '/', ...[node, ...libs].map((p) => p.slice(1))]);
    execFileSync(
      'podman',
      [
        'import',
        '--change',
        `CMD ["${node}"]`,
        '--change',
        'ENV PATH=/usr/local/bin:/usr/bin:/bin',
        tar,
        TEST_IMAGE,
      ],
      { stdio: 'ignore' },
    );
    return undefined;
  } catch (err) {
    return `the test image could not be built: ${(err as Error).message}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
