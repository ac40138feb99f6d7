import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, the built bin, and the fixture server. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'dist', 'cli', 'main.js');
export const FIXTURE = join(ROOT, 'test', 'fixtures', 'mcp-server.mjs');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function fresh(): boolean {
  return existsSync(BIN) && statSync(BIN).mtimeMs >= newestMtime(join(ROOT, 'src'));
}

/**
 * Makes sure `dist/` is at least as new as `src/` (the suite's `pretest` builds; a single test file run may
 * not have). Test files run in parallel, so one builds under a lock directory while the others wait.
 */
export async function ensureBuilt(): Promise<void> {
  if (fresh()) return;
  const lock = join(tmpdir(), `mcp-supervisor-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`);
  const end = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > end) throw new Error(`build lock ${lock} held for too long`);
      await sleep(200);
      if (fresh()) return;
    }
  }
  try {
    if (fresh()) return;
    try {
      execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: ROOT,
          stdio: 'pipe',
        },
      );
    } catch {
      // tsc still emits when another module has a type error; what matters is that the bin is rebuilt.
    }
    if (!fresh()) throw new Error('npm run build did not produce a fresh dist/cli/main.js');
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A spawned `mcp-supervisor` whose output is collected. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr (or stdout) matches, or rejects after `ms`. */
  waitFor(pattern: RegExp, ms?: number, stream?: 'stderr' | 'stdout'): Promise<void>;
  exited: Promise<CliResult>;
}

/** Spawns and reaps CLI processes and fixture pids; call `reap()` from afterEach. */
export function cliProcesses() {
  const started: CliProcess[] = [];
  const dirs: string[] = [];

  // Every process gets a private trust store and config home: a test never touches the user's real store.
  let home: string | undefined;
  const isolated = (): NodeJS.ProcessEnv => {
    home ??= mkdtempSync(join(tmpdir(), 'mcp-sup-cli-home-'));
    return {
      MCP_SUPERVISOR_TRUST_STORE: join(home, 'trust.json'),
      XDG_CONFIG_HOME: home,
      XDG_STATE_HOME: join(home, 'state'),
    };
  };

  /** `wrap` is an argv the CLI runs under (`ip netns exec NAME`), which must exec it so the pid stays the CLI's. */
  const spawnCli = (
    args: string[],
    env: NodeJS.ProcessEnv = {},
    wrap: readonly string[] = [],
  ): CliProcess => {
    const argv = [...wrap, process.execPath, BIN, ...args];
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', ...isolated(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const exited = new Promise<CliResult>((resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal, stdout: out, stderr: err }));
    });
    const waitFor = async (pattern: RegExp, ms = 15_000, stream: 'stderr' | 'stdout' = 'stderr') => {
      const end = Date.now() + ms;
      while (!pattern.test(stream === 'stderr' ? err : out)) {
        if (Date.now() > end || child.exitCode !== null) {
          throw new Error(`no ${pattern} on ${stream} within ${ms} ms; stderr:\n${err}\nstdout:\n${out}`);
        }
        await sleep(20);
      }
    };
    const p = { child, stdout: () => out, stderr: () => err, waitFor, exited };
    started.push(p);
    return p;
  };

  /** Runs the CLI to completion. */
  const runCli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => {
    const p = spawnCli(args, env);
    p.child.stdin!.end();
    return p.exited;
  };

  /** A temp dir removed by `reap()`; fixture pid files written into it are killed by `reap()`. */
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-cli-'));
    dirs.push(dir);
    return dir;
  };

  const tracked: number[] = [];
  /** A CLI pid spawned by someone else (the SDK's client transport) that `reap()` must end too. */
  const trackPid = (pid: number) => void tracked.push(pid);

  const reap = async () => {
    for (const pid of tracked.splice(0)) {
      for (const signal of ['SIGINT', 'SIGINT', 'SIGKILL'] as const) {
        if (await allGone([pid], 2000)) break;
        killQuietly(pid, signal);
      }
    }
    for (const p of started.splice(0)) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
      // Twice SIGINT is the CLI's own "reap everything now"; SIGKILL only if even that did not end it.
      p.child.kill('SIGINT');
      if (!(await settles(p, 3000))) p.child.kill('SIGINT');
      if (!(await settles(p, 2000))) p.child.kill('SIGKILL');
      await p.exited;
    }
    for (const dir of dirs.splice(0)) {
      for (const pid of fixturePids(dir)) killGroup(pid);
      rmSync(dir, { recursive: true, force: true });
    }
    if (home) rmSync(home, { recursive: true, force: true });
    home = undefined;
  };

  return { spawnCli, runCli, tempDir, trackPid, reap };
}

