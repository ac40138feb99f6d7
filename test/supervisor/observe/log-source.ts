import type { LogSource } from '../../../src/supervisor/observe/server-logs.js';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';

/** The supervisor's event stream, driven by hand: without `onStderr` the ring only ever sees these events. */
export function logSource() {
  const listeners = new Set<(e: SupervisorEvent) => void>();
  const src: LogSource = {
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const emit = (e: SupervisorEvent) => {
    for (const l of listeners) l(e);
  };
  const line = (server: string, text: string, at = 1) =>
    emit({ type: 'stderr', server, line: text, dropped: 0, at });
  return { src, emit, line, listeners };
}
