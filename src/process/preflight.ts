import { accessSync, constants, statSync } from 'node:fs';
import { delimiter } from 'node:path';
import { executableCandidates } from './resolve-executable.js';

/** Why a server could not be started, as data: the code decides, the other fields say what was looked at. */
export interface SpawnError {
  /**
   * `ENOENT` (no such command), `EACCES` (found but not executable), `CWD_MISSING` (the working directory is not
   * there or not a directory), `CONTAINMENT` (its cgroup or namespace could not be set up), for a container
   * `ENGINE_UNREACHABLE`, `ENGINE_TIMEOUT`, `IMAGE_MISSING`, `PULL_FAILED` or `ENGINE_ERROR`, `SECRET_UNAVAILABLE`
   * (a `${file:…}` or `${keyring:…}` it names could not be read; `detail` names the reference), or the errno code of a
   * spawn that failed anyway (`EAGAIN`, `ENOMEM`, …).
   */
  code: string;
  command: string;
  cwd: string;
  /** The PATH searched, for a bare command name. */
  searched?: string;
  /** The file that was found but cannot be run (`EACCES`). */
  file?: string;
  /** The system's own words, when the failure came from the system rather than from our look-up. */
  detail?: string;
  /** For a container: the engine that was asked (`command` is then the image, `cwd` the working directory inside). */
  engine?: string;
}

/**
 * Resolves a launch the way execvp would, before anything is spawned: a wrapper (cgroup trampoline, unshare)
 * would otherwise turn a missing command into an anonymous exit 127. Synchronous because a spawn is too, and this
 * is a few stat calls. Returns the absolute file to run, or why nothing would run.
 */
export function preflight(command: string, cwd: string, env: Record<string, string>): string | SpawnError {
  return cwdError(command, cwd) ?? resolveCommand(command, cwd, env);
}

/** Why `cwd` cannot be a child's working directory (`CWD_MISSING`), or undefined when it can. */
export function cwdError(command: string, cwd: string): SpawnError | undefined {
  try {
    if (!statSync(cwd).isDirectory()) return { code: 'CWD_MISSING', command, cwd, detail: 'not a directory' };
  } catch (err) {
    return { code: 'CWD_MISSING', command, cwd, detail: (err as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
  return undefined;
}

/** The file execvp would run for `command` with the child's `env`, or why none (`ENOENT`, `EACCES`). */
export function resolveCommand(
  command: string,
  cwd: string,
  env: Record<string, string>,
): string | SpawnError {
  const pathEnv = env.PATH ?? '';
  let denied: string | undefined;
  for (const file of executableCandidates(command, cwd, pathEnv)) {
    try {
      if (!statSync(file).isFile()) continue;
    } catch {
      continue;
    }
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      denied ??= file;
    }
  }
  if (denied !== undefined) return { code: 'EACCES', command, cwd, file: denied };
  return command.includes('/')
    ? { code: 'ENOENT', command, cwd }
    : { code: 'ENOENT', command, cwd, searched: pathEnv };
}

/** One line for people: what failed and what was looked at. Rendered once, at the edge. */
export function describeSpawnError(e: SpawnError): string {
  if (e.engine !== undefined) {
    if (e.code === 'IMAGE_MISSING')
      return `image ${e.command} is not on the engine at ${e.engine}: pull, build or load it there, or set pull: missing`;
    if (e.code === 'ENGINE_UNREACHABLE')
      return `container engine at ${e.engine} does not answer (${e.detail ?? ''})`;
    return `container ${e.command} could not start on ${e.engine}: ${e.detail ?? e.code}`;
  }
  switch (e.code) {
    case 'ENOENT':
      return e.searched !== undefined
        ? `command ${JSON.stringify(e.command)} not found on PATH (searched: ${e.searched.split(delimiter).filter(Boolean).join(delimiter) || 'PATH is empty'})`
        : `command ${e.command} does not exist (relative to cwd ${e.cwd})`;
    case 'EACCES':
      return `command ${JSON.stringify(e.command)} found at ${e.file ?? e.command} but it is not executable (EACCES)`;
    case 'CWD_MISSING':
      return `cwd ${e.cwd} cannot be used: ${e.detail === 'ENOENT' ? 'it does not exist' : e.detail}`;
    case 'SECRET_UNAVAILABLE':
      return `secret unavailable: ${e.detail ?? 'unknown'}`;
    case 'CONTAINMENT':
      return `could not contain ${JSON.stringify(e.command)}: ${e.detail ?? 'unknown error'}`;
    default:
      return `spawn of ${JSON.stringify(e.command)} failed: ${e.detail ?? e.code}`;
  }
}
