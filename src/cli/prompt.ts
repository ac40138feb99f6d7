import { createInterface } from 'node:readline';
import type { ApprovalRequest } from '../supervisor/types.js';
import type { AskFn } from './approval.js';
import { describeRequest } from './approval.js';

export interface PromptHooks {
  /** Called before the question is shown (the live table steps aside). */
  before?: () => void;
  /** Called after the answer. */
  after?: () => void;
  /** Ctrl-C at the prompt: the answer is no, and the program shuts down. */
  onInterrupt?: () => void;
  /** Aborted when the program stops: an open question is answered no (a pending approval would hold the stop). */
  signal?: AbortSignal;
}

/** An interactive yes/no on the terminal (node:readline on stdin, text on stderr); anything but y/yes is no. */
export function terminalAsk(hooks: PromptHooks = {}): AskFn {
  return (request: ApprovalRequest) =>
    new Promise<boolean>((resolve) => {
      if (hooks.signal?.aborted) {
        resolve(false);
        return;
      }
      hooks.before?.();
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      let settled = false;
      // Once only: a Ctrl-C at the open prompt reaches readline and `typedAhead` both, and a second interrupt
      // would count as the second Ctrl-C, which kills every server at once.
      let interrupted = false;
      const interrupt = () => {
        if (interrupted) return;
        interrupted = true;
        hooks.onInterrupt?.();
      };
      // A Ctrl-C typed right behind the answer arrives in the same read as it. Readline is closed by then and the
      // terminal was still raw when it was read, so no SIGINT comes either: without this the key would be lost.
      const typedAhead = (_s: unknown, key: { ctrl?: boolean; name?: string } | undefined) => {
        if (settled && key?.ctrl && key.name === 'c') interrupt();
      };
      process.stdin.on('keypress', typedAhead);
      const finish = (yes: boolean) => {
        if (settled) return;
        settled = true;
        hooks.signal?.removeEventListener('abort', onAbort);
        rl.close();
        setImmediate(() => process.stdin.off('keypress', typedAhead));
        hooks.after?.();
        resolve(yes);
      };
      rl.on('SIGINT', () => {
        process.stderr.write('\n');
        finish(false);
        interrupt();
      });
      rl.on('close', () => finish(false));
      const onAbort = () => {
        process.stderr.write('\n');
        finish(false);
      };
      hooks.signal?.addEventListener('abort', onAbort, { once: true });
      process.stderr.write(`\n${describeRequest(request).join('\n')}\n`);
      const verb = request.kind === 'tools' ? 'Accept these tools' : 'Trust and start it';
      rl.question(`${verb}? [y/N] `, (answer) => finish(/^y(es)?$/i.test(answer.trim())));
    });
}
