import type { LinkError } from '../../process/server-process.js';
import { maskInline } from '../../trust/mask.js';

/** A url server's failed or lost connection for people: `could not connect to URL: HTTP 401 …`. */
export function describeLinkError(reason: string, e: LinkError): string {
  const url = maskInline(e.url);
  if (reason === 'connect_failed') return `could not connect to ${url}: ${e.detail}`;
  if (reason === 'session_lost') return `${url} lost the session: ${e.detail}`;
  return `disconnected from ${url}: ${e.detail}`;
}

/** The failure as a short code for logs: the HTTP status, else the network error's code. */
export function linkErrorCode(e: LinkError): string | undefined {
  return e.status !== undefined ? `HTTP_${e.status}` : e.errno;
}
