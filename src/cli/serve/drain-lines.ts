import type { DrainPhase } from '../../gateway/http/drain.js';
import { formatDuration } from '../durations.js';
import type { LogLevel } from '../output/event-log.js';
import type { LogValue } from '../output/logfmt.js';

/** One log line of a drain's step: its level, its words, and the numbers as fields for a machine reading the log. */
export interface DrainLine {
  level: LogLevel;
  msg: string;
  fields: Record<string, LogValue>;
}

/** How `serve --http` words each step of its drain on SIGTERM. */
export function drainLine(phase: DrainPhase): DrainLine {
  switch (phase.code) {
    case 'UNREADY':
      return {
        level: 'info',
        msg: `draining: /readyz answers 503; requests are still taken for ${formatDuration(phase.delayMs)}`,
        fields: { phase: 'unready', delay_ms: phase.delayMs },
      };
    case 'REFUSING':
      return {
        level: 'info',
        msg: `draining: new requests get 503 and open streams are ended; ${requests(phase.inFlight)} in flight get up to ${formatDuration(phase.timeoutMs)}`,
        fields: { phase: 'refusing', in_flight: phase.inFlight, timeout_ms: phase.timeoutMs },
      };
    case 'FINISHED':
      return {
        level: 'info',
        msg: 'draining: every request in flight has ended',
        fields: { phase: 'finished' },
      };
    case 'CUT':
      return {
        level: 'warn',
        msg: `draining: ${requests(phase.cut)} still in flight at the timeout cut`,
        fields: { phase: 'cut', cut: phase.cut },
      };
  }
}

function requests(n: number): string {
  return `${n} ${n === 1 ? 'request' : 'requests'}`;
}
