import { RegistryError } from './errors.js';

const BARE_NAME = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*$/;
const SERVER_ID = /^[a-z][a-z0-9_-]*$/;

/**
 * The strict naming convention for tools a manifest or config `tools:` declares: one or more dot-separated
 * segments, each `[a-z][a-z0-9_]*` (`documents.create`, `list_files`). Rejects uppercase, dashes, leading,
 * trailing or double dots, leading digits, the empty string and non-strings.
 */
export function isValidBareName(name: unknown): name is string {
  return typeof name === 'string' && BARE_NAME.test(name);
}

/** A server (plugin) id: `[a-z][a-z0-9_-]*`, never a dot, so that a namespaced name splits at its first dot. */
export function isValidServerId(id: unknown): id is string {
  return typeof id === 'string' && SERVER_ID.test(id);
}

/** `('markview', 'documents.create')` → `'markview.documents.create'`. Throws `invalid_name` on a bad part. */
export function synthesizeNamespacedName(serverId: string, bareName: string, separator = '.'): string {
  checkServerId(serverId);
  if (!isValidBareName(bareName)) {
    throw new RegistryError(
      'invalid_name',
      `invalid tool name ${show(bareName)}: expected dot-separated segments of [a-z][a-z0-9_]*`,
    );
  }
  checkSeparator(separator);
  // With the default `.` this always holds (server ids have no dots). With another separator (`__`) an id that
  // contains it, or ends in a character that merges with it, would not split back: refuse rather than misroute.
  if (!splitsBack(serverId, separator)) {
    throw new RegistryError(
      'invalid_name',
      `server id ${show(serverId)} is ambiguous with separator ${show(separator)}: the name would not split back`,
    );
  }
  return serverId + separator + bareName;
}

/**
 * The exact inverse of {@link synthesizeNamespacedName}: splits at the FIRST separator (server ids contain no
 * dots, and `[a-z][a-z0-9_-]*` cannot contain the separator where it would matter). Throws `invalid_name` when
 * the name has no separator or either half is invalid.
 */
export function parseNamespacedName(name: string, separator = '.'): { pluginId: string; bareName: string } {
  checkSeparator(separator);
  if (typeof name !== 'string') {
    throw new RegistryError('invalid_name', `invalid namespaced name ${show(name)}: not a string`);
  }
  const at = name.indexOf(separator);
  if (at < 0) {
    throw new RegistryError(
      'invalid_name',
      `invalid namespaced name ${show(name)}: no ${show(separator)} between server id and tool name`,
    );
  }
  const pluginId = name.slice(0, at);
  const bareName = name.slice(at + separator.length);
  if (!isValidServerId(pluginId)) {
    throw new RegistryError(
      'invalid_name',
      `invalid namespaced name ${show(name)}: bad server id ${show(pluginId)}`,
    );
  }
  if (!isValidBareName(bareName)) {
    throw new RegistryError(
      'invalid_name',
      `invalid namespaced name ${show(name)}: bad tool name ${show(bareName)}`,
    );
  }
  return { pluginId, bareName };
}

/**
 * Whether `serverId + separator + anything` has its FIRST separator right after the server id, so that the
 * name splits back to this server whatever follows. The one rule behind both the seed's namespaced names and the
 * fleet's exposed names (`exposedName` keeps a join plain only when it holds).
 */
export function splitsBack(serverId: string, separator: string): boolean {
  // An occurrence that starts inside the id ends at most one character into the rest, so the id plus the
  // separator is all that needs looking at.
  return (serverId + separator).indexOf(separator) === serverId.length;
}

/** Throws `invalid_name` unless `id` is a server id ({@link isValidServerId}). */
export function checkServerId(id: unknown): asserts id is string {
  if (!isValidServerId(id)) {
    throw new RegistryError('invalid_name', `invalid server id ${show(id)}: expected [a-z][a-z0-9_-]*`);
  }
}

/** Throws `invalid_name` unless `separator` is a non-empty string. */
export function checkSeparator(separator: unknown): asserts separator is string {
  if (typeof separator !== 'string' || separator.length === 0) {
    throw new RegistryError(
      'invalid_name',
      `invalid separator ${show(separator)}: must be a non-empty string`,
    );
  }
}

function show(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}
