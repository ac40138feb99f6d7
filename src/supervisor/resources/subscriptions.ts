import type { ResourceFailure, ResourceUpdate } from './outcome.js';

type Listener = (update: ResourceUpdate) => void;

interface Subscription {
  server: string;
  uri: string;
  /** Each listener with the URI it subscribed by (the plain or the qualified form). */
  listeners: Map<object, { listener: Listener; asked: string }>;
}

/**
 * Who listens to which resource of which server. A server is asked to subscribe once per resource, however many
 * listeners share it, and to unsubscribe when the last one leaves; its updates reach only those listeners.
 */
export class ResourceSubscriptions {
  private readonly subs = new Map<string, Subscription>();
  /** The server's answer to the subscribe of a resource, while it is awaited. */
  private readonly asking = new Map<string, Promise<ResourceFailure | undefined>>();

  /**
   * Adds a listener; the first one of a resource asks the server (`ask`), and one that joins meanwhile shares
   * that answer, failure included. Resolves the failure (the listener is gone again) or the listener's `remove`.
   */
  async join(
    server: string,
    uri: string,
    asked: string,
    listener: Listener,
    ask: () => Promise<ResourceFailure | undefined>,
  ): Promise<{ failed: ResourceFailure } | { remove: () => boolean }> {
    const key = keyOf(server, uri);
    const entry = this.add(server, uri, asked, listener);
    let answer = this.asking.get(key);
    if (entry.first) {
      const mine = ask();
      answer = mine;
      this.asking.set(key, mine);
      void mine.then(() => {
        if (this.asking.get(key) === mine) this.asking.delete(key);
      });
    }
    const failed = answer ? await answer : undefined;
    if (!failed) return { remove: entry.remove };
    entry.remove();
    return { failed };
  }

  /** Adds a listener; `first` says the server must be asked. `remove` returns true when it was the last one. */
  add(
    server: string,
    uri: string,
    asked: string,
    listener: Listener,
  ): { first: boolean; remove: () => boolean } {
    const key = keyOf(server, uri);
    let sub = this.subs.get(key);
    const first = sub === undefined;
    if (!sub) {
      sub = { server, uri, listeners: new Map() };
      this.subs.set(key, sub);
    }
    const token = {};
    sub.listeners.set(token, { listener, asked });
    const held = sub;
    let removed = false;
    return {
      first,
      remove: () => {
        if (removed) return false;
        removed = true;
        held.listeners.delete(token);
        if (held.listeners.size > 0 || this.subs.get(key) !== held) return false;
        this.subs.delete(key);
        return true;
      },
    };
  }

  /** Whether anyone still listens to a resource of a server. */
  has(server: string, uri: string): boolean {
    return this.subs.has(keyOf(server, uri));
  }

  /** A server said a resource changed: tells its listeners; returns how many were told. */
  deliver(server: string, uri: string, onError: (err: unknown) => void): number {
    const sub = this.subs.get(keyOf(server, uri));
    if (!sub) return 0;
    for (const { listener, asked } of [...sub.listeners.values()]) {
      try {
        listener({ uri: asked, server });
      } catch (err) {
        onError(err);
      }
    }
    return sub.listeners.size;
  }

  /** The URIs of a server someone listens to (to ask a restarted server again). */
  urisOf(server: string): string[] {
    return [...this.subs.values()].filter((s) => s.server === server).map((s) => s.uri);
  }

  clear(): void {
    this.subs.clear();
    this.asking.clear();
  }
}

function keyOf(server: string, uri: string): string {
  return `${server}\n${uri}`;
}
