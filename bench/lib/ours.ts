// Our runtime as users run it: the compiled dist/ when it is at least as new as src/ (`npm run bench` builds it
// first), else the TypeScript sources through tsx, whose keepNames helpers add a few µs to every call.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as StreamDecoderModule from '../../src/framing/stream-decoder.js';
import type * as Cgroup from '../../src/process/cgroup.js';
import type * as ChildEnv from '../../src/process/child-env.js';
import type * as Connection from '../../src/protocol/connection.js';
import type * as PendingRequestsModule from '../../src/protocol/pending-requests.js';
import type * as ToolCalls from '../../src/protocol/tool-calls.js';
import type * as SupervisorModule from '../../src/supervisor/supervisor.js';
import type * as FramePoolModule from '../../src/workers/frame-pool.js';

const root = new URL('../../', import.meta.url);

/** Why dist/ cannot be used (a src/**.ts without a dist/**.js built after its last change), or undefined. */
function distStaleness(): string | undefined {
  if (process.env.BENCH_OURS_FROM === 'src') return 'BENCH_OURS_FROM=src';
  // a dist/ built right before the run, while someone kept editing src/, is still what is to be measured
  if (process.env.BENCH_OURS_FROM === 'dist') return undefined;
  const src = fileURLToPath(new URL('src/', root));
  const dist = fileURLToPath(new URL('dist/', root));
  if (!existsSync(dist)) return 'no dist/ (run npm run build)';
  for (const rel of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!rel.endsWith('.ts') || rel.endsWith('.d.ts')) continue;
    const built = `${dist}${rel.slice(0, -3)}.js`;
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(`${src}${rel}`).mtimeMs)
      return `dist/ older than src/${rel}`;
  }
  return undefined;
}

const stale = distStaleness();

/** Where our code is loaded from for this run, and why when it is not dist/. */
export const OURS_FROM: 'dist' | 'src' = stale ? 'src' : 'dist';
export const OURS_FROM_WHY: string = stale ?? 'built from the current sources';

function load<T>(path: string): Promise<T> {
  // under tsx a `.js` specifier in src/ resolves to its `.ts` source
  return import(new URL(`${OURS_FROM}/${path}`, root).href) as Promise<T>;
}

const [supervisor, connection, toolCalls, childEnv, framePool, cgroup, pendingRequests, streamDecoder] =
  await Promise.all([
    load<typeof SupervisorModule>('supervisor/supervisor.js'),
    load<typeof Connection>('protocol/connection.js'),
    load<typeof ToolCalls>('protocol/tool-calls.js'),
    load<typeof ChildEnv>('process/child-env.js'),
    load<typeof FramePoolModule>('workers/frame-pool.js'),
    load<typeof Cgroup>('process/cgroup.js'),
    load<typeof PendingRequestsModule>('protocol/pending-requests.js'),
    load<typeof StreamDecoderModule>('framing/stream-decoder.js'),
  ]);

export const { createSupervisor } = supervisor;
export const { McpConnection } = connection;
export const { callToolText, listAllTools } = toolCalls;
export const { buildChildEnv } = childEnv;
export const { FramePool, defaultFrameThreads } = framePool;
export const { cgroupBase } = cgroup;
export const { PendingRequests } = pendingRequests;
export const { StreamDecoder } = streamDecoder;
