import type { JsonRpcId, JsonRpcMessage } from './json-rpc.js';
import type { MessageCut } from './line-summary.js';
import type { ToolResultEvent } from './tool-result.js';

/** What a child's stdout decodes to, in stream order. */
export type DecodedEvent =
  /** `cut`: a large notification or list page arrived as a bounded copy, and this is what it left out. */
  | { kind: 'message'; message: JsonRpcMessage; cut?: MessageCut }
  | ToolResultEvent
  | { kind: 'noise'; line: string }
  | { kind: 'oversize'; bytes: number; id?: JsonRpcId };
