import type { MessageCut } from './line-summary.js';

const KiB = 1024;

function size(bytes: number): string {
  return bytes >= KiB * KiB ? `${(bytes / (KiB * KiB)).toFixed(1)} MiB` : `${Math.round(bytes / KiB)} KiB`;
}

/** The sentence a MESSAGE_CUT notice carries: what arrived, and what of it the host never saw. */
export function describeMessageCut(cut: MessageCut): string {
  const left = cut.dropped.length > 0 ? `without ${cut.dropped.join(', ')}` : '';
  if (cut.kind === 'notification') {
    return `sent a ${cut.method} of ${size(cut.bytes)}: passed on ${left || 'cut'} (params fields over 16 KiB, or past 64 KiB in all, are left out)`;
  }
  const items =
    cut.kept < cut.total
      ? `the first ${cut.kept} of ${cut.total} ${cut.field}`
      : `all ${cut.total} ${cut.field}`;
  return `sent a list page of ${size(cut.bytes)}: kept ${items}${left ? `, ${left}` : ''} (a page keeps 1 MiB of items; a page cut short ends the listing)`;
}
