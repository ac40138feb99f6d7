import { describeMessageCut } from '../framing/message-cut.js';
import type { ConnectionEvent } from '../protocol/connection-types.js';
import { describeCut, type ListingCut } from '../protocol/tool-listing.js';
import type { NoticeCode } from './types.js';

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
