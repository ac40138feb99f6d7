// Another MCP client's file (Claude Desktop, Cursor, VS Code) as our config: what maps is mapped, what does not
// becomes a note — a comment in the output and a located warning — so nothing is lost without a word.
import { basename, dirname, resolve } from 'node:path';
import { ConfigError } from '../../config/config-error.js';
import { foreignServerId } from '../../config/server-ids.js';
import { isRecord } from '../../framing/is-record.js';
import { dotted, type LocatedDocument, type LocatedProblem } from '../../registry/located-yaml.js';
import { isValidServerId } from '../../registry/naming.js';
import type { Conversion, ConvertedServer } from './conversion.js';
import { convertEntry, shown } from './entry.js';
import { envNameFor, type InputInfo, type VariableContext } from './variables.js';

/**
 * Converts a parsed client file. `outDir` is where the output goes (relative `cwd`s are rewritten for it). Throws
 * a ConfigError locating what makes the file no client config at all (no servers, an entry that is not a map…).
 */
export function convertClientConfig(doc: LocatedDocument, source: string, outDir: string): Conversion {
  const problems: LocatedProblem[] = [];
  const fail = (path: (string | number)[], message: string) =>
    problems.push({ source, ...doc.locate(path), path: dotted(path), message });
  const top = doc.value;
  if (!isRecord(top)) {
    fail([], 'expected a JSON object with "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code)');
    throw new ConfigError(problems);
  }
  const container = 'mcpServers' in top ? 'mcpServers' : 'servers' in top ? 'servers' : undefined;
  if (container === undefined) {
    fail([], 'no servers: expected "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code)');
    throw new ConfigError(problems);
  }
  const entries = top[container];
  if (!isRecord(entries) || Object.keys(entries).length === 0) {
    fail([container], 'expected a mapping of server name to server, with at least one server');
    throw new ConfigError(problems);
  }

  const out: Conversion = {
    format: container === 'mcpServers' ? 'Claude Desktop / Cursor' : 'VS Code',
    sections: [],
    servers: [],
    notes: [],
    warnings: [],
  };
  // A server's comment names the field within the server; the warning, the whole path.
  const warn = (notes: string[], path: (string | number)[], message: string) => {
    notes.push(`${dotted(path[0] === container ? path.slice(2) : path) || 'this server'}: ${message}`);
    out.warnings.push({ source, ...doc.locate(path), path: dotted(path), message });
  };
  const inputs = readInputs(top['inputs']);
  const ctx: VariableContext = { workspace: workspaceOf(source), inputs };
  for (const [key, value] of Object.entries(top)) {
    if (key === container) continue;
    if (key === 'supervisor' || key === 'serve') out.sections.push([key, value]);
    else if (key === 'inputs') {
      for (const [id, info] of inputs) {
        const what = `VS Code input "${id}"${info.password ? ' (a password)' : ''}`;
        warn(
          out.notes,
          ['inputs'],
          `${what} is not asked for here: where it was used, \${${envNameFor(id)}} is read from the environment`,
        );
      }
    } else warn(out.notes, [key], `not converted: ${shown(value)} (not a setting of the servers)`);
  }

  const taken = new Set<string>();
  for (const [name, raw] of Object.entries(entries)) {
    const path = [container, name];
    if (!isRecord(raw)) {
      fail(path, 'expected a mapping with a command or a url');
      continue;
    }
    const server: ConvertedServer = { id: uniqueId(name, taken), fields: [], notes: [] };
    if (server.id !== name) server.notes.push(`from "${name}"`);
    convertEntry(raw, path, server, { ctx, outDir, fail, warn });
    out.servers.push(server);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  // A file whose every server is left out would make a config with none: its reasons are the error.
  if (out.servers.every((s) => s.off !== undefined))
    throw new ConfigError(out.warnings.filter((w) => / server not converted: /.test(` ${w.message}`)));
  return out;
}

/** A server id for a client's name, unique in the file: `GitHub` → `github`, a second `github` → `github-2`. */
function uniqueId(name: string, taken: Set<string>): string {
  const stem = isValidServerId(name) ? name : (foreignServerId(name) ?? 'server');
  let id = stem;
  for (let n = 2; taken.has(id); n++) id = `${stem}-${n}`;
  taken.add(id);
  return id;
}

/** The folder a client file belongs to: the project of `.vscode/mcp.json` or `.cursor/mcp.json`, else its own. */
function workspaceOf(source: string): string {
  const dir = dirname(resolve(source));
  return ['.vscode', '.cursor'].includes(basename(dir)) ? dirname(dir) : dir;
}

function readInputs(value: unknown): Map<string, InputInfo> {
  const inputs = new Map<string, InputInfo>();
  if (!Array.isArray(value)) return inputs;
  for (const item of value) {
    if (!isRecord(item) || typeof item['id'] !== 'string') continue;
    const info: InputInfo = {};
    if (typeof item['description'] === 'string') info.description = item['description'];
    if (item['password'] === true) info.password = true;
    inputs.set(item['id'], info);
  }
  return inputs;
}
