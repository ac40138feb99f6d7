import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { ConfigError } from '../../config/config-error.js';
import { blankJsonComments, isJsonSource } from '../../config/jsonc.js';
import { formatProblem, type LocatedDocument, parseLocatedYaml } from '../../registry/located-yaml.js';
import { CliError, usageError } from '../errors.js';
import { convertClientConfig } from './convert.js';
import { renderConversion } from './render.js';
import { starterConfig } from './starter.js';

/** Flags of `init`. */
export interface InitFlags {
  /** A client's config to convert instead of writing the starter. */
  from?: string;
  /** Overwrite `file` when it exists. */
  force?: boolean;
}

/**
 * `init [file]`: writes the commented starter config, or the conversion of a Claude Desktop, Cursor or VS Code
 * file, to `file` (created 0600: a converted file may still hold what the client's did). Never overwrites a file
 * unless `--force`. Each note of a conversion is also a warning line on stderr, located in the source.
 */
export async function initCommand(
  file: string,
  flags: InitFlags,
  out: { stdout: (s: string) => void; stderr: (s: string) => void } = {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
  },
): Promise<number> {
  let text = starterConfig(basename(file));
  let summary = `wrote ${file}, a starter config with one server`;
  if (flags.from !== undefined) {
    const conversion = convertClientConfig(await readSource(flags.from), flags.from, dirname(resolve(file)));
    text = renderConversion(conversion, flags.from, file);
    for (const w of conversion.warnings) out.stderr(`warning: ${formatProblem(w)}\n`);
    const warned = conversion.warnings.length;
    summary =
      `wrote ${file}: ${conversion.servers.length} server(s) from ${flags.from}` +
      (warned > 0 ? `, ${warned} warning(s), each also a comment in the file` : '');
  }
  try {
    await writeFile(file, text, { flag: flags.force ? 'w' : 'wx', mode: 0o600 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new CliError(
        'file_exists',
        `${file} already exists; pass --force to overwrite it, or name another file`,
      );
    throw new CliError('write_failed', `cannot write ${file}: ${code ?? (err as Error).message}`);
  }
  out.stdout(`${summary}\ncheck it with: mcp-supervisor check ${file}\n`);
  return 0;
}

/** The client file, parsed with positions; a file that is no JSON or YAML is its located problems. */
async function readSource(path: string): Promise<LocatedDocument> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? String(err));
    throw usageError(`cannot read --from '${path}': ${why}`, 'config_unreadable');
  }
  const body = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  let doc: LocatedDocument;
  try {
    doc = parseLocatedYaml(isJsonSource(path) ? blankJsonComments(body) : body, path);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new ConfigError([
      { source: path, line: 1, col: 1, path: '', message: `cannot read it: ${message}` },
    ]);
  }
  // The parser may say the same breakage twice over; the first place is where to look.
  if (doc.problems.length > 0) throw new ConfigError(doc.problems.slice(0, 1));
  return doc;
}
