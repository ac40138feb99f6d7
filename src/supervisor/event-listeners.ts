import type { SupervisorEvent } from './types.js';

/** The host's event listeners: each hears every event, and one that throws is told of, never the others' loss. */
export class EventListeners {
  private readonly listeners = new Set<(e: SupervisorEvent) => void>();

  constructor(private readonly warn: (message: string) => void) {}

  add(listener: (event: SupervisorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: SupervisorEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.warn(`event listener threw: ${String(err)}`);
      }
    }
  }
}
