import { StdioLink } from '../../protocol/stdio-link.js';
import type { CallRecords } from '../calls/records.js';
import type { Connections } from './connections.js';

/** What one server carries now, read when asked (a scrape), never counted on the call path. */
export interface ServerLoad {
  id: string;
  /** Tool calls under way; counted while an `onCall` listener (metrics, the inspector) is attached. */
  callsInFlight: number;
  /** Bytes written for the server and not yet taken by it (its outgoing queue). */
  queuedBytes: number;
  /** Messages refused since its outgoing queue hit its bound. */
  droppedMessages: number;
  /** Bytes read from its stdout and written to its stdin by its current process; absent without one (or for `url:`). */
  readBytes?: number;
  writtenBytes?: number;
}

/** One row per server id, in the order given. */
export function serverLoad(
  ids: readonly string[],
  connections: Connections,
  records: CallRecords,
): ServerLoad[] {
  return ids.map((id) => {
    const conn = connections.get(id);
    const row: ServerLoad = {
      id,
      callsInFlight: records.inFlight(id),
      queuedBytes: conn?.queuedBytes ?? 0,
      droppedMessages: conn?.droppedMessages ?? 0,
    };
    if (conn?.link instanceof StdioLink) {
      // The child's pipes are sockets, which count their own bytes: nothing is added to the hot path for this.
      const read = (conn.link.process.stdout as { bytesRead?: unknown }).bytesRead;
      const written = (conn.link.process.stdin as { bytesWritten?: unknown }).bytesWritten;
      if (typeof read === 'number') row.readBytes = read;
      if (typeof written === 'number') row.writtenBytes = written;
    }
    return row;
  });
}
