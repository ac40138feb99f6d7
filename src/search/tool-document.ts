import type { ExposedTool } from '../registry/exposed-tool.js';

/** What the index holds of one tool: its text by field, as `words` will split it. */
export interface ToolDocument {
  /** The exposed name: the document's id. */
  id: string;
  /** The exposed name and the server's own name of the tool, as words. */
  name: string;
  title: string;
  description: string;
  /** Each parameter's name and description, one level of nested objects and array items included. */
  params: string;
  /** The server's id and what it said of itself (`instructions`): a weak field. */
  server: string;
}

/** A tool as the index reads it; `instructions` are its server's, when it gave any. */
export function toolDocument(tool: ExposedTool, instructions: string | undefined): ToolDocument {
  const title = tool.title ?? (typeof tool.annotations?.title === 'string' ? tool.annotations.title : '');
  return {
    id: tool.name,
    name: `${tool.name} ${tool.tool}`,
    title,
    description: tool.description ?? '',
    params: paramText(tool.inputSchema, 0),
    server: [tool.server, instructions ?? ''].join('\n'),
  };
}

/** A schema's property names and descriptions, two levels deep: enough to find a tool by what it takes. */
function paramText(schema: unknown, depth: number): string {
  if (!isObject(schema) || depth > 2) return '';
  const parts: string[] = [];
  if (typeof schema.description === 'string' && depth > 0) parts.push(schema.description);
  if (isObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      parts.push(name);
      parts.push(paramText(sub, depth + 1));
    }
  }
  if (isObject(schema.items)) parts.push(paramText(schema.items, depth + 1));
  if (Array.isArray(schema.enum)) parts.push(schema.enum.filter((v) => typeof v === 'string').join(' '));
  return parts.filter(Boolean).join('\n');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What must change for a tool to be indexed again: everything its document is made of. */
export function documentKey(doc: ToolDocument): string {
  return JSON.stringify([doc.name, doc.title, doc.description, doc.params, doc.server]);
}
