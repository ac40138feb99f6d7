import { isRecord } from './is-record.js';
import { base64DecodedBytes, formatBytes } from './utf8-cap.js';

/** One content block as flattening sees it: its text form, or why it is not a content block at all. */
export type BlockRendering =
  | {
      ok: true;
      text: string /** the block's own text (text blocks and text resources), cappable */;
      own: boolean;
    }
  | { ok: false; problem: string };

/** `null`, `array`, or the typeof of anything else, for error messages. */
export function describeType(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

function bad(index: number, what: string): BlockRendering {
  return { ok: false, problem: `content[${index}] ${what}` };
}

/** A size label for binary data sent as base64, e.g. `29.3 KiB`. */
function sizeOf(data: string): string {
  return formatBytes(base64DecodedBytes(data));
}

function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Renders one MCP content block as text: binary data becomes a placeholder, never base64. */
export function renderBlock(block: unknown, index: number): BlockRendering {
  if (!isRecord(block)) return bad(index, `is ${describeType(block)}, not a content block`);
  const type = block.type;
  if (typeof type !== 'string') return bad(index, 'has no type');
  switch (type) {
    case 'text':
      if (typeof block.text !== 'string') return bad(index, '(text) has no text');
      return { ok: true, text: block.text, own: true };
    case 'image':
    case 'audio': {
      if (typeof block.data !== 'string') return bad(index, `(${type}) has no base64 data`);
      const mime = optionalString(block.mimeType);
      return { ok: true, text: `[${type}: ${mime ? `${mime}, ` : ''}${sizeOf(block.data)}]`, own: false };
    }
    case 'resource': {
      const r = block.resource;
      if (!isRecord(r) || typeof r.uri !== 'string') return bad(index, '(resource) has no resource uri');
      if (typeof r.text === 'string') return { ok: true, text: r.text, own: true };
      if (typeof r.blob !== 'string') return bad(index, '(resource) has neither text nor blob');
      const mime = optionalString(r.mimeType);
      return {
        ok: true,
        text: `[resource: ${r.uri}, ${mime ? `${mime}, ` : ''}${sizeOf(r.blob)}]`,
        own: false,
      };
    }
    case 'resource_link': {
      if (typeof block.uri !== 'string') return bad(index, '(resource_link) has no uri');
      const name = optionalString(block.name);
      return { ok: true, text: `[resource link: ${name ? `${name} ` : ''}<${block.uri}>]`, own: false };
    }
    default:
      return { ok: true, text: `[unknown content: ${type.slice(0, 64)}]`, own: false };
  }
}
