import type { HeldName, NameKind } from '../registry/name-claims.js';
import type { SupervisorEvent } from './types.js';

type NoticeEvent = Omit<Extract<SupervisorEvent, { type: 'notice' }>, 'at'>;

/**
 * Turns the names held back at each settling into `NAME_COLLISION` notices: each one once while it stays held,
 * and again if it is held again after it was let through (its holder went away and came back).
 */
export class HeldNotices {
  private readonly reported = new Map<NameKind, Set<string>>();

  constructor(private readonly emit: (e: NoticeEvent) => void) {}

  /** {@link update} for one kind, as a callback. */
  of(kind: NameKind): (held: readonly HeldName[]) => void {
    return (held) => this.update(kind, held);
  }

  /** The names of `kind` held back now (all of them, every time): the new ones are announced. */
  update(kind: NameKind, held: readonly HeldName[]): void {
    const before = this.reported.get(kind) ?? new Set<string>();
    const now = new Set<string>();
    for (const h of held) {
      const key = `${h.server}\0${h.name}\0${h.heldFor}`;
      now.add(key);
      if (before.has(key)) continue;
      this.emit({
        type: 'notice',
        server: h.server,
        code: 'NAME_COLLISION',
        kind: h.kind,
        name: h.name,
        heldFor: h.heldFor,
        message: `${h.kind} '${h.name}' is left out: server '${h.heldFor}' offers the same name`,
      });
    }
    this.reported.set(kind, now);
  }
}
