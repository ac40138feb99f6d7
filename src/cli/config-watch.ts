import { type FSWatcher, watch } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { SupervisorConfig } from '../config/types.js';

/** Quiet time after the last change before the config is read again: an editor's save is several events. */
export const WATCH_DEBOUNCE_MS = 300;

/**
 * `run --watch`: watches the config file and every manifest it names, and calls `changed` once the files have
 * been quiet for `debounceMs`. The directories are watched, not the files, so an editor that saves by writing a
 * new file and renaming it over the old one is still seen; after each reload the set of manifests is taken again
 * from `files()`. Returns the function that stops watching (idempotent).
 */
export function watchConfigFiles(
  configPath: string,
  current: () => SupervisorConfig,
  changed: () => Promise<unknown>,
  opts: { debounceMs?: number; warn?: (message: string) => void } = {},
): () => void {
  const debounceMs = opts.debounceMs ?? WATCH_DEBOUNCE_MS;
  const watchers = new Map<string, FSWatcher>();
  let files = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let closed = false;

  const fire = async () => {
    timer = undefined;
    if (closed) return;
    // A change while a reload runs is read once that one is done, never beside it.
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await changed();
    } finally {
      running = false;
      if (!closed) rewatch();
      if (again && !closed) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void fire(), debounceMs);
  };
  const rewatch = () => {
    const config = resolve(configPath);
    files = new Set([config, ...current().servers.flatMap((s) => (s.manifest ? [resolve(s.manifest)] : []))]);
    const dirs = new Set([...files].map((f) => dirname(f)));
    for (const [dir, w] of watchers) {
      if (dirs.has(dir)) continue;
      w.close();
      watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          // Some platforms do not say which file: then any change in the directory counts.
          if (name === null || files.has(resolve(dir, name.toString()))) schedule();
        });
        w.on('error', (err) => opts.warn?.(`--watch: ${dir}: ${err.message}`));
        watchers.set(dir, w);
      } catch (err) {
        opts.warn?.(`--watch: cannot watch ${dir}: ${(err as Error).message}`);
      }
    }
  };
  rewatch();
  return () => {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    for (const w of watchers.values()) w.close();
    watchers.clear();
  };
}
