import { request } from '../../control/client.js';
import type { ControlAnswer } from '../../control/protocol.js';
import { formatProblem } from '../../registry/located-yaml.js';
import { CliError } from '../errors.js';
import { logProblems } from '../output/event-log.js';
import { controlLog } from './log.js';
import { ask, findTarget, refused, type TargetFlags } from './target.js';

/** The per-server verbs of the control socket, and what each prints once done. */
const DONE: Record<'restart' | 'stop' | 'start', string> = {
  restart: 'restarting',
  stop: 'stopping',
  start: 'starting',
};

/** `restart ID`, `stop ID`, `start ID`: one request; a refusal (unknown id, a stopping fleet) exits 1. */
export async function serverVerbCommand(
  verb: 'restart' | 'stop' | 'start',
  id: string,
  flags: TargetFlags,
): Promise<number> {
  const target = await findTarget(flags);
  const answer = await ask(target, verb, id);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    return answer.ok ? 0 : 1;
  }
  if (!answer.ok) throw refused(answer, id);
  const log = controlLog(flags.logFormat);
  if (log) log.log('info', DONE[verb], { event: verb, server: id });
  // What was asked for, and done: the command's answer, so stdout (stderr is for what went wrong).
  else process.stdout.write(`${id}: ${DONE[verb]}\n`);
  return 0;
}

/** A reload stops and starts servers: it may take their shutdown and startup times, so its answer gets long. */
const RELOAD_ANSWER_MS = 180_000;

/**
 * `reload`: the running fleet re-reads its config. Prints what happened to each server; a config with problems
 * changes nothing and prints them, located (`file:line:col field: message`), exit 1.
 */
export async function reloadCommand(flags: TargetFlags): Promise<number> {
  const target = await findTarget(flags);
  const r = await request(target.path, { cmd: 'reload' }, { timeoutMs: RELOAD_ANSWER_MS });
  if (!r.ok)
    throw new CliError(
      'control_failed',
      `no answer from pid ${target.info.pid} (${r.failure.code}: ${r.failure.detail})`,
    );
  const { answer } = r;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    return answer.ok ? 0 : 1;
  }
  const log = controlLog(flags.logFormat);
  if (!answer.ok && answer.code === 'INVALID_CONFIG' && log) {
    const problems = answer.problems ?? [];
    log.log('error', 'reload refused: the config has problems; nothing changed', {
      event: 'reload_refused',
      problems: problems.length,
    });
    logProblems(log, 'reload_problem', problems);
    return 1;
  }
  if (!answer.ok && answer.code === 'INVALID_CONFIG') {
    for (const p of answer.problems ?? []) process.stderr.write(`${formatProblem(p)}\n`);
    process.stderr.write('reload refused: the config has problems; nothing changed\n');
    return 1;
  }
  if (!answer.ok) throw refused(answer);
  if (log) log.log('info', 'reloaded', { event: 'reload', ...reloadFields(answer) });
  else process.stdout.write(reloadReport(answer));
  return 0;
}

/** What a reload did as log fields: the servers of each action, and what needs a restart, as lists. */
function reloadFields(answer: Extract<ControlAnswer, { ok: true }>): Record<string, string[] | undefined> {
  const data = answer.data as { servers: Array<{ id: string; action: string }>; needsRestart: string[] };
  const fields: Record<string, string[] | undefined> = {};
  for (const s of data.servers) fields[s.action] = [...(fields[s.action] ?? []), s.id];
  if (data.needsRestart.length > 0) fields['needs_restart'] = data.needsRestart;
  return fields;
}

/** One line per server a reload touched (and what needs a restart of the program), for people. */
function reloadReport(answer: Extract<ControlAnswer, { ok: true }>): string {
  const data = answer.data as {
    servers: Array<{ id: string; action: string; state?: string }>;
    needsRestart: string[];
  };
  const lines = data.servers
    .filter((s) => s.action !== 'unchanged')
    .map((s) => `${s.id}: ${s.action}${s.state && s.state !== 'ready' ? ` (${s.state})` : ''}`);
  const unchanged = data.servers.length - lines.length;
  if (lines.length === 0) lines.push('no server changed');
  else if (unchanged > 0) lines.push(`${unchanged} unchanged`);
  if (data.needsRestart.length)
    lines.push(
      `needs a restart to apply: ${data.needsRestart.map((k) => (k === 'serve' ? k : `supervisor.${k}`)).join(', ')}`,
    );
  return `${lines.join('\n')}\n`;
}
