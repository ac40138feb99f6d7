/** Every state a server can be in, as `status()` reports it. */
export type ServerState =
  | 'spawning'
  | 'handshaking'
  | 'ready'
  | 'wedged'
  | 'stopping'
  | 'backoff'
  | 'failed'
  | 'stopped'
  | 'untrusted';
