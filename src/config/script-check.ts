// `node missing.js` finds its command and its cwd, spawns, and only then dies with "Cannot find module": a
// restart loop that `check` could have named. For the runtimes that take a script file, the first argument that
// looks like one must exist, relative to the server's cwd as the runtime resolves it.
import { statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';

/** Runtimes whose first script-like argument is a file they load (`python3.12` and `nodejs` included). */
const RUNNER = /^(?:node|nodejs|bun|deno|tsx|ts-node|python(?:\d+(?:\.\d+)?)?|pypy3?)(?:\.exe)?$/;

/** What a script file is called: JavaScript, TypeScript and Python sources. */
const SCRIPT = /\.(?:[cm]?js|jsx|[cm]?ts|tsx|py|pyw)$/i;

/** Arguments after which the runtime reads no script file: code given inline, a module by name, stdin. */
const NO_FILE = new Set(['-e', '--eval', '-p', '--print', '-c', '-m', '-', 'eval', 'repl']);

/** Flags whose value is a file loaded before the script (`node --import ./hook.mjs server.js`). */
const PRELOAD = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);

/** How many leading args are looked at, as the trust fingerprint looks for script files. */
const ARGS_LOOKED_AT = 8;

/** A missing script: which arg, and the file that is not there. */
export interface MissingScript {
  index: number;
  file: string;
}

/**
 * The script argument of `command args` that names no file under `cwd`, or undefined: for a runtime listed in
 * {@link RUNNER}, the first arg ending in a script extension (the script; later args are its own), or a preload
 * flag's file before it, unless an inline-code or module flag comes first. Flags, `--x=y` values and URLs or
 * specifiers (`https://…`, `npm:x`, `jsr:x`) are never taken for a file.
 */
export function missingScript(
  command: string,
  args: readonly string[],
  cwd: string,
): MissingScript | undefined {
  if (!RUNNER.test(basename(command))) return undefined;
  const looked = args.slice(0, ARGS_LOOKED_AT);
  for (const [index, arg] of looked.entries()) {
    if (NO_FILE.has(arg)) return undefined;
    if (arg.startsWith('-') || arg.includes('=') || /^[a-z][a-z0-9+.-]*:/i.test(arg)) continue;
    if (!SCRIPT.test(arg)) continue;
    const file = isAbsolute(arg) ? arg : resolve(cwd, arg);
    if (!exists(file)) return { index, file };
    if (!PRELOAD.has(looked[index - 1] ?? '')) return undefined;
  }
  return undefined;
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch (err) {
    // Only a file that is not there is reported; one we may not look at is the runtime's business.
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}
