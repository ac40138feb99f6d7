// Which files a `node …` command line runs before any of its own code decides: the preloads and the entry script.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { regularFile } from '../process/resolve-executable.js';

/** A file node would load from the command line, and the position of the arg that names it. */
export interface NodeCodeFile {
  index: number;
  file: string;
}

/** True for a command that is Node.js (`node`, `nodejs`, `node20`, a path to one). */
export function isNodeCommand(command: string, executable: string | null): boolean {
  const NODE = /^node(?:js)?\d*(?:\.exe)?$/;
  return NODE.test(basename(command)) || (executable !== null && NODE.test(basename(executable)));
}

const PRELOADS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);
// Options whose value is the next arg when not given as `--flag=value`; anything else is taken as a switch.
const WITH_VALUE = new Set([
  ...PRELOADS,
  '-C',
  '--conditions',
  '--input-type',
  '--env-file',
  '--inspect-port',
  '--debug-port',
  '--title',
  '--redirect-warnings',
  '--diagnostic-dir',
  '--report-dir',
  '--report-directory',
  '--report-filename',
  '--report-signal',
  '--heapsnapshot-signal',
  '--cpu-prof-dir',
  '--cpu-prof-name',
  '--heap-prof-dir',
  '--heap-prof-name',
  '--experimental-policy',
  '--policy-integrity',
  '--openssl-config',
  '--tls-keylog',
  '--tls-cipher-list',
  '--icu-data-dir',
  '--unhandled-rejections',
  '--dns-result-order',
  '--disable-proto',
  '--experimental-default-type',
  '--watch-path',
  '--stack-trace-limit',
]);
// After these, the command line runs code given inline (already in args, so in the fingerprint), not a file.
const INLINE = new Set(['-e', '--eval', '-p', '--print', '-pe', '-']);

/**
 * The preloads (`--require`/`-r`, `--import`, `--loader`, as `--flag v` or `--flag=v`) and the entry script of a
 * node command line, resolved as node would from `cwd`: `srv` without an extension, `.` or a directory through
 * its package.json `main` or index.js. A directory entry also yields its package.json, since `main` picks the
 * file. Modules these import are not followed.
 */
export async function nodeCodeFiles(args: readonly string[], cwd: string): Promise<NodeCodeFile[]> {
  const out: NodeCodeFile[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (INLINE.has(arg)) break;
    if (arg === '--') {
      await entry(args[i + 1], i + 1, cwd, out);
      break;
    }
    if (!arg.startsWith('-')) {
      await entry(arg, i, cwd, out);
      break;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (/^--(?:eval|print)=/.test(arg)) break;
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else if (WITH_VALUE.has(flag)) value = args[++i];
    if (PRELOADS.has(flag) && value !== undefined) {
      const file = await preload(value, cwd);
      if (file !== null) out.push({ index: i, file });
    }
  }
  return out;
}

async function entry(
  arg: string | undefined,
  index: number,
  cwd: string,
  out: NodeCodeFile[],
): Promise<void> {
  if (arg === undefined || arg === '') return;
  for (const file of await entryFiles(resolve(cwd, arg))) out.push({ index, file });
}

const EXTENSIONS = ['', '.js', '.json', '.node'];

/**
 * How node finds a main script, read fresh every time (require.resolve caches package.json and paths for the
 * life of the process, and a long-running host must see an edited `main`): the file, the file with an
 * extension, else a directory's package.json `main`, else its index file. A directory gives its package.json too.
 */
async function entryFiles(path: string): Promise<string[]> {
  const file = await firstFile(EXTENSIONS.map((ext) => path + ext));
  if (file !== null) return [file];
  const pkg = await regularFile(join(path, 'package.json'));
  const found: string[] = pkg === null ? [] : [pkg.path];
  let main: unknown;
  if (pkg !== null) {
    try {
      main = (JSON.parse(await readFile(pkg.path, 'utf8')) as { main?: unknown }).main;
    } catch {
      // An unreadable package.json is still hashed above; node would fall back to index.js.
    }
  }
  const candidates =
    typeof main === 'string' && main !== ''
      ? [...EXTENSIONS.map((ext) => resolve(path, main) + ext), ...indexFiles(resolve(path, main))]
      : [];
  const script = await firstFile([...candidates, ...indexFiles(path)]);
  if (script !== null) found.unshift(script);
  return found;
}

function indexFiles(dir: string): string[] {
  return EXTENSIONS.slice(1).map((ext) => join(dir, `index${ext}`));
}

async function firstFile(paths: readonly string[]): Promise<string | null> {
  for (const p of paths) {
    const f = await regularFile(p);
    if (f !== null) return f.path;
  }
  return null;
}

// A preload is a path (relative to cwd), a file: URL, or a package name looked up from cwd's node_modules.
async function preload(spec: string, cwd: string): Promise<string | null> {
  if (spec === '') return null;
  if (spec.startsWith('file:')) {
    try {
      return (await regularFile(fileURLToPath(spec)))?.path ?? null;
    } catch {
      return null;
    }
  }
  if (spec.startsWith('.') || spec.startsWith('/')) return (await entryFiles(resolve(cwd, spec)))[0] ?? null;
  try {
    return createRequire(join(cwd, 'noop.js')).resolve(spec);
  } catch {
    return null;
  }
}
