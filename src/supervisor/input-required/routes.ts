/** How many handed-out `requestState`s are remembered; the oldest is forgotten first. */
const LIMIT = 1024;

/**
 * Which server each `requestState` handed to a gateway's client came from, so that the client's retry — routed
 * again by the tool's name — cannot reach another server if the name changed hands between the rounds (a rename,
 * a name held for another server). A state it never saw (another replica's, or forgotten) routes by name alone:
 * the server itself must verify its state (the spec says so), and this only keeps our routing honest.
 */
export class InputRoutes {
  private readonly byState = new Map<string, string>();

  remember(requestState: string, server: string): void {
    this.byState.delete(requestState);
    this.byState.set(requestState, server);
    if (this.byState.size > LIMIT) {
      const oldest = this.byState.keys().next();
      if (!oldest.done) this.byState.delete(oldest.value);
    }
  }

  /** The server that gave this state out, when it is remembered. */
  serverOf(requestState: string): string | undefined {
    return this.byState.get(requestState);
  }
}
