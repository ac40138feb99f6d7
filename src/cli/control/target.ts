import { resolve } from 'node:path';
import { request } from '../../control/client.js';
import type { ControlAnswer, InstanceInfo } from '../../control/protocol.js';
import { socketFiles } from '../../control/socket-dir.js';
import { checkPrivateDir, StateDirUnsafeError } from '../../process/state-dir-safety.js';
import { CliError } from '../errors.js';
import type { LogFormat } from '../output/logfmt.js';
import { stateDirPath } from '../store-path.js';

/** The flags every control command takes to find its fleet. */
export interface TargetFlags {
  stateDir?: string;
  config?: string;
  json?: boolean;
  /** `--log-format`: what the command reports on stderr as structured lines instead of text for people. */
  logFormat?: LogFormat;
}

export interface Target {
  path: string;
  info: InstanceInfo;
}

/**
 * Finds the one running instance the flags point at: every live socket in the state directory, narrowed to the
 * `--config` given. None, or several without `--config`, is an error that says what to pass. A state directory
 * another user can write is refused before any socket in it is read (`state_dir_unsafe`), as `run` and `serve`
 * refuse it: whoever can write there could plant a socket that answers for a fleet.
 */
export async function findTarget(flags: TargetFlags): Promise<Target> {
  const dir = stateDirPath(flags.stateDir);
  refuseUnsafe(dir);
  const live: Target[] = [];
  for (const path of socketFiles(dir)) {
    const r = await request(path, { cmd: 'hello' }, { timeoutMs: 3000 });
    if (r.ok && r.answer.ok) live.push({ path, info: r.answer.data as InstanceInfo });
  }
  const config = flags.config === undefined ? undefined : resolve(flags.config);
  const chosen = config === undefined ? live : live.filter((t) => t.info.config === config);
  if (chosen.length === 1) return chosen[0]!;
  if (chosen.length === 0) {
    const what = config === undefined ? '' : ` for ${config}`;
    const others = live.length > 0 ? ` (running there: ${live.map(describe).join('; ')})` : '';
    throw new CliError(
      'not_running',
      `no mcp-supervisor is running${what} with state directory ${dir}${others}; start one with run or serve, or pass --state-dir for another`,
    );
  }
  throw new CliError(
    'several_running',
    `${chosen.length} mcp-supervisor instances run with state directory ${dir}: ${chosen.map(describe).join('; ')}; pass --config (or --state-dir) to pick one`,
  );
}

/** Sends one request to the chosen instance; a transport failure is an error, a refusal comes back as data. */
export async function ask(target: Target, cmd: string, server?: string): Promise<ControlAnswer> {
  const r = await request(target.path, { cmd, ...(server !== undefined ? { server } : {}) });
  if (!r.ok)
    throw new CliError(
      'control_failed',
      `no answer from pid ${target.info.pid} (${r.failure.code}: ${r.failure.detail})`,
    );
  return r.answer;
}

/** The refusal of a request as one line for people. */
export function refusalText(answer: Extract<ControlAnswer, { ok: false }>, server?: string): string {
  switch (answer.code) {
    case 'UNKNOWN_SERVER':
      return `unknown server '${server ?? ''}' (servers: ${answer.servers?.join(', ') || 'none'})`;
    case 'NOT_STARTED':
      return 'the fleet has not started yet';
    case 'STOPPED':
      return 'the fleet is stopping';
    case 'NOT_SUPPORTED':
      return `${answer.detail ?? 'this command'} is not supported by this instance`;
    default:
      return `refused: ${answer.code}${answer.detail ? ` (${answer.detail})` : ''}`;
  }
}

/** A refusal as the error the program reports (exit 1). */
export function refused(answer: Extract<ControlAnswer, { ok: false }>, server?: string): CliError {
  return new CliError('control_refused', refusalText(answer, server));
}

/** The refusal of a state directory another user can write; any other failure to look is left to the listing. */
function refuseUnsafe(dir: string): void {
  try {
    checkPrivateDir(dir);
  } catch (err) {
    if (err instanceof StateDirUnsafeError) throw new CliError('state_dir_unsafe', err.message);
  }
}

function describe(t: Target): string {
  return `pid ${t.info.pid} (${t.info.command} ${t.info.config})`;
}
