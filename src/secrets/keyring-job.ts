// What the main thread asks of the keyring thread, and what it answers: plain data, posted between threads.

/** One operation on one item. The value travels only inside this process, never into an answer's words. */
export type KeyringJob = { service: string; account: string } & (
  | { op: 'read' }
  | { op: 'store'; value: string }
  | { op: 'delete' }
);

/**
 * The thread's answer. `found` is false when no such item exists (a read or a delete); a read that found one
 * gives its `value`, or `notText` when the secret is not UTF-8. A failure is `unreachable` (no keyring could be
 * had: no bus, no Secret Service, no answer in time) or `refused` (one answered and said no); its `words` are the
 * library's own, with any value a store was given masked out.
 */
export type KeyringAnswer =
  | { ok: true; found: boolean; value?: string; notText?: boolean }
  | { ok: false; cause: 'unreachable' | 'refused'; words: string };
