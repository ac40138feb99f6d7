/** What a server asked before it can answer a call, as the host's `onInputRequired` is given it. */
export interface InputRequest {
  /** The server that asked, and the tool's namespaced name (for a prompt or a resource: its name or URI). */
  server: string;
  tool: string;
  /** The request that asked (`tools/call`, `prompts/get`, `resources/read`) and the name or URI it is for. */
  method: string;
  name: string;
  /** Keyed by the server's own ids; each value an `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  inputRequests: Record<string, Record<string, unknown>>;
  /** 1 for the first answer of this call, counting up. */
  round: number;
  signal?: AbortSignal | undefined;
}

/** Answers a round: the `inputResponses` to retry with, keyed as the requests were. */
export type InputHandler = (
  request: InputRequest,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** A server that asks more often than this for one call is not going to finish it. */
export const MAX_INPUT_ROUNDS = 8;
