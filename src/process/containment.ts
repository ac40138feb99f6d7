import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { cgroupBase } from './cgroup.js';

/**
 * How a server and everything it starts are held together, strongest first:
 * - `cgroup`: a cgroup v2 of its own, joined before the server runs; stop kills the whole cgroup at once.
 * - `pidns`: a pid namespace whose init is the server; when it dies, the kernel kills the whole namespace.
 * - `pgroup`: a process group; a descendant that calls setsid() or setpgid() leaves it.
 */
export type ContainmentKind = 'cgroup' | 'pidns' | 'pgroup';

/** A setting: one mechanism, or `auto` for the strongest this machine allows. */
export type ContainmentSetting = ContainmentKind | 'auto';

export const CONTAINMENT_SETTINGS: readonly ContainmentSetting[] = ['auto', 'cgroup', 'pidns', 'pgroup'];

const UNSHARE_CANDIDATES = ['/usr/bin/unshare', '/bin/unshare', '/usr/sbin/unshare', '/sbin/unshare'];

let pidnsProbe: string[] | null | undefined;

/**
 * The argv prefix that runs a command as the init of a new pid namespace, or null where that is not allowed.
 * Probed once by running `true` that way: util-linux may be missing, and unprivileged user namespaces are often
 * switched off. `--kill-child` ties the namespace to unshare's life, so a SIGKILL to our process group ends it.
 */
export function pidnsPrefix(): string[] | null {
  if (pidnsProbe !== undefined) return pidnsProbe;
  pidnsProbe = null;
  const unshare = UNSHARE_CANDIDATES.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (unshare === undefined) return null;
  const asRoot = process.getuid?.() === 0;
  const prefix = [
    unshare,
    '--pid',
    '--fork',
    '--kill-child',
    ...(asRoot ? [] : ['--user', '--map-root-user']),
  ];
  const probe = spawnSync(prefix[0]!, [...prefix.slice(1), '--', '/bin/sh', '-c', 'exit 0'], {
    stdio: 'ignore',
    timeout: 5000,
  });
  if (probe.status === 0) pidnsProbe = prefix;
  return pidnsProbe;
}

/** A mechanism was forced that this machine does not offer. */
export class ContainmentUnavailableError extends Error {
  override readonly name = 'ContainmentUnavailableError';
  readonly code = 'CONTAINMENT_UNAVAILABLE';

  constructor(
    readonly kind: ContainmentKind,
    message: string,
  ) {
    super(message);
  }
}

/** Which mechanisms this machine offers (each probed once per process). */
export function availableContainment(): Record<ContainmentKind, boolean> {
  return { cgroup: cgroupBase() !== null, pidns: pidnsPrefix() !== null, pgroup: true };
}

/**
 * The mechanism for a setting: `auto` takes the first of cgroup → pidns → pgroup this machine offers. A forced
 * one that is not available is an error naming what is missing, not a silent downgrade.
 */
export function chooseContainment(setting: ContainmentSetting = 'auto'): ContainmentKind {
  if (setting === 'pgroup') return 'pgroup';
  if (setting === 'cgroup' || setting === 'auto') {
    if (cgroupBase() !== null) return 'cgroup';
    if (setting === 'cgroup')
      throw new ContainmentUnavailableError(
        'cgroup',
        'containment cgroup is not available: no writable cgroup v2 hierarchy with cgroup.kill (Linux 5.14+) was found',
      );
  }
  if (pidnsPrefix() !== null) return 'pidns';
  if (setting === 'pidns')
    throw new ContainmentUnavailableError(
      'pidns',
      'containment pidns is not available: unshare(1) is missing or pid namespaces are not allowed',
    );
  return 'pgroup';
}
