import { InvalidArgumentError } from 'commander';
import { MIN_RESULT_BYTES } from '../config/schema.js';
import { parseSize } from '../config/units.js';

/**
 * The cap `serve` puts on every tool result unless `--max-result-bytes` or `serve.maxResultBytes` says otherwise:
 * well under the 10 MiB a stock SDK client reads in one message (a larger message closes its whole session), with
 * room for JSON escaping.
 */
export const DEFAULT_SERVE_RESULT_BYTES = 4 * 1024 * 1024;

/** Commander parser of `--max-result-bytes`: a size as the config writes one (`1MiB`, `65536`). */
export function parseResultCap(value: string): number {
  const size = parseSize(value);
  if (!size.ok) throw new InvalidArgumentError(size.message);
  if (size.value < MIN_RESULT_BYTES)
    throw new InvalidArgumentError(`must be at least ${MIN_RESULT_BYTES} bytes`);
  return size.value;
}
