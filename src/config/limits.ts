// What one server may cost the host by talking: bytes queued for it, requests it sends us, and the size of its
// tool listing. Defaults sit far above what a well-behaved server needs and far below what would hurt a host.

const MiB = 1024 * 1024;

/** A server's bounds, with bytes and counts filled in. */
export interface ServerLimits {
  /** Bytes written to the server's stdin and not yet taken by it; past this the server is treated as wedged. */
  queueBytes: number;
  /** Server→client requests answered per second (token bucket refill), and the burst the bucket holds. */
  requestRate: number;
  requestBurst: number;
  /** One `tools/list` pagination, all pages together: bytes (as JSON) and pages. */
  listBytes: number;
  listPages: number;
}

export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = {
  queueBytes: 16 * MiB,
  requestRate: 100,
  requestBurst: 200,
  listBytes: 64 * MiB,
  listPages: 1000,
};

/** The smallest queue bound: one ordinary message must always fit. */
export const MIN_QUEUE_BYTES = 64 * 1024;
/** The smallest listing byte bound. */
export const MIN_LIST_BYTES = 1024;
