import type Docker from 'dockerode';
import { type ContainerSettings, INSTANCE_LABEL, SERVER_LABEL, TMPFS_BYTES } from './settings.js';

/** What a container is made for: the server's launch inside it, and whose it is. */
export interface ContainerLaunch {
  serverId: string;
  /** The supervisor instance (its labels and its reap). */
  owner: string;
  settings: ContainerSettings;
  /** The entrypoint to run instead of the image's; absent: the image's. */
  command?: string | undefined;
  args: readonly string[];
  /** The whole environment the server gets on top of the image's own (its PATH and HOME stay). */
  env: Readonly<Record<string, string>>;
}

/**
 * The engine's create body for one launch, every safety setting explicit: no network, a read-only root, no new
 * privileges, every capability dropped, an init as PID 1 (a server as PID 1 ignores SIGTERM), stdin held open
 * for the attach and closed for the server when we end it.
 */
export function createOptions(launch: ContainerLaunch): Docker.ContainerCreateOptions {
  const s = launch.settings;
  const host: Docker.HostConfig = {
    Init: true,
    NetworkMode: s.network,
    ReadonlyRootfs: s.readOnly,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    // The attach is the only reader: a log driver would keep a copy of every tool call's answer on the engine.
    LogConfig: { Type: 'none', Config: {} },
    Binds: s.mounts.map((m) => `${m.source}:${m.target}:${m.readOnly ? 'ro' : 'rw'}`),
  };
  if (s.readOnly) host.Tmpfs = { '/tmp': `rw,nosuid,nodev,size=${TMPFS_BYTES}` };
  if (s.memoryBytes !== undefined) {
    host.Memory = s.memoryBytes;
    // No swap beyond the limit: a limit that can spill into swap is no limit.
    host.MemorySwap = s.memoryBytes;
  }
  if (s.cpus !== undefined) host.NanoCpus = Math.round(s.cpus * 1e9);
  if (s.pids !== undefined) host.PidsLimit = s.pids;
  const options: Docker.ContainerCreateOptions = {
    Image: s.imageId ?? s.image,
    Env: Object.entries(launch.env).map(([k, v]) => `${k}=${v}`),
    Labels: { [SERVER_LABEL]: launch.serverId, [INSTANCE_LABEL]: launch.owner },
    OpenStdin: true,
    StdinOnce: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    HostConfig: host,
  };
  if (launch.command !== undefined && launch.command !== '') {
    options.Entrypoint = [launch.command];
    options.Cmd = [...launch.args];
  } else if (launch.args.length > 0) {
    options.Cmd = [...launch.args];
  }
  if (s.user !== undefined) options.User = s.user;
  if (s.workdir !== undefined) options.WorkingDir = s.workdir;
  return options;
}
