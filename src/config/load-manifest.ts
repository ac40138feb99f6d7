// A server's plugin manifest, read while the config is parsed (parseConfig is synchronous). Its problems keep
// the manifest's own file:line:col, so the user is sent to the line to fix.
import { readFileSync } from 'node:fs';
import { RegistryError } from '../registry/errors.js';
import type { LocatedProblem } from '../registry/located-yaml.js';
import { type Manifest, parseManifest } from '../registry/manifest.js';

/** The manifest, or why it cannot be used: `readError` (about the config's `manifest:` line) or its own problems. */
export type ManifestLoad =
  | { ok: true; manifest: Manifest }
  | { ok: false; readError: string }
  | { ok: false; problems: LocatedProblem[] };

/** Reads and validates the manifest at the absolute path `file`. */
export function loadManifestSync(file: string): ManifestLoad {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, readError: `cannot read manifest ${file}: ${readReason(err)}` };
  }
  try {
    return { ok: true, manifest: parseManifest(text, file) };
  } catch (err) {
    if (err instanceof RegistryError && err.problems.length > 0)
      return { ok: false, problems: [...err.problems] };
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      problems: [{ source: file, line: 1, col: 1, path: '', message: `cannot parse manifest: ${message}` }],
    };
  }
}

/** Node's `ENOENT: no such file or directory, open '…'` without the path, which the message already names. */
export function readReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/, \w+ '.*'$/s, '');
}
