import type { CallOptions } from '../../protocol/call-options.js';
import type { CallOutcome } from '../../protocol/call-outcome.js';
import type { CallToolResult } from '../../protocol/tool-calls.js';
import type { FleetParts } from '../parts.js';

type CallParts = Pick<FleetParts, 'tracing' | 'callSpans' | 'callRecords' | 'calls'>;

/** A tool call as data, recorded for `onCall`, and in a span when the host registered an OpenTelemetry SDK. */
export function tracedOutcome(
  parts: CallParts,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: CallOptions | undefined,
): Promise<CallOutcome> {
  const { callSpans, callRecords, calls } = parts;
  const tracer = parts.tracing.tracer();
  if (tracer)
    return callSpans.outcome(tracer, name, opts, (o) =>
      callRecords.outcome(name, () => calls.outcome(name, args, o)),
    );
  return callRecords.outcome(name, () => calls.outcome(name, args, opts));
}

/** The same call as an MCP result, recorded and traced alike. */
export function tracedResult(
  parts: CallParts,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: CallOptions | undefined,
): Promise<CallToolResult> {
  const { callSpans, callRecords, calls } = parts;
  const tracer = parts.tracing.tracer();
  if (tracer)
    return callSpans.result(tracer, name, opts, (o) =>
      callRecords.result(name, () => calls.result(name, args, o)),
    );
  return callRecords.result(name, () => calls.result(name, args, opts));
}
