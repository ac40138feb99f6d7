import {
  cgroupBase,
  cgroupPids,
  cgroupPopulated,
  createCgroup,
  killCgroup,
  removeCgroup,
  signalCgroup,
} from './cgroup.js';
import { type ContainmentKind, pidnsPrefix } from './containment.js';
import {
  childrenOf,
  groupMembers,
  type LedgerEntry,
  procStat,
  sameProcess,
  signalGroup as signalGroupOf,
  signalPid,
  uptimeTicks,
} from './ledger.js';

/** The shell that joins the cgroup: `$1` is the cgroup.procs file, the rest is the real argv, never re-parsed. */
const TRAMPOLINE = 'echo $$ > "$1" || exit 125; shift; exec "$@"';
/** The same, for an environment without PWD: a shell exports the PWD it sets, and the child must get only its own. */
const TRAMPOLINE_NO_PWD = 'echo $$ > "$1" || exit 125; shift; unset PWD; exec "$@"';

let spawns = 0;

/**
 * What holds one spawned server and all it starts: the argv that puts it inside, and the signals that reach every
 * process of it and nothing else. Every signal goes only to what is provably ours: members of our cgroup, or pids
 * whose start time is no earlier than the leader's in the leader's group, or the namespace init we saw start.
 */
export class Jail {
  private leader: { pid: number; procStart: number } | undefined;
  private init: { pid: number; procStart: number } | undefined;
  /** When the leader was seen to exit, in /proc clock ticks. */
  private leaderExit: number | undefined;

  private constructor(
    readonly kind: ContainmentKind,
    /** The cgroup directory (`cgroup` only). */
    readonly cgroup: string | undefined,
  ) {}

  /** Sets up containment for one spawn of `serverId`; throws when its cgroup cannot be created. */
  static open(kind: ContainmentKind, owner: string, serverId: string): Jail {
    if (kind !== 'cgroup') return new Jail(kind, undefined);
    const base = cgroupBase();
    if (base === null) throw new Error('no writable cgroup v2 hierarchy');
    const leaf = `${serverId.toLowerCase().replace(/[^a-z0-9_-]/g, '_')}-${++spawns}`;
    return new Jail(kind, createCgroup(base, owner, leaf));
  }

  /** The argv that runs `file args` with `env` inside this jail, with the pid the server will have (but pidns). */
  wrap(file: string, args: readonly string[], env: Record<string, string>): { file: string; args: string[] } {
    if (this.kind === 'cgroup') {
      const script = 'PWD' in env ? TRAMPOLINE : TRAMPOLINE_NO_PWD;
      return {
        file: '/bin/sh',
        args: ['-c', script, 'mcp-supervisor', `${this.cgroup}/cgroup.procs`, file, ...args],
      };
    }
    if (this.kind === 'pidns') {
      const prefix = pidnsPrefix() ?? [];
      return { file: prefix[0] ?? file, args: [...prefix.slice(1), '--', file, ...args] };
    }
    return { file, args: [...args] };
  }

  /** Called with the spawned leader's pid; returns what the ledger records of it. */
  attach(pid: number): Partial<LedgerEntry> {
    const procStart = procStat(pid)?.startTime;
    if (procStart !== undefined) this.leader = { pid, procStart };
    return {
      containment: this.kind,
      ...(this.cgroup !== undefined ? { cgroup: this.cgroup } : {}),
    };
  }

  /** Marks the leader as exited and reaped: from now on its pid, and so its group id, may be reused. */
  leaderGone(): void {
    this.leaderExit ??= uptimeTicks();
  }

  /** A pid namespace's init (the unshare's one child), once it exists; recorded so a later host can kill it. */
  findInit(): { pid: number; procStart: number } | undefined {
    if (this.kind !== 'pidns' || !this.leader) return undefined;
    if (this.init) return this.init;
    if (!sameProcess(this.leader.pid, this.leader.procStart)) return undefined;
    const child = childrenOf(this.leader.pid)[0];
    const procStart = child === undefined ? undefined : procStat(child)?.startTime;
    if (child !== undefined && procStart !== undefined) this.init = { pid: child, procStart };
    return this.init;
  }

  /**
   * Whether anything of it is still running (zombies do not count). The leader's group counts under `cgroup` too:
   * until the trampoline has written itself into the cgroup, the group is all there is of it.
   */
  alive(): boolean {
    if (this.cgroup !== undefined && cgroupPopulated(this.cgroup)) return true;
    if (!this.leader) return false;
    if (this.init && sameProcess(this.init.pid, this.init.procStart)) return true;
    // Most exits leave the group empty: one kill(-pgid, 0) says so without reading every pid in /proc, which for a
    // fleet stopped at once costs O(servers × processes). Zombies and a reused group id still answer it, so any
    // other answer goes on to the scan, which leaves both out.
    if (!groupHasAny(this.leader.pid)) return false;
    return this.groupPids().length > 0;
  }

  /** SIGTERM to every member: a chance to exit cleanly before `kill()`. */
  terminate(): void {
    if (this.cgroup !== undefined) signalCgroup(this.cgroup, 'SIGTERM');
    this.signalGroup('SIGTERM');
  }

  /** SIGKILL to every member at once (cgroup.kill), or to the group and the namespace's init. */
  kill(): void {
    // The group too: a stop right after the spawn may come before the trampoline joined the cgroup.
    if (this.cgroup !== undefined && !killCgroup(this.cgroup)) signalCgroup(this.cgroup, 'SIGKILL');
    this.findInit();
    if (this.init && sameProcess(this.init.pid, this.init.procStart)) signalPid(this.init.pid, 'SIGKILL');
    this.signalGroup('SIGKILL');
  }

  /** The pids it holds now (for tests and diagnostics). */
  pids(): number[] {
    if (this.cgroup !== undefined) return cgroupPids(this.cgroup);
    return this.groupPids();
  }

  /** Removes the cgroup once it is empty; false while something is still inside. */
  release(): boolean {
    return this.cgroup === undefined || removeCgroup(this.cgroup);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    // Until we reap the leader (node reaps it and reports its exit in one step, which sets leaderExit), its pid —
    // the group id — is held, even by a zombie, and cannot be anyone else's: one kill(-pgid) reaches every member,
    // with no scan of /proc. A fleet stopped at once would otherwise read every pid of the machine per server.
    const leader = this.leader;
    if (leader && this.leaderExit === undefined) {
      signalGroupOf(leader.pid, signal);
      return;
    }
    for (const pid of this.groupPids()) signalPid(pid, signal);
  }

  /**
   * The members of the leader's group that are provably ours. While the leader lives, the group id is its pid and
   * cannot be anyone else's. Once it is gone, the id stays ours only while the group never emptied: that holds as
   * long as a member that started before the leader's exit is alive. When none is, the id may have been reused by
   * an unrelated group, and nothing in it is touched.
   */
  private groupPids(): number[] {
    if (!this.leader) return [];
    const members = groupMembers(this.leader.pid, this.leader.procStart);
    const exit = this.leaderExit;
    if (exit !== undefined && !members.some((m) => m.startTime <= exit)) return [];
    return members.map((m) => m.pid);
  }
}

/** Whether any process, zombies included, is in group `pgid`; only "no such group" (ESRCH) counts as none. */
function groupHasAny(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
