import { MAX_JSON_DEPTH } from '../../framing/json-depth.js';
import { describeMessageCut } from '../../framing/message-cut.js';
import type { ConnectionEvent } from '../../protocol/connection-types.js';
import { RemoteError } from '../../protocol/errors.js';
import { describeCut, type ListingCut } from '../../protocol/tool-listing.js';
import type { NoticeCode } from '../types.js';

const MiB = 1024 * 1024;

/** The coded notice a connection event calls for, if any: what a server's talk cost it. */
export function talkNotice(event: ConnectionEvent): { code: NoticeCode; message: string } | undefined {
  if (event.type === 'queue_full') {
    return {
      code: 'QUEUE_FULL',
      message:
        `stopped reading its input (${(event.queuedBytes / MiB).toFixed(1)} MiB queued, bound ` +
        `${(event.limitBytes / MiB).toFixed(1)} MiB): killed as wedged`,
    };
  }
  if (event.type === 'message_cut') return { code: 'MESSAGE_CUT', message: describeMessageCut(event.cut) };
  if (event.type === 'rate_limited') {
    return {
      code: 'RATE_LIMITED',
      message: `sends requests (${event.method}) faster than its rate allows: the rest get an error`,
    };
  }
  return undefined;
}

/** The notice for a tool listing cut at one of its bounds. */
export function listingNotice(
  cut: ListingCut,
  when: 'handshake' | 'relist',
): { code: NoticeCode; message: string } {
  const kept =
    when === 'relist' ? 'keeping the last good tool set' : 'starting with the tools of the pages taken';
  return { code: 'LISTING_CUT', message: `${describeCut(cut)}; ${kept}` };
}

/** The notice for tools a listing left out because their definitions nest deeper than anything can pass on. */
export function refusedToolsNotice(names: readonly string[]): { code: NoticeCode; message: string } {
  // A hostile name may be long: each is cut, and a few stand for all.
  const shown = names.slice(0, 5).map((n) => (n === '' ? '(unnamed)' : JSON.stringify(n.slice(0, 64))));
  const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : '';
  const what =
    names.length === 1 ? 'a tool whose definition nests' : `${names.length} tools whose definitions nest`;
  return {
    code: 'TOOL_REFUSED',
    message: `listed ${what} more than ${MAX_JSON_DEPTH} levels deep, left out: ${shown.join(', ')}${more}`,
  };
}

/** The notice for a handshake that failed while its server still runs: what went wrong, at which step. */
export function handshakeNotice(step: string, error: unknown): { code: NoticeCode; message: string } {
  const what =
    error instanceof RemoteError
      ? `${step} answered error ${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : `${step}: ${String(error)}`;
  // The server's own words, bounded: a hostile one could send megabytes.
  const cut = what.length > 500 ? `${what.slice(0, 500)}…` : what;
  return { code: 'HANDSHAKE_FAILED', message: `handshake failed: ${cut}` };
}
