import type { FingerprintFacts } from './fingerprint.js';
import { maskArgs, maskInline } from './mask.js';

/** The line a first approval's `changes` holds: there is nothing to compare with. */
export const FIRST_APPROVAL = 'first approval';

/**
 * Human lines of what differs between the facts approved before and the facts seen now, e.g.
 * `command: node → bun`, `executable content changed`, `env TOKEN changed`, `script server.js content changed`.
 * Values of env vars are never shown (only their hashes are known); args are shown masked.
 */
export function describeChanges(previous: FingerprintFacts | undefined, current: FingerprintFacts): string[] {
  if (previous === undefined) return [FIRST_APPROVAL];
  const lines: string[] = [];
  if (previous.command !== current.command) lines.push(`command: ${previous.command} → ${current.command}`);
  if (previous.executable !== current.executable) {
    lines.push(
      `executable: ${previous.executable ?? '(not found)'} → ${current.executable ?? '(not found)'}`,
    );
  }
  if (
    previous.executableSha256 !== null &&
    current.executableSha256 !== null &&
    previous.executableSha256 !== current.executableSha256
  ) {
    lines.push('executable content changed');
  }
  lines.push(...argsLines(previous.args, current.args));
  if (
    previous.argValues !== current.argValues &&
    JSON.stringify(previous.args) === JSON.stringify(current.args)
  )
    lines.push('args: a value from the environment changed');
  if (previous.cwd !== current.cwd) lines.push(`cwd: ${previous.cwd} → ${current.cwd}`);
  lines.push(...mapLines('env', previous.env, current.env));
  lines.push(...setLines('inherited env', previous.inheritEnv, current.inheritEnv));
  lines.push(...scriptLines(previous, current));
  lines.push(...remoteLines(previous.remote, current.remote));
  lines.push(...containerLines(previous.container, current.container));
  return lines;
}

// The same tag on other content is named as such: the case a moved tag must never slip through.
function containerLines(
  before: FingerprintFacts['container'],
  after: FingerprintFacts['container'],
): string[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined || after === undefined) return [`container: ${before ? 'removed' : 'added'}`];
  const lines: string[] = [];
  if (before.image !== after.image) lines.push(`image: ${before.image} → ${after.image}`);
  else if (before.imageId !== after.imageId) lines.push(`image ${after.image} now names other content`);
  for (const key of Object.keys({ ...before, ...after }).sort()) {
    if (key === 'image' || key === 'imageId') continue;
    const [a, b] = [(before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key]];
    if (JSON.stringify(a) !== JSON.stringify(b))
      lines.push(`container ${key}: ${JSON.stringify(a) ?? '(none)'} → ${JSON.stringify(b) ?? '(none)'}`);
  }
  return lines;
}

// Header values are never shown (only their hashes are known), as env values are not.
function remoteLines(before: FingerprintFacts['remote'], after: FingerprintFacts['remote']): string[] {
  const [a, b] = [before?.url, after?.url];
  const lines = a === b ? [] : [`url: ${a ? maskInline(a) : '(none)'} → ${b ? maskInline(b) : '(none)'}`];
  return lines.concat(mapLines('header', before?.headers ?? {}, after?.headers ?? {}));
}

function argsLines(before: readonly string[], after: readonly string[]): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const [a, b] = [JSON.stringify(maskArgs(before)), JSON.stringify(maskArgs(after))];
  return [a === b ? 'args: a masked value changed' : `args: ${a} → ${b}`];
}

function mapLines(label: string, before: Record<string, string>, after: Record<string, string>): string[] {
  const lines: string[] = [];
  for (const name of Object.keys(after).sort()) {
    const old = Object.hasOwn(before, name) ? before[name] : undefined;
    if (old === undefined) lines.push(`${label} ${name} added`);
    else if (old !== after[name]) lines.push(`${label} ${name} changed`);
  }
  for (const name of Object.keys(before).sort()) {
    if (!Object.hasOwn(after, name)) lines.push(`${label} ${name} removed`);
  }
  return lines;
}

function setLines(label: string, before: readonly string[], after: readonly string[]): string[] {
  const lines = after.filter((n) => !before.includes(n)).map((n) => `${label} ${n} added`);
  return lines.concat(before.filter((n) => !after.includes(n)).map((n) => `${label} ${n} removed`));
}

// Scripts are matched by real path, and named by the arg as the config wrote it.
function scriptLines(previous: FingerprintFacts, current: FingerprintFacts): string[] {
  const before = new Map(previous.scripts.map((s) => [s.path, s]));
  const after = new Set(current.scripts.map((s) => s.path));
  const lines: string[] = [];
  for (const s of current.scripts) {
    const old = before.get(s.path);
    if (old === undefined) lines.push(`script ${s.arg} added`);
    else if (old.sha256 !== s.sha256) lines.push(`script ${s.arg} content changed`);
  }
  for (const s of previous.scripts) if (!after.has(s.path)) lines.push(`script ${s.arg} removed`);
  return lines;
}
