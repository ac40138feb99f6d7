import { createHash } from 'node:crypto';
import { checkSeparator, checkServerId, splitsBack } from './naming.js';

/** The MCP tool-name charset: what a live server may call its tools (`get-env`, `getTinyImage`, `read_file`). */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** What LLM function-calling APIs accept as a tool name. */
export const LLM_SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The longest exposed name; longer joins are shortened. */
export const MAX_EXPOSED_NAME = 64;

const UNSAFE_CHAR = /[^A-Za-z0-9_-]/g;
const HASH_HEX = 8;
// How much of the LLM-safe join a hashed name keeps before `-` and the hash.
const HASHED_STEM = MAX_EXPOSED_NAME - HASH_HEX - 1;
// Every hashed name ends with this.
const HASHED_TAIL = /-[0-9a-f]{8}$/;

/** Whether a discovered tool name is in the MCP charset `[A-Za-z0-9_.-]{1,128}`. */
export function isValidMcpToolName(name: unknown): name is string {
  return typeof name === 'string' && MCP_TOOL_NAME.test(name);
}

/**
 * The fleet-wide name of one server's tool: the seed's namespaced name (`synthesizeNamespacedName`) extended to
 * the names live servers use. It is `serverId + separator + toolName` when that join is already fine — for a
 * strict bare name under the default `.` it is exactly what `synthesizeNamespacedName` makes — else an LLM-safe
 * form (`^[A-Za-z0-9_-]{1,64}$`) ending in a hash of (serverId, toolName).
 *
 * Why it is unique across the fleet (for one separator):
 * - a plain name is used only when the join splits back at the FIRST occurrence of the separator (`splitsBack`,
 *   the rule the seed's names obey: `a__b` + `c` and `a` + `b__c` both join to `a__b__c`, so neither stays
 *   plain), so two plain names never meet;
 * - hashed names are LLM-safe and end in `-` + 8 lowercase hex; an LLM-safe plain name that ends like that is
 *   hashed too, so plain and hashed never meet;
 * - hashed names carry sha256(serverId + NUL + toolName); server ids never hold NUL, so that input is injective.
 * Depends only on its three arguments, never on which other tools exist. Throws `RegistryError('invalid_name')`
 * on a server id outside `[a-z][a-z0-9_-]*` or an empty separator, as the seed's functions do.
 */
export function exposedName(serverId: string, toolName: string, separator: string): string {
  checkServerId(serverId);
  checkSeparator(separator);
  const plain = serverId + separator + toolName;
  const llmSafe = separator === '__' || plain.length > MAX_EXPOSED_NAME;
  const safeAlready = LLM_SAFE_NAME.test(plain);
  const keepPlain = splitsBack(serverId, separator) && !looksHashed(plain) && (safeAlready || !llmSafe);
  if (keepPlain) return plain;
  return `${safeStem(plain)}-${toolHash(serverId, toolName)}`;
}

/**
 * The name one server's tool or prompt is exposed under: {@link exposedName}, or for a server with
 * `namespace: false` its own name unchanged (which may then meet another server's: see `settleNames`).
 */
export function exposedNameFor(
  serverId: string,
  name: string,
  separator: string,
  namespaced: boolean,
): string {
  return namespaced ? exposedName(serverId, name, separator) : name;
}

/**
 * The server an exposed name belongs to, from the name and the fleet's server ids alone — for a name no route
 * table holds yet (its server is starting or restarting). The inverse of {@link exposedName} as far as one
 * exists, and the one place names are taken apart:
 * - a plain name splits at its FIRST separator, as `parseNamespacedName` splits the seed's names (exact: a name
 *   stays plain only when it splits back that way);
 * - a hashed name cannot be split (the hash is one-way), so it belongs to the longest server id whose LLM-safe
 *   join with the separator begins it (a guess only when one id with the separator made safe prefixes another).
 * Undefined when no listed server can own the name. Routing a call never uses this: the route table's explicit
 * map does.
 */
export function exposedNameOwner(
  name: string,
  serverIds: Iterable<string>,
  separator: string,
): string | undefined {
  const ids = new Set(serverIds);
  if (!looksHashed(name)) {
    const at = name.indexOf(separator);
    const owner = at > 0 ? name.slice(0, at) : undefined;
    return owner !== undefined && ids.has(owner) ? owner : undefined;
  }
  let best: string | undefined;
  for (const id of ids) {
    if (name.startsWith(safeStem(id + separator)) && (best === undefined || id.length > best.length))
      best = id;
  }
  return best;
}

// Only an LLM-safe name can equal a hashed one (hashed names are all safe), so only such a name must not look hashed.
function looksHashed(name: string): boolean {
  return LLM_SAFE_NAME.test(name) && HASHED_TAIL.test(name);
}

function safeStem(joined: string): string {
  return joined.replace(UNSAFE_CHAR, '_').slice(0, HASHED_STEM);
}

function toolHash(serverId: string, toolName: string): string {
  return createHash('sha256')
    .update(serverId + '\0' + toolName, 'utf8')
    .digest('hex')
    .slice(0, HASH_HEX);
}
