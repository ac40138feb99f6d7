// One server entry of a client's file, field by field: mapped, carried (our own keys), or noted as not converted.
import { isAbsolute, relative, resolve } from 'node:path';
import { HTTP_TYPES, ServerSchema } from '../../config/schema.js';
import { isRecord } from '../../framing/is-record.js';
import { maskInline } from '../../trust/mask.js';
import type { ConvertedServer } from './conversion.js';
import { msDuration } from './ms-duration.js';
import { keepEnvValue, keepHeaderValue } from './secrets.js';
import { rewriteVariables, type VariableContext } from './variables.js';

// Keys of the clients' own entries that are mapped; every other key of ours is carried as it is.
const MAPPED = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'disabled', 'timeout']);
const OURS = new Set(Object.keys(ServerSchema.shape).filter((k) => !MAPPED.has(k)));

/** What converting an entry needs: the file's variables, where the output goes, and where to say things. */
export interface EntryContext {
  ctx: VariableContext;
  /** Where the output goes: a relative `cwd` is rewritten for it. */
  outDir: string;
  fail: (path: (string | number)[], message: string) => void;
  warn: (notes: string[], path: (string | number)[], message: string) => void;
}

/** Fills `s` from the entry `raw` at `path`; a field that is no use at all is a problem (`fail`). */
export function convertEntry(
  raw: Record<string, unknown>,
  path: string[],
  s: ConvertedServer,
  e: EntryContext,
): void {
  const note = (key: string | number | (string | number)[], message: string) =>
    e.warn(s.notes, [...path, ...[key].flat()], message);
  const text = (key: string | (string | number)[], value: string): string => {
    const r = rewriteVariables(value, e.ctx);
    for (const n of r.notes) note(key, n);
    return r.value;
  };
  const type = raw['type'];
  if (type !== undefined && type !== 'stdio' && !(HTTP_TYPES as readonly unknown[]).includes(type)) {
    s.off =
      type === 'sse'
        ? 'it uses the legacy HTTP+SSE transport (type "sse"), which mcp-supervisor does not speak; if the server also offers Streamable HTTP, write its url with type http'
        : `its type ${shown(type)} is not one mcp-supervisor knows (stdio or http)`;
    note('type', `server not converted: ${s.off}`);
  }
  const command = raw['command'];
  const url = raw['url'];
  if (command !== undefined) {
    if (typeof command !== 'string' || command === '')
      e.fail([...path, 'command'], 'expected a non-empty string');
    else s.fields.push(['command', text('command', command)]);
  }
  if (url !== undefined) {
    if (typeof url !== 'string') e.fail([...path, 'url'], 'expected a string');
    else if (command !== undefined)
      note('url', `not converted: ${shown(url)} (a server has a command or a url; the command was kept)`);
    else s.fields.push(['url', text('url', url)]);
  }
  if (command === undefined && url === undefined) e.fail(path, 'missing: a command to run, or a url');
  const args = raw['args'];
  if (args !== undefined) {
    if (!Array.isArray(args) || !args.every((a) => ['string', 'number', 'boolean'].includes(typeof a)))
      e.fail([...path, 'args'], 'expected a list of strings');
    else {
      const list = args.map((a, i) => text(['args', i], String(a)));
      list.forEach((a, i) => {
        if (maskInline(a) !== a)
          note(
            ['args', i],
            `looks like it holds a secret and was copied as it is: consider writing \${VAR} there, with VAR set in the environment`,
          );
      });
      s.fields.push(['args', list]);
    }
  }
  const cwd = raw['cwd'];
  if (typeof cwd === 'string' && cwd !== '') {
    const value = text('cwd', cwd);
    const moved =
      isAbsolute(value) || value.includes('${')
        ? value
        : relative(e.outDir, resolve(e.ctx.workspace, value)) || '.';
    s.fields.push(['cwd', moved]);
  } else if (cwd !== undefined) e.fail([...path, 'cwd'], 'expected a non-empty string');
  mapOfStrings(
    raw,
    'env',
    path,
    e,
    (name, value) => {
      const kept = keepEnvValue(name, text(['env', name], value));
      if (kept.moved)
        note(['env', name], `looks like a secret and was not copied: set ${kept.moved} in the environment`);
      return kept.value;
    },
    s,
  );
  mapOfStrings(
    raw,
    'headers',
    path,
    e,
    (name, value) => {
      const kept = keepHeaderValue(s.id, name, text(['headers', name], value));
      if (kept.moved)
        note(
          ['headers', name],
          `looks like a secret and was not copied: set ${kept.moved} in the environment`,
        );
      return kept.value;
    },
    s,
  );
  if (raw['disabled'] !== undefined) s.fields.push(['disabled', { flow: raw['disabled'] }]);
  const timeout = raw['timeout'];
  if (timeout !== undefined) {
    if (typeof timeout === 'number' && timeout > 0 && raw['timeouts'] === undefined) {
      s.fields.push(['timeouts', { flow: { call: msDuration(timeout) } }]);
      note('timeout', `${timeout} (milliseconds) became timeouts.call ${msDuration(timeout)}`);
    } else
      note(
        'timeout',
        `not converted: ${shown(timeout)} (expected milliseconds, and no timeouts: of ours beside it)`,
      );
  }
  for (const [key, value] of Object.entries(raw)) {
    if (MAPPED.has(key)) continue;
    if (OURS.has(key)) s.fields.push([key, { flow: value }]);
    else if (key === 'envFile')
      note(key, `not converted: ${shown(value)} (envFile is not supported; list the variables under env)`);
    else note(key, `not converted: ${shown(value)} (not a setting of mcp-supervisor)`);
  }
}

function mapOfStrings(
  raw: Record<string, unknown>,
  key: 'env' | 'headers',
  path: string[],
  e: EntryContext,
  keep: (name: string, value: string) => string,
  s: ConvertedServer,
): void {
  const value = raw[key];
  if (value === undefined) return;
  if (!isRecord(value)) {
    e.fail([...path, key], 'expected a mapping of name to string');
    return;
  }
  const map: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!['string', 'number', 'boolean'].includes(typeof v))
      e.fail([...path, key, name], 'expected a string');
    else map[name] = keep(name, String(v));
  }
  if (Object.keys(map).length > 0) s.fields.push([key, { map }]);
}

/** A value in a note: its JSON, secrets masked, cut short. */
export function shown(value: unknown): string {
  const json = maskInline(JSON.stringify(value) ?? String(value));
  return json.length > 120 ? `${json.slice(0, 119)}…` : json;
}
