import { reapAll } from '../process/ledger.js';
import { EXIT_INTERRUPTED } from './errors.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Installs the program's signal handling: the first SIGINT/SIGTERM/SIGHUP runs `graceful` once; a second one
 * SIGKILLs every process group at once and exits 130. Whatever happens, the `exit` hook reaps what is left.
 * With `hangup`, SIGHUP runs it instead (a reload, as daemons do) and never counts toward stopping.
 * Returns a function that removes the handlers.
 */
export function handleShutdownSignals(
  graceful: (signal: NodeJS.Signals) => void,
  hangup?: () => void,
): () => void {
  let seen = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGHUP' && hangup) {
      if (!seen) hangup();
      return;
    }
    if (!seen) {
      seen = true;
      graceful(signal);
      return;
    }
    reapAll();
    process.exit(EXIT_INTERRUPTED);
  };
  const onExit = () => void reapAll();
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('exit', onExit);
  return () => {
    for (const s of SIGNALS) process.off(s, onSignal);
    process.off('exit', onExit);
  };
}

/**
 * Ends the program with `code` once the event loop drains; if anything (an inspector retrying a socket, a stray
 * timer) still holds it after `graceMs`, exits anyway. The fallback timer itself never keeps the process alive.
 */
export function exitSoon(code: number, graceMs = 1500): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), graceMs).unref();
}

/**
 * Keeps the event loop alive until the returned release is called. A foreground supervisor stays up until it is
 * told to stop, even when every server is refused, stopped or failed and nothing else holds the loop.
 */
export function holdOpen(): () => void {
  const handle = setInterval(() => {}, 2 ** 31 - 1);
  return () => clearInterval(handle);
}
