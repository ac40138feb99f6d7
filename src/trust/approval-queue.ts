/** One place in the approval line; release it exactly once, by `ask` or `pass`. */
export interface ApprovalPlace {
  /** Waits for every earlier place, asks, then frees the line; a closed line answers `false` without asking. */
  ask(question: () => boolean | Promise<boolean>): Promise<boolean>;
  /** Gives the place up without asking (the launch was trusted, or the check failed); idempotent. */
  pass(): void;
}

/**
 * The line of questions to a person: one at a time, in the order places were taken. A host that asks on a
 * terminal cannot answer three overlapping questions; places are taken when a check begins, so launches of a
 * fleet started together are asked about in config order even when their fingerprints finish out of order.
 */
export class ApprovalQueue {
  private tail: Promise<void> = Promise.resolve();
  private closed = false;

  /** Takes the next place (synchronously: the order of calls is the order of questions). */
  place(): ApprovalPlace {
    const before = this.tail;
    let free!: () => void;
    const done = new Promise<void>((resolve) => {
      free = resolve;
    });
    this.tail = before.then(() => done);
    return {
      ask: async (question) => {
        try {
          await before;
          // Stopped while waiting in line: nobody is there to use the answer.
          if (this.closed) return false;
          return (await question()) === true;
        } catch {
          return false;
        } finally {
          free();
        }
      },
      pass: () => free(),
    };
  }

  /** Questions still waiting in line are answered `false` without being asked; idempotent. */
  close(): void {
    this.closed = true;
  }
}
