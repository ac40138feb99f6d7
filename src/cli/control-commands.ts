import { ask, findTarget, refused, type TargetFlags } from './control-target.js';

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
  process.stderr.write(`${id}: ${DONE[verb]}\n`);
  return 0;
}

/** `reload`: re-read the config in the running fleet, where the instance supports it. */
export async function reloadCommand(flags: TargetFlags): Promise<number> {
  const target = await findTarget(flags);
  const answer = await ask(target, 'reload');
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    return answer.ok ? 0 : 1;
  }
  if (!answer.ok) throw refused(answer);
  process.stderr.write('reloaded\n');
  return 0;
}
