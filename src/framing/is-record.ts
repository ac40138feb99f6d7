/**
 * A JSON object as parsed from the wire, a YAML or JSON file, or a caller's argument: an object that is not
 * null and not an array. The one such guard in the tree; it lives in the lowest folder (framing imports nothing
 * else of ours) so that config, registry, protocol and supervisor can all use it without a new import edge.
 */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
