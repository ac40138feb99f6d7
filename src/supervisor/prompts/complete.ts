import type { McpConnection } from '../../protocol/connection.js';
import { requestOutcome, type SurfaceOutcome, surfaceFailure } from '../../protocol/surface-outcome.js';
import type { ExposedPrompt } from '../../registry/exposed-prompt.js';
import { parseQualifiedUri } from '../../registry/resource-uri.js';

/** What a completion is for: a prompt by its exposed name, or a resource template by its URI template. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  [key: string]: unknown;
}

interface ReadyServer {
  id: string;
  conn: McpConnection;
  timeoutMs: number;
}

/**
 * Routes `completion/complete` by its reference: a prompt's exposed name maps to its server and the server's own
 * name; a template in the fleet's `mcp-supervisor://<server>/…` form goes to the server it names, in that server's
 * own form; any other template URI goes to the first ready server (config order) that lists it — the one whose
 * template keeps its form when several list it. Only servers declaring `completions` are asked.
 */
export async function completeOn(
  ready: readonly ReadyServer[],
  promptFor: (name: string) => ExposedPrompt | undefined,
  ref: CompletionRef,
  argument: { name: string; value: string },
  context?: { arguments?: Record<string, string> | undefined },
  /** Who the completion is made for (`CallOptions.caller`): the server's requests meanwhile are told of it. */
  caller?: string,
): Promise<SurfaceOutcome<CompleteResult>> {
  if (!isArgument(argument)) {
    return surfaceFailure('INVALID_CALL', 'invalid completion: argument must be { name, value } strings');
  }
  let target: ReadyServer | undefined;
  let sentRef: CompletionRef;
  if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
    const prompt = promptFor(ref.name);
    target = prompt ? ready.find((s) => s.id === prompt.server) : undefined;
    if (!prompt || !target) return surfaceFailure('UNKNOWN_REF', `unknown prompt '${ref.name}'`);
    sentRef = { type: 'ref/prompt', name: prompt.prompt };
  } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
    // A template the fleet renamed (it collided, see resource-uri.ts) names its server and its own form.
    const qualified = parseQualifiedUri(ref.uri);
    target = qualified ? ready.find((s) => s.id === qualified.server) : await templateOwner(ready, ref.uri);
    if (!target)
      return surfaceFailure('UNKNOWN_REF', `no ready server lists the resource template '${ref.uri}'`);
    sentRef = { type: 'ref/resource', uri: qualified ? qualified.uri : ref.uri };
  } else {
    return surfaceFailure(
      'INVALID_CALL',
      'invalid completion: ref must be ref/prompt with a name or ref/resource with a uri',
    );
  }
  if (!target.conn.serverInit?.capabilities.completions) {
    return surfaceFailure('NOT_SUPPORTED', `server '${target.id}' does not offer completions`, target.id);
  }
  const params = { ref: sentRef, argument, ...(context ? { context } : {}) };
  const out = await requestOutcome<CompleteResult>(
    target.conn,
    target.id,
    'completion/complete',
    params,
    target.timeoutMs,
    undefined,
    caller,
  );
  if (out.ok && !Array.isArray(out.result.completion?.values)) {
    return surfaceFailure(
      'INVALID_RESULT',
      'completion/complete answered without completion.values',
      target.id,
    );
  }
  return out;
}

/** Pages of `resources/templates/list` read per server when looking for a template's owner. */
const MAX_TEMPLATE_PAGES = 20;

async function templateOwner(ready: readonly ReadyServer[], uri: string): Promise<ReadyServer | undefined> {
  for (const s of ready) {
    const caps = s.conn.serverInit?.capabilities;
    if (!caps?.resources || !caps.completions) continue;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TEMPLATE_PAGES; page++) {
      let raw: { resourceTemplates?: unknown; nextCursor?: unknown } | null;
      try {
        raw = (await s.conn.request('resources/templates/list', cursor === undefined ? {} : { cursor }, {
          timeoutMs: s.timeoutMs,
        })) as typeof raw;
      } catch {
        break;
      }
      const list = Array.isArray(raw?.resourceTemplates) ? raw.resourceTemplates : [];
      if (list.some((t) => (t as { uriTemplate?: unknown } | null)?.uriTemplate === uri)) return s;
      if (typeof raw?.nextCursor !== 'string') break;
      cursor = raw.nextCursor;
    }
  }
  return undefined;
}

function isArgument(a: unknown): a is { name: string; value: string } {
  const o = a as { name?: unknown; value?: unknown } | null;
  return typeof o === 'object' && o !== null && typeof o.name === 'string' && typeof o.value === 'string';
}