async function settles(p: CliProcess, ms: number): Promise<boolean> {
  return Promise.race([p.exited.then(() => true), sleep(ms).then(() => false)]);
}

/** Every pid (and grandchild) the fixture wrote to `*.pid.json` files in a dir. */
export function fixturePids(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.pid.json')) continue;
    try {
      const rec = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
        pid: number;
        grandchild: number | null;
      };
      pids.push(rec.pid);
      if (rec.grandchild) pids.push(rec.grandchild);
    } catch {
      // A file caught mid-rename is retried by the next reader; nothing to kill from it.
    }
  }
  return pids;
}

function killGroup(pid: number): void {
  // A pid from a file is data: 1 would make kill(-1) signal every process there is, 0 our own group.
  if (!Number.isInteger(pid) || pid <= 1) return;
  killQuietly(-pid, 'SIGKILL');
  killQuietly(pid, 'SIGKILL');
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls until every pid is gone; returns whether they are. */
export async function allGone(pids: readonly number[], ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (pids.some(alive)) {
    if (Date.now() > end) return false;
    await sleep(20);
  }
  return true;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Options of one fixture server in a test config. */
export interface FixtureServer {
  id: string;
  flags?: string[];
  /** YAML flow map of `timeouts` (default `{ startup: 5s, call: 5s, shutdown: 1s }`). */
  timeouts?: string;
  /** More YAML lines of the server block, indented by four spaces. */
  extra?: string;
}

/**
 * Writes a fleet config of fixture servers into `dir` (each writes `<dir>/<id>.pid.json`) and returns its path.
 * Short timeouts and backoff so restarts happen within a test.
 */
export function writeFixtureConfig(dir: string, servers: FixtureServer[], head = ''): string {
  const q = (s: string) => JSON.stringify(s);
  const blocks = servers.map((s) => {
    // `--pid-file=PATH` as one arg: a separate PATH arg naming an existing file would be hashed into the trust
    // fingerprint as a script, and the file changes on every launch.
    const args = [FIXTURE, ...(s.flags ?? []), `--pid-file=${join(dir, `${s.id}.pid.json`)}`];
    return [
      `  ${s.id}:`,
      `    command: ${q(process.execPath)}`,
      `    args: [${args.map(q).join(', ')}]`,
      '    restart: { policy: on-failure, backoff: { initial: 200ms, multiplier: 1, max: 200ms, jitter: 0 } }',
      `    timeouts: ${s.timeouts ?? '{ startup: 5s, call: 5s, shutdown: 1s }'}`,
      ...(s.extra ? [s.extra] : []),
    ].join('\n');
  });
  const path = join(dir, 'fleet.yaml');
  writeFileSync(path, `${head}servers:\n${blocks.join('\n')}\n`);
  return path;
}

/** The pid the fixture of `id` wrote, once it did. */
export async function pidOf(dir: string, id: string, ms = 5000): Promise<number> {
  const file = join(dir, `${id}.pid.json`);
  const end = Date.now() + ms;
  for (;;) {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid;
    } catch {
      if (Date.now() > end) throw new Error(`${file} never appeared`);
      await sleep(20);
    }
  }
}
