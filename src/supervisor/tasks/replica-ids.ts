import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** How the random part of the fleet's task ids is made, and whether one came from a sibling replica. */
export interface TaskIdScheme {
  /** The part of a new task id after `<server><separator>`: unguessable, as MCP asks. */
  mint(): string;
  /** Whether an id this fleet does not know was minted by another replica holding the same key. */
  fromSibling(id: string): boolean;
}

const TAG =
  /([A-Za-z0-9_-]{8})([A-Za-z0-9_-]{8})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Task ids that name the replica that made them: each id carries this process's instance (8 random characters)
 * and a MAC of it under the replicas' shared key, before the random UUID. A replica asked for a task it does not
 * hold can so tell "another replica's" (a coded error saying where tasks live) from "no such task", and no one
 * without the key can make an id read as a sibling's.
 */
export function replicaTaskIds(key: Buffer): TaskIdScheme {
  const mac = (instance: string) =>
    createHmac('sha256', key)
      .update(`mcp-supervisor task replica ${instance}`)
      .digest('base64url')
      .slice(0, 8);
  const instance = randomBytes(6).toString('base64url');
  const mine = instance + mac(instance);
  return {
    mint: () => `${mine}-${randomUUID()}`,
    fromSibling: (id) => {
      const m = TAG.exec(id);
      if (!m || m[1] === instance) return false;
      const [given, expected] = [Buffer.from(m[2] as string), Buffer.from(mac(m[1] as string))];
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
