import type { SupervisorConfig } from '../../config/types.js';
import type { SupervisorEvent } from '../types.js';
import { readReloadConfig } from './file.js';
import type { Reloader, ReloadOutcome } from './reloader.js';

/** The event a reload's outcome is told as: `reload` when applied, `reload_refused` with its problems when not. */
export function reloadEvent(outcome: ReloadOutcome, at: number): SupervisorEvent {
  if (outcome.ok) {
    const { servers, applied, needsRestart } = outcome;
    return { type: 'reload', servers, applied, needsRestart, at };
  }
  const problems = 'problems' in outcome ? outcome.problems : [];
  return { type: 'reload_refused', code: outcome.code, message: outcome.message, problems, at };
}

/** Reloads from a config or a config file, each outcome told as its event. */
export class ToldReloads {
  constructor(
    private readonly reloader: Reloader,
    private readonly emit: (event: SupervisorEvent) => void,
    private readonly now: () => number,
  ) {}

  async config(config: SupervisorConfig): Promise<ReloadOutcome> {
    const outcome = await this.reloader.reload(config);
    this.emit(reloadEvent(outcome, this.now()));
    return outcome;
  }

  /** A file that does not load changes nothing: its refusal is told as a reload's would be. */
  async file(path: string): Promise<ReloadOutcome> {
    const read = await readReloadConfig(path);
    if ('servers' in read) return this.config(read);
    this.emit(reloadEvent(read, this.now()));
    return read;
  }
}
