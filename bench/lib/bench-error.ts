/** A benchmark that measured something other than what it meant to (wrong answer, failed start). */
export class BenchError extends Error {
  override readonly name = 'BenchError';
  constructor(
    readonly code: 'WRONG_ANSWER' | 'NOT_READY' | 'NO_EVENT' | 'NO_CGROUP',
    message: string,
  ) {
    super(message);
  }
}
