import { createHash } from 'node:crypto';
import { RegistryError } from './errors.js';
import { isValidServerId } from './naming.js';

/** The MCP tool-name charset: what a live server may call its tools (`get-env`, `getTinyImage`, `read_file`). */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** What LLM function-calling APIs accept as a tool name. */
export const LLM_SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The longest exposed name; longer joins are shortened. */
export const MAX_EXPOSED_NAME = 64;

const UNSAFE_CHAR = /[^A-Za-z0-9_-]/g;
const HASH_HEX = 8;
// Every hashed name ends with this.
const HASHED_TAIL = /-[0-9a-f]{8}$/;

/** Whether a discovered tool name is in the MCP charset `[A-Za-z0-9_.-]{1,128}`. */
export function isValidMcpToolName(name: unknown): name is string {
  return typeof name === 'string' && MCP_TOOL_NAME.test(name);
}

/**
 * The fleet-wide name of one server's tool: `serverId + separator + toolName` when that join is already fine,
 * else an LLM-safe form (`^[A-Za-z0-9_-]{1,64}$`) ending in a hash of (serverId, toolName).
 *
 * Why it is unique across the fleet (for one separator):
 * - a plain name is used only when the join splits back at the FIRST occurrence of the separator (`a__b` + `c`
 *   and `a` + `b__c` both join to `a__b__c`, so neither stays plain), so two plain names never meet;
 * - hashed names are LLM-safe and end in `-` + 8 lowercase hex; an LLM-safe plain name that ends like that is
 *   hashed too, so plain and hashed never meet;
 * - hashed names carry sha256(serverId + NUL + toolName); server ids never hold NUL, so that input is injective.
 * Depends only on its three arguments, never on which other tools exist. Throws `RegistryError('invalid_name')`
 * on a server id outside `[a-z][a-z0-9_-]*` or an empty separator.
 */
export function exposedName(serverId: string, toolName: string, separator: string): string {
  if (!isValidServerId(serverId)) {
    throw new RegistryError(
      'invalid_name',
      `invalid server id ${JSON.stringify(serverId)}: expected [a-z][a-z0-9_-]*`,
    );
  }
  if (typeof separator !== 'string' || separator.length === 0) {
    throw new RegistryError('invalid_name', 'invalid separator: must be a non-empty string');
  }
  const plain = serverId + separator + toolName;
  const llmSafe = separator === '__' || plain.length > MAX_EXPOSED_NAME;
  const splitsBack = (serverId + separator).indexOf(separator) === serverId.length;
  const safeAlready = LLM_SAFE_NAME.test(plain);
  // Only an already-safe name could equal a hashed one (hashed names are all safe), so only it must not look hashed.
  const looksHashed = safeAlready && HASHED_TAIL.test(plain);
  const keepPlain = splitsBack && !looksHashed && (safeAlready || !llmSafe);
  if (keepPlain) return plain;
  const safe = plain.replace(UNSAFE_CHAR, '_');
  return `${safe.slice(0, MAX_EXPOSED_NAME - HASH_HEX - 1)}-${toolHash(serverId, toolName)}`;
}

function toolHash(serverId: string, toolName: string): string {
  return createHash('sha256')
    .update(serverId + '\0' + toolName, 'utf8')
    .digest('hex')
    .slice(0, HASH_HEX);
}
