import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ConfigError } from '../../config/config-error.js';
import { type BearerVerifier, type Caller, type TokenEntry, tokenVerifier } from '../../gateway/http/auth.js';
import { CliError } from '../errors.js';
import type { ReloadTrigger } from '../fleet-reload.js';
import { type LogLevel, logProblems } from '../output/event-log.js';
import type { LogValue } from '../output/logfmt.js';
import { readTokenFile } from './tokens.js';

/** Editors write a file in several steps (truncate, write, rename): one read after they settle. */
const DEBOUNCE_MS = 100;

export interface TokenWatchOptions {
  /** `serve.auth.tokens` as configured (not re-read: they change with the config, by restart). */
  fromConfig: TokenEntry[];
  /** `serve.auth.tokensFile`, absolute. */
  file: string;
  /** The tokens `serve --http` started with. */
  initial: readonly TokenEntry[];
  log: { log(level: LogLevel, msg: string, fields?: Record<string, LogValue>): void };
  /** After the tokens changed: `keep` says which credentials' sessions may stay (the same token, the same scopes). */
  onChange: (keep: (callerId: string | undefined) => boolean) => void;
}

/**
 * The tokens of `serve --http` while it runs: the tokens file is read again when it changes (a watch on its
 * folder, so a file replaced by rename is seen too) or on `reload()`. A file that no longer reads or parses
 * changes nothing: the last good tokens stay and each problem is logged at its file, line and column.
 */
export class LiveTokens implements BearerVerifier {
  private entries: readonly TokenEntry[];
  private current: BearerVerifier;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly opts: TokenWatchOptions) {
    this.entries = opts.initial;
    this.current = tokenVerifier(opts.initial);
  }

  verify(token: string): Promise<Caller | undefined> {
    return this.current.verify(token);
  }

  /** Starts watching the file's folder; a failure to watch is logged, and SIGHUP or the control socket's `reload` still re-reads. */
  watch(): void {
    const name = basename(this.opts.file);
    try {
      this.watcher = watch(dirname(this.opts.file), (_event, changed) => {
        if (changed === null || changed === name) this.schedule();
      });
      this.watcher.on('error', (err) => this.warnWatch(err));
    } catch (err) {
      this.warnWatch(err);
    }
  }

  /** Reads the file now (after any read under way); resolves when the new tokens apply or were refused. */
  reload(trigger: ReloadTrigger): Promise<void> {
    this.queue = this.queue.then(() => this.read(trigger));
    return this.queue;
  }

  /** Stops watching; idempotent. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.close();
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) void this.reload('watch');
    }, DEBOUNCE_MS);
  }

  private async read(trigger: ReloadTrigger): Promise<void> {
    if (this.closed) return;
    let fromFile: TokenEntry[];
    try {
      fromFile = await readTokenFile(this.opts.file, this.opts.fromConfig);
    } catch (err) {
      if (err instanceof ConfigError) logProblems(this.opts.log, 'tokens_problem', err.problems);
      else
        this.opts.log.log('error', err instanceof Error ? err.message : String(err), {
          event: 'tokens_problem',
          file: this.opts.file,
          code: err instanceof CliError ? err.code : undefined,
        });
      this.opts.log.log('warn', 'tokens file not applied: the last good tokens stay', { trigger });
      return;
    }
    if (this.closed) return;
    const before = this.entries;
    const next = [...this.opts.fromConfig, ...stableIds(before, fromFile)];
    this.entries = next;
    this.current = tokenVerifier(next);
    const kept = new Set(next.filter((e) => sameIn(before, e)).map((e) => e.id));
    const removed = before.filter((e) => !kept.has(e.id)).length;
    this.opts.log.log(next.length === 0 ? 'warn' : 'info', 'tokens reloaded', {
      trigger,
      file: this.opts.file,
      tokens: next.length,
      added: next.filter((e) => !kept.has(e.id)).length,
      removed,
    });
    // In the same turn as the swap: no request can meet a session of a token that was just taken out.
    this.opts.onChange((id) => id !== undefined && kept.has(id));
  }

  private warnWatch(err: unknown): void {
    const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    this.opts.log.log(
      'warn',
      `cannot watch serve.auth.tokensFile (${why}): it is re-read on SIGHUP or reload only`,
      {
        file: this.opts.file,
      },
    );
  }
}

/**
 * The file's entries, each token that was there before keeping its id (a session is bound to the id, and a token
 * moved to another line is the same credential); a new token whose line id is taken gets a suffix, so no two
 * credentials ever share an id.
 */
function stableIds(before: readonly TokenEntry[], read: readonly TokenEntry[]): TokenEntry[] {
  const idOf = new Map(before.map((e) => [e.token, e.id]));
  const used = new Set(read.flatMap((e) => (idOf.has(e.token) ? [idOf.get(e.token)!] : [])));
  for (const e of before) used.add(e.id);
  return read.map((e) => {
    const old = idOf.get(e.token);
    if (old !== undefined) return { ...e, id: old };
    let id = e.id;
    for (let n = 2; used.has(id); n += 1) id = `${e.id}~${n}`;
    used.add(id);
    return { ...e, id };
  });
}

/** Whether `e` was there before with the same token and the same scopes (its sessions may stay). */
function sameIn(before: readonly TokenEntry[], e: TokenEntry): boolean {
  const old = before.find((b) => b.id === e.id);
  return (
    old !== undefined &&
    old.token === e.token &&
    old.scopes.length === e.scopes.length &&
    old.scopes.every((s, i) => s === e.scopes[i])
  );
}
