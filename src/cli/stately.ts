import type { InspectionEvent, Observer } from 'xstate';
import { CliError } from './errors.js';

/** The optional Stately inspector, once loaded: its observer for `inspect`, and `stop()`. */
export interface StatelyHook {
  inspect: Observer<InspectionEvent>;
  url: string;
  stop(): void;
}

interface InspectorLike {
  inspect: Observer<InspectionEvent>;
  stop?: () => void;
}

// A variable specifier keeps the optional package out of the type check and the build: it is not a dependency.
const PACKAGE = '@statelyai/inspect';

/**
 * Loads `@statelyai/inspect` (opt-in, not installed by default) and points its WebSocket inspector at
 * `ws://localhost:<port>` (it connects on creation). A missing package is one clear error, not a stack.
 */
export async function startStately(
  port: number,
  load: (name: string) => Promise<unknown> = (n) => import(n),
): Promise<StatelyHook> {
  let mod: { createWebSocketInspector?: (opts: { url: string }) => InspectorLike };
  try {
    mod = (await load(PACKAGE)) as typeof mod;
  } catch {
    throw new CliError(
      'stately_missing',
      `--stately needs the optional package ${PACKAGE}; install it with 'npm install ${PACKAGE}'`,
    );
  }
  if (typeof mod.createWebSocketInspector !== 'function') {
    throw new CliError(
      'stately_missing',
      `${PACKAGE} has no createWebSocketInspector; install a 0.4+ version`,
    );
  }
  const url = `ws://localhost:${port}`;
  const inspector = mod.createWebSocketInspector({ url });
  return {
    inspect: inspector.inspect,
    url,
    // Its reconnect loop outlives stop() (a known issue), so the program also exits on a timer: see exitSoon.
    stop: () => inspector.stop?.(),
  };
}
