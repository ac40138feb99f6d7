import { request } from 'node:http';
import { describe, inject } from 'vitest';

/** The image the container tests run: this machine's node binary and its libraries, nothing else. */
export const TEST_IMAGE = 'localhost/mcp-supervisor-test:node';

/**
 * Podman's settings on these machines: crun refuses the hybrid cgroup setup (runc does not), and root without
 * CAP_SYS_RESOURCE cannot raise the default rlimits, so they are set to what it has.
 */
export const podmanConf = `[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]
[engine]
runtime = "runc"
`;

declare module 'vitest' {
  export interface ProvidedContext {
    containerEngine: { address?: string; why?: string };
  }
}

/** True when `GET /_ping` at a unix-socket or tcp engine answers OK within a second. */
export function engineAnswers(address: string): Promise<boolean> {
  const dial = address.startsWith('unix://')
    ? { socketPath: address.slice(7) }
    : {
        host: new URL(address.replace(/^tcp:/, 'http:')).hostname,
        port: Number(new URL(address.replace(/^tcp:/, 'http:')).port),
      };
  return new Promise((resolve) => {
    const req = request({ ...dial, path: '/_ping', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

/**
 * The engine the tests use, or why there is none. Without one the container tests are skipped with the reason
 * printed — except under CI, where a missing engine is a failure: CI must never pass without running them.
 */
export function testEngine(): string | undefined {
  const found = inject('containerEngine');
  if (found.address) return found.address;
  if (process.env.CI === 'true') throw new Error(`container tests cannot run under CI: ${found.why}`);
  console.warn(`container tests skipped: ${found.why}`);
  return undefined;
}

/** `describe` that runs only where an engine answers (and fails under CI where none does). */
export function describeEngine(name: string, body: (engine: string) => void): void {
  const engine = testEngine();
  if (engine === undefined) describe.skip(name, () => {});
  else describe(name, () => body(engine));
}
