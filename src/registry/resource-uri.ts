/**
 * The fleet's scheme for resource URIs (docs/registry.md, "Resource URIs"): `mcp-supervisor://<server id>/<the
 * server's URI, percent-encoded>` names its server and its original URI, so it decodes back without a table. Which
 * URIs need it is decided where the fleet's lists are known (supervisor/resources/resources.ts).
 */

export const RESOURCE_SCHEME = 'mcp-supervisor:';
const PREFIX = `${RESOURCE_SCHEME}//`;

/** A URI of one server in the fleet's scheme: always routable, collision or not. */
export function qualifyUri(server: string, uri: string): string {
  return `${PREFIX}${encodeURIComponent(server)}/${encodeURIComponent(uri)}`;
}

/** The server and original URI a qualified URI names; undefined for any other URI or a malformed one. */
export function parseQualifiedUri(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith(PREFIX)) return undefined;
  const rest = uri.slice(PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  try {
    const server = decodeURIComponent(rest.slice(0, slash));
    const original = decodeURIComponent(rest.slice(slash + 1));
    return original === '' ? undefined : { server, uri: original };
  } catch {
    return undefined;
  }
}

/**
 * A URI template in the fleet's scheme: the literal parts are encoded as `qualifyUri` encodes a URI and each
 * `{expression}` is kept, so a client expands it as before and the expansion decodes to the server's own URI.
 */
export function qualifyTemplate(server: string, template: string): string {
  const parts = template.split(/(\{[^}]*\})/);
  const body = parts.map((p) => (p.startsWith('{') && p.endsWith('}') ? p : encodeURIComponent(p))).join('');
  return `${PREFIX}${encodeURIComponent(server)}/${body}`;
}

/** Whether a URI (or template) is already in the fleet's scheme: such a URI of a server is always qualified again. */
export function isQualified(uri: string): boolean {
  return uri.startsWith(PREFIX);
}
