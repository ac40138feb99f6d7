/** Every state a server can be in, as `status()` reports it. */
export type ServerState =
  | 'spawning'
  | 'approving'
  | 'handshaking'
  | 'ready'
  | 'wedged'
  | 'stopping'
  | 'backoff'
  | 'failed'
  | 'stopped'
  | 'untrusted';

/** The states a server rests in once it went down: nothing runs, and nothing restarts it on its own. */
export const DOWN: ReadonlySet<string> = new Set<ServerState>(['failed', 'untrusted', 'stopped']);
