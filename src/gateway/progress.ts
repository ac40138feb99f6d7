import type { ProgressUpdate } from '../protocol/pending-requests.js';

type ProgressToken = string | number;

/** What a gateway request handler is handed that matters for progress (the SDK's `extra`, narrowed). */
export interface ProgressExtra {
  sendNotification: (n: {
    method: 'notifications/progress';
    params: { progressToken: ProgressToken; progress: number; total?: number; message?: string };
  }) => Promise<void>;
}

/**
 * The `onProgress` of a call made for a front client that sent a `progressToken`: each update the server
 * reports under our own token (one per backend request, so two clients' tokens never meet) goes back to that
 * client under the token it chose. No token, no progress asked of the server.
 */
export function relayProgress(
  meta: { progressToken?: unknown } | undefined,
  extra: ProgressExtra,
  onWarn?: (message: string) => void,
): { onProgress?: (update: ProgressUpdate) => void } {
  const token = meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return {};
  return {
    onProgress: (update) => {
      extra
        .sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...update } })
        .catch((err: unknown) =>
          onWarn?.(`could not relay progress: ${err instanceof Error ? err.message : String(err)}`),
        );
    },
  };
}
