/**
 * The cap `serve` puts on every tool result unless `--max-result-bytes` or `serve.maxResultBytes` says otherwise:
 * well under the 10 MiB a stock SDK client reads in one message (a larger message closes its whole session), with
 * room for JSON escaping.
 */
export const DEFAULT_SERVE_RESULT_BYTES = 4 * 1024 * 1024;
