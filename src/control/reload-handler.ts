import type { ControlHandler } from './control-server.js';
import { answerError, answerOk, type ControlErrorCode, type ControlProblem } from './protocol.js';

/** What a host's reload resolves: the supervisor's reload outcome, or the config file's problems. */
export type ReloadResult =
  | { ok: true; servers: unknown[]; applied: string[]; needsRestart: string[] }
  | { ok: false; code: 'INVALID_CONFIG'; message: string; problems: ControlProblem[] }
  | { ok: false; code: 'NOT_STARTED' | 'STOPPED' | 'INVALID_CONFIG'; message: string };

/**
 * The `reload` command: runs the host's reload (re-read the config, `Supervisor.reload`) and answers what it did
 * per server, or why nothing changed (`INVALID_CONFIG` with the located problems, `NOT_STARTED`, `STOPPED`).
 */
export function reloadHandler(reload: () => Promise<ReloadResult>): ControlHandler {
  return async () => {
    const out = await reload();
    if (out.ok)
      return answerOk({ servers: out.servers, applied: out.applied, needsRestart: out.needsRestart });
    const code: ControlErrorCode = out.code;
    return answerError(code, {
      detail: out.message,
      ...('problems' in out ? { problems: out.problems } : {}),
    });
  };
}
