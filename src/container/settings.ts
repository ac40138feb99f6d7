/** When an image is pulled before a start: `never` (the default: a missing image fails the start), `missing`, `always`. */
export type PullPolicy = 'never' | 'missing' | 'always';

/** One bind mount: a host path (absolute, resolved against the config file's directory) at `target` inside. */
export interface ContainerMount {
  source: string;
  target: string;
  readOnly: boolean;
}

/**
 * How a server runs in a container, every default filled: what `container:` in the config says, with sizes in
 * bytes and the engine's address resolved. Plain data, so it can sit in a machine's context and in a fingerprint.
 */
export interface ContainerSettings {
  /** A reference (`localhost/mcp-node:test`) or an image id; never pulled unless `pull` says so. */
  image: string;
  pull: PullPolicy;
  /** The engine's address: `unix:///path/to.sock` or `tcp://host:port` (see engine-address.ts). */
  engine: string;
  /** Hard memory limit in bytes; absent: none. With it, a SIGKILL we did not send is an out-of-memory kill. */
  memoryBytes?: number;
  /** CPUs the container may use (0.5 = half of one); absent: no limit. */
  cpus?: number;
  /** Most processes it may hold at once; absent: the engine's default. */
  pids?: number;
  /** `none` (the default: no network at all), `bridge`, or the name of a network the engine has. */
  network: string;
  /** A read-only root filesystem with a small tmpfs at /tmp (the default); false: a writable root. */
  readOnly: boolean;
  /** `uid`, `uid:gid` or a name the image knows; absent: the image's user. */
  user?: string;
  mounts: ContainerMount[];
  /** The working directory inside (the server's `cwd:` when a container is set); absent: the image's. */
  workdir?: string;
  /**
   * The image id (`sha256:…`) the launch was approved for, filled just before a start: the container is created
   * from this id, never from the tag, so a tag moved after the trust check cannot slip in.
   */
  imageId?: string;
}

/** The tmpfs at /tmp a read-only container gets, so a server that writes a temp file still runs. */
export const TMPFS_BYTES = 64 * 1024 * 1024;

/** The labels every container we make carries: what reaping and `status` find them by. */
export const SERVER_LABEL = 'mcp-supervisor.server';
export const INSTANCE_LABEL = 'mcp-supervisor.instance';
