import type { CallOptions } from '../../protocol/call-options.js';
import type { CallDecode, OutcomeOf } from '../../protocol/call-outcome.js';
import type { CallSpans } from '../observe/call-spans.js';
import type { Tracing } from '../observe/tracing.js';
import type { CallRecords } from './records.js';
import type { FleetCalls } from './tool-calls.js';

/** What a recorded and traced call runs through. */
export interface TracedCallDeps {
  tracing: Tracing;
  callSpans: CallSpans;
  callRecords: CallRecords;
  calls: FleetCalls;
}

/**
 * The one way a tool call is made: recorded for `onCall`, in a span when the host registered an OpenTelemetry
 * SDK, its outcome as data. `callTool`, `callToolOutcome` and `callToolResult` are renderings of it.
 */
export function tracedCall<D extends CallDecode>(
  deps: TracedCallDeps,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: CallOptions | undefined,
  decode: D,
): Promise<OutcomeOf<D>> {
  const { callSpans, callRecords, calls } = deps;
  const tracer = deps.tracing.tracer();
  if (tracer)
    return callSpans.call(tracer, name, opts, (o) =>
      callRecords.call(name, () => calls.call(name, args, o, decode)),
    );
  return callRecords.call(name, () => calls.call(name, args, opts, decode));
}
