import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, sleep } from '../cli/helpers.js';
import { type DocBlock, docBlocks, docFiles } from './doc-samples.js';
import { killWithHome, leftWithHome } from './helpers.js';

// Every sample the docs mark runs as written: its group's files go into a directory of a project that installed
// the package (node_modules/mcp-supervisor is this repository, built), are type-checked, and run with tsx, with a
// HOME of their own (trust store, state directory; it also marks their processes, so the test sees none is left).

const SCRIPT = '/usr/bin/script';
const hasScript = existsSync(SCRIPT);
if (!hasScript)
  console.warn(`\n#### ${SCRIPT} is missing: the complete host's Ctrl-C on a terminal is NOT checked ####\n`);

/** A sample run to its end: the test answers its trust question, then waits for its exit. */
interface Step {
  file: string;
  /** Answers `y` to the sample's `[y/N]` question. */
  approve?: boolean;
  stdout?: RegExp;
  /** A sample that serves until its client or a signal ends it: the test plays that part. */
  drive?: (run: Running) => Promise<void>;
}

interface Running {
  dir: string;
  env: Record<string, string>;
}

/** Each group of samples in the docs, in the order its samples run (the first approves what the others start). */
const RUNS: Record<string, Step[]> = {
  readme: [{ file: 'host.ts', approve: true, stdout: /^note #1 added$/m }],
  embedding: [
    { file: 'start.ts', approve: true, stdout: /^note #1 added$/m },
    { file: 'events.ts', stdout: /^notes: handshaking -> ready$/m },
    { file: 'reload.ts', stdout: /^notes unchanged ready$/m },
    { file: 'resources.ts', stdout: /^[A-Z_]+: / },
    { file: 'inspect.ts', stdout: /→ .* START/ },
    { file: 'metrics.ts', stdout: /^mcp_supervisor_server_state\{server="notes",state="ready"\} 1$/m },
    { file: 'gateway.ts', drive: stdioClient },
    { file: 'http.ts', drive: httpUntilSigint },
    { file: 'host.ts', drive: terminalCtrlC },
  ],
  configuration: [{ file: 'load.ts', stdout: /^\[ 'notes' \] \[ 'notes' \]$/m }],
  registry: [{ file: 'scopes.ts', stdout: /^forbidden: missing scopes: mcp\.write\.documents$/m }],
};

/** Files a sample reads that its doc names without showing. */
const EXTRA_FILES: Record<string, Record<string, string>> = {
  configuration: {
    'supervisor.yaml': 'servers:\n  notes:\n    command: node\n    args: [notes.mjs]\n    cwd: servers\n',
  },
};

const blocks: DocBlock[] = docFiles(ROOT).flatMap((doc) => docBlocks(ROOT, doc));
const samples = new Map<string, DocBlock[]>();
for (const b of blocks) {
  if (b.marker?.kind !== 'sample') continue;
  samples.set(b.marker.group, [...(samples.get(b.marker.group) ?? []), b]);
}
const fileOf = (b: DocBlock) => (b.marker?.kind === 'sample' ? b.marker.file : '');

describe('the samples in README.md and docs/', () => {
  it('marks every TypeScript block: a sample that runs, or a declaration', () => {
    const unmarked = blocks.filter((b) => b.lang === 'ts' && b.marker === undefined);
    expect(unmarked.map((b) => `${b.doc}:${b.line}`)).toEqual([]);
  });

  it('has a run for every sample and a sample for every run', () => {
    const inDocs = [...samples].flatMap(([g, bs]) =>
      bs.filter((b) => b.lang === 'ts').map((b) => `${g}/${fileOf(b)}`),
    );
    const inRuns = Object.entries(RUNS).flatMap(([g, steps]) => steps.map((s) => `${g}/${s.file}`));
    expect(inDocs.sort()).toEqual(inRuns.sort());
  });
});

for (const [group, steps] of Object.entries(RUNS)) {
  describe(`the ${group} samples`, () => {
    let dir: string;
    let home: string;
    let env: Record<string, string>;

    beforeAll(async () => {
      await ensureBuilt();
      dir = mkdtempSync(join(tmpdir(), `mcp-sup-sample-${group}-`));
      home = join(dir, 'home');
      mkdirSync(home);
      env = {
        ...(process.env as Record<string, string>),
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_STATE_HOME: join(home, '.local', 'state'),
      };
      delete env['MCP_SUPERVISOR_TRUST_STORE'];
      installInto(dir);
      for (const b of samples.get(group) ?? []) writeFileSync(join(dir, fileOf(b)), b.code);
      for (const [name, text] of Object.entries(EXTRA_FILES[group] ?? {}))
        writeFileSync(join(dir, name), text);
    }, 180_000);

    afterAll(() => {
      if (home) killWithHome(home);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('type-checks as written', async () => {
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const out = await promisify(execFile)(process.execPath, [tsc, '-p', dir], { timeout: 60_000 }).catch(
        (err: { stdout?: string }) => ({ stdout: err.stdout ?? String(err) }),
      );
      expect(out.stdout).toBe('');
    }, 90_000);

    for (const step of steps) {
      it.skipIf(step.drive === terminalCtrlC && !hasScript)(
        `runs ${step.file}`,
        async () => {
          if (step.drive) await step.drive({ dir, env });
          else await runToEnd(dir, env, step);
          expect(await leftWithHome(home, 5_000)).toEqual([]);
        },
        60_000,
      );
    }
  });
}

/** The directory as a host project that installed the package (and tsx, and the SDK it depends on) has it. */
function installInto(dir: string): void {
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  symlinkSync(ROOT, join(modules, 'mcp-supervisor'));
  for (const dep of ['tsx', '@modelcontextprotocol', '@types']) {
    symlinkSync(join(ROOT, 'node_modules', dep), join(modules, dep));
  }
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['*.ts'],
    }),
  );
}

function runSample(dir: string, env: Record<string, string>, file: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: dir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Collects a child's output and its exit. */
function watch(child: ChildProcess) {
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, ms: number, stream: () => string) => {
    const end = Date.now() + ms;
    while (!pattern.test(stream())) {
      if (Date.now() > end || child.exitCode !== null) {
        throw new Error(`no ${pattern} within ${ms} ms; stdout:\n${out}\nstderr:\n${err}`);
      }
      await sleep(20);
    }
  };
  const exit = async (ms: number) => {
    const timer = sleep(ms).then(() => 'still running' as const);
    const code = await Promise.race([exited, timer]);
    if (code === 'still running')
      throw new Error(`still running after ${ms} ms; stdout:\n${out}\nstderr:\n${err}`);
    return code;
  };
  return { out: () => out, err: () => err, waitFor, exit };
}

async function runToEnd(dir: string, env: Record<string, string>, step: Step): Promise<void> {
  const child = runSample(dir, env, step.file);
  try {
    const w = watch(child);
    if (step.approve) {
      await w.waitFor(/\[y\/N\] $/, 30_000, w.err);
      child.stdin!.write('y\n');
    }
    child.stdin!.end();
    expect(await w.exit(30_000), w.err()).toBe(0);
    if (step.stdout) expect(w.out()).toMatch(step.stdout);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** The stdio gateway sample, started by an SDK client as an MCP client starts a server; it ends with the client. */
async function stdioClient({ dir, env }: Running): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'gateway.ts'],
    cwd: dir,
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'samples-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('notes.add_note');
    const result = await client.callTool({ name: 'notes.add_note', arguments: { text: 'from a client' } });
    expect(result.content).toEqual([{ type: 'text', text: 'note #1 added' }]);
  } finally {
    await client.close();
  }
}

/** The HTTP sample: listening, /healthz answers, and one SIGINT ends it with exit 0. */
async function httpUntilSigint({ dir, env }: Running): Promise<void> {
  const child = runSample(dir, env, 'http.ts');
  try {
    const w = watch(child);
    await w.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/, 30_000, w.err);
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(w.err())![1]!;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    child.kill('SIGINT');
    expect(await w.exit(20_000), w.err()).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/**
 * The complete host on a real terminal (util-linux `script`), as a person runs it: answer its question, wait for
 * its call, type Ctrl-C once. It must stop the fleet and exit 0 on that first Ctrl-C.
 */
async function terminalCtrlC({ dir, env }: Running): Promise<void> {
  const cmd = `exec '${process.execPath}' --import tsx host.ts`;
  const child = spawn(SCRIPT, ['-qfec', cmd, '/dev/null'], {
    cwd: dir,
    env: { ...env, TERM: 'xterm', COLUMNS: '200', LINES: '40' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  try {
    const w = watch(child);
    // The notes server was approved by the first sample of the group, which the trust store remembers.
    await w.waitFor(/\[y\/N\] |note #1 added/, 30_000, w.out);
    if (!/note #1 added/.test(w.out())) child.stdin!.write('y\r');
    await w.waitFor(/note #1 added/, 30_000, w.out);
    child.stdin!.write('\x03');
    expect(await w.exit(20_000), w.out().slice(-1500)).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
