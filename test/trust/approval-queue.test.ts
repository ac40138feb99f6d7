import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../src/trust/approval-queue.js';

/** A question that records when it is asked and answers when the test says so. */
function question(log: string[], name: string) {
  let answer!: (yes: boolean) => void;
  let markAsked!: () => void;
  const asked = new Promise<void>((r) => {
    markAsked = r;
  });
  const fn = () => {
    log.push(`ask ${name}`);
    markAsked();
    return new Promise<boolean>((r) => {
      answer = (yes) => {
        log.push(`answer ${name}`);
        r(yes);
      };
    });
  };
  return { fn, asked, answer: (yes: boolean) => answer(yes) };
}

describe('ApprovalQueue', () => {
  it('asks one question at a time, in the order places were taken, whatever order the asks come in', async () => {
    const q = new ApprovalQueue();
    const log: string[] = [];
    const [p1, p2, p3] = [q.place(), q.place(), q.place()];
    const [a, b, c] = [question(log, 'a'), question(log, 'b'), question(log, 'c')];
    const third = p3.ask(c.fn);
    const second = p2.ask(b.fn);
    const first = p1.ask(a.fn);
    await a.asked;
    a.answer(true);
    expect(await first).toBe(true);
    await b.asked;
    b.answer(false);
    expect(await second).toBe(false);
    await c.asked;
    c.answer(true);
    expect(await third).toBe(true);
    expect(log).toEqual(['ask a', 'answer a', 'ask b', 'answer b', 'ask c', 'answer c']);
  });

  it('a place given up without asking, or a question that throws, frees the line', async () => {
    const q = new ApprovalQueue();
    const [p1, p2, p3] = [q.place(), q.place(), q.place()];
    p1.pass();
    p1.pass();
    expect(
      await p2.ask(() => {
        throw new Error('host failed');
      }),
    ).toBe(false);
    expect(await p3.ask(() => true)).toBe(true);
  });

  it('after close, questions still in line are answered no without being asked', async () => {
    const q = new ApprovalQueue();
    const log: string[] = [];
    const [p1, p2] = [q.place(), q.place()];
    const a = question(log, 'a');
    const first = p1.ask(a.fn);
    const second = p2.ask(() => {
      log.push('ask b');
      return true;
    });
    await a.asked;
    q.close();
    a.answer(true);
    expect(await first).toBe(true);
    expect(await second).toBe(false);
    expect(log).toEqual(['ask a', 'answer a']);
  });
});
