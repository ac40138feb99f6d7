import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { ContainmentKind } from './containment.js';
import { Jail } from './jail.js';
import { preflight, type SpawnError } from './preflight.js';

/** What to run, where, with what, and for whom. */
export interface LaunchSpec {
  serverId: string;
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  containment: ContainmentKind;
  /** The supervisor instance (its cgroup directory and ledger file). */
  owner: string;
}

/** A running child and what holds it. */
export interface Launched {
  child: ChildProcessWithoutNullStreams;
  jail: Jail;
}

/**
 * Resolves the launch, sets up its containment and spawns it without a shell, leading a new process group. Never
 * throws: whatever stops it (no such command, no cwd, no cgroup, a spawn the system refused) comes back as data.
 * A spawn that fails after it started (the child's `error` event) is the caller's to report.
 */
export function launch(spec: LaunchSpec): Launched | SpawnError {
  const { command, cwd } = spec;
  const file = preflight(command, cwd, spec.env);
  if (typeof file !== 'string') return file;
  let jail: Jail;
  try {
    jail = Jail.open(spec.containment, spec.owner, spec.serverId);
  } catch (err) {
    return { code: 'CONTAINMENT', command, cwd, detail: (err as Error).message };
  }
  const argv = jail.wrap(file, spec.args, spec.env);
  try {
    const child = spawn(argv.file, argv.args, {
      cwd,
      env: spec.env,
      shell: false,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // Unwrapped, the server sees its command as written as argv[0]; wrapped, the resolved file (exec "$@").
      ...(spec.containment === 'pgroup' ? { argv0: command } : {}),
    });
    return { child, jail };
  } catch (err) {
    jail.release();
    const e = err as NodeJS.ErrnoException;
    return { code: e.code ?? 'SPAWN_ERROR', command, cwd, detail: e.message };
  }
}

/** Streams that end at once, standing in for a child that never ran, so readers need no special case. */
export function noChildIo(): Pick<ChildProcessWithoutNullStreams, 'stdin' | 'stdout' | 'stderr'> {
  const ended = () => {
    const stream = new PassThrough();
    stream.end();
    return stream;
  };
  return { stdin: new PassThrough(), stdout: ended(), stderr: ended() } as never;
}
