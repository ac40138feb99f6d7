// A server is a command to run (on the host, or in a container) or a url to reach, and keys of the one kind mean
// nothing on the other. Checked on the entry as written, so the problem shows beside any other problem of the
// same entry.
import { isRecord } from '../framing/is-record.js';
import { HTTP_TYPES } from './schema.js';

export interface KeyProblem {
  key: string;
  message: string;
}

const COMMAND_ONLY = ['args', 'cwd', 'env', 'inheritEnv'] as const;

/**
 * The problems of a server entry's launch keys (`command`, `url`, `container`, `type`, `headers` and the
 * command-only keys). With a container, `command` may be left to the image and `cwd` is a path inside it.
 */
export function transportProblems(raw: Record<string, unknown>): KeyProblem[] {
  const has = (key: string) => raw[key] !== undefined;
  const http = (HTTP_TYPES as readonly unknown[]).includes(raw['type']);
  const out: KeyProblem[] = [];
  if (!has('url')) {
    if (http) out.push({ key: 'url', message: 'missing (required for type http)' });
    else if (!has('command') && !has('container'))
      out.push({ key: 'command', message: 'missing (required): a command to run, a container, or a url' });
    if (has('headers')) out.push({ key: 'headers', message: 'headers apply only to a url server' });
    const cwd = raw['cwd'];
    if (has('container') && typeof cwd === 'string' && cwd !== '' && !cwd.startsWith('/'))
      out.push({
        key: 'cwd',
        message: `with a container, cwd is the working directory inside it and must be absolute (/srv), not ${JSON.stringify(cwd)}`,
      });
    return out;
  }
  if (has('command')) out.push({ key: 'url', message: 'a server has either a command or a url, not both' });
  if (has('container'))
    out.push({ key: 'container', message: 'a server has either a container or a url, not both' });
  if (raw['type'] === 'stdio') out.push({ key: 'type', message: 'type stdio needs a command, not a url' });
  for (const key of COMMAND_ONLY) {
    if (!isEmpty(raw[key]))
      out.push({ key, message: `${key} applies only to a command server, not to a url server` });
  }
  return out;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isRecord(v) && Object.keys(v).length === 0;
}
