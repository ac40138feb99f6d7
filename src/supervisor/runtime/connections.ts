import type { McpConnection } from '../../protocol/connection.js';

/**
 * The one place a server's live connection is kept, keyed by server id and generation: the machines hold only
 * plain data (pid, generation), and the process, handshake and pinger actors and the facade look the connection up
 * here. It also remembers every connection whose process group may still hold something (a grandchild), until the
 * group is reaped.
 */
export class Connections {
  private readonly current = new Map<string, { generation: number; conn: McpConnection }>();
  private readonly unreaped = new Set<McpConnection>();

  /** The process actor of `generation` made `conn`; it stays the server's connection until its process exits. */
  add(id: string, generation: number, conn: McpConnection): void {
    this.current.set(id, { generation, conn });
    this.unreaped.add(conn);
    void conn.exited
      .then(() => {
        if (this.current.get(id)?.conn === conn) this.current.delete(id);
        // After the leader exits, close() waits for the rest of its group to be reaped.
        return conn.close('exited');
      })
      .then(() => this.unreaped.delete(conn));
  }

  /** The connection of exactly this generation of a server, while its process runs. */
  of(id: string, generation: number): McpConnection | undefined {
    const entry = this.current.get(id);
    return entry?.generation === generation ? entry.conn : undefined;
  }

  /** The connection now serving a server, undefined once its process exited. */
  get(id: string): McpConnection | undefined {
    return this.current.get(id)?.conn;
  }

  /** Closes every connection that may still hold a process; resolves once each group is reaped. */
  async closeAll(reason: string): Promise<void> {
    await Promise.all([...this.unreaped].map((c) => c.close(reason)));
  }

  /** Kills every running server's process group now, without the stdin grace (the actor system failed). */
  reapNow(reason: string): void {
    for (const { conn } of this.current.values()) void conn.close(reason, { immediate: true });
  }
}
