import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../../framing/is-record.js';
import { OUTCOME_CODE_META_KEY } from '../../protocol/call-outcome.js';
import type { CallToolResult } from '../../protocol/tool-calls.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../search/fleet-search.js';
import { nearestNames } from '../../search/nearest-names.js';
import type { Fleet } from '../fleet.js';

/** The two tools a client sees with tool search on, whatever the fleet holds. */
export const SEARCH_TOOL = 'search_tools';
export const CALL_TOOL = 'call_tool';

/** The definitions `tools/list` answers with tool search on, before the tools kept in view (`expose`). */
export function searchToolDefinitions(): Tool[] {
  return [
    {
      name: SEARCH_TOOL,
      title: 'Search tools',
      description:
        `Finds the tools of this server that fit a task, best first: describe what you want to do in a few words. ` +
        `Each hit has the tool's name, description and input schema; call it with ${CALL_TOOL}.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What the tool should do, in plain words.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_SEARCH_LIMIT,
            description: `How many tools at most (default ${DEFAULT_SEARCH_LIMIT}).`,
          },
        },
        required: ['query'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          tools: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                description: { type: 'string' },
                inputSchema: { type: 'object' },
                score: { type: 'number' },
              },
              required: ['name', 'inputSchema', 'score'],
            },
          },
        },
        required: ['tools'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CALL_TOOL,
      title: 'Call a tool',
      description:
        `Calls a tool that ${SEARCH_TOOL} found, by its name, with arguments that fit its input schema. ` +
        `Its answer is the tool's own.`,
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: `The tool's name, as ${SEARCH_TOOL} gave it.` },
          arguments: { type: 'object', description: "The tool's arguments." },
        },
        required: ['name'],
      },
    },
  ];
}

/** What a client is told, in the server's instructions, when tool search is on. */
export const SEARCH_INSTRUCTIONS =
  `Tool search is on: tools/list shows ${SEARCH_TOOL} and ${CALL_TOOL} rather than every tool. ` +
  `To act, first call ${SEARCH_TOOL} with a few words saying what you want done; it answers the best-matching ` +
  `tools with their input schemas. Then call ${CALL_TOOL} with { "name": <a tool's name>, "arguments": {…} }.`;

/** An `isError` result with our code, for a call the client can put right. */
function refusal(code: string, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true, _meta: { [OUTCOME_CODE_META_KEY]: code } };
}

/** `search_tools`: its arguments checked, the hits as structured content and the same as text. */
export function answerSearch(fleet: Pick<Fleet, 'searchTools'>, args: unknown): CallToolResult {
  const a = isRecord(args) ? args : {};
  if (typeof a.query !== 'string' || a.query.trim() === '')
    return refusal('INVALID_CALL', `${SEARCH_TOOL}: query must be a non-empty string`);
  const limit = a.limit ?? DEFAULT_SEARCH_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)
    return refusal('INVALID_CALL', `${SEARCH_TOOL}: limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
  const tools = fleet.searchTools(a.query, { limit });
  const text =
    tools.length === 0
      ? `No tool matches ${JSON.stringify(a.query)}: try other words, or fewer.`
      : JSON.stringify({ tools });
  return { content: [{ type: 'text', text }], structuredContent: { tools } };
}

/**
 * `call_tool`'s params made into the call of the tool it names (every other param — `_meta`, `task`, a retry's
 * `inputResponses` and `requestState` — kept), or the error result for a name no tool has, with the nearest.
 */
export function unwrapCall<P extends Record<string, unknown>>(
  fleet: Pick<Fleet, 'searchTools' | 'getTool' | 'listTools'>,
  params: P,
): { params: P } | { refused: CallToolResult } {
  const a = isRecord(params.arguments) ? params.arguments : {};
  if (typeof a.name !== 'string' || a.name === '')
    return { refused: refusal('INVALID_CALL', `${CALL_TOOL}: name must be the name of a tool`) };
  if (a.arguments !== undefined && !isRecord(a.arguments))
    return { refused: refusal('INVALID_CALL', `${CALL_TOOL}: arguments must be an object`) };
  if (!fleet.getTool(a.name)) {
    // Names a letter or two off first (a typo), then tools whose words fit the name's.
    const spelt = nearestNames(
      a.name,
      fleet.listTools().map((t) => t.name),
      3,
    );
    const fitting = fleet.searchTools(a.name, { limit: 3 }).map((t) => t.name);
    const near = [...new Set([...spelt, ...fitting])].slice(0, 3);
    const hint = near.length > 0 ? `; the nearest: ${near.join(', ')}` : `; find one with ${SEARCH_TOOL}`;
    return { refused: refusal('UNKNOWN_TOOL', `no tool is named '${a.name}'${hint}`) };
  }
  const { arguments: _wrapped, ...rest } = params;
  const call = { ...rest, name: a.name, ...(a.arguments !== undefined ? { arguments: a.arguments } : {}) };
  return { params: call as unknown as P };
}
