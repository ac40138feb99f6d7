// Server ids. Our own `servers:` keys must already be ids; keys of a Claude Desktop / VS Code file (`GitHub`,
// `my.server`) are turned into ids, since those files are shared with other programs and cannot be renamed
// for us.
import { isValidServerId } from '../registry/naming.js';

/** One key of the servers mapping, and whether it comes from a foreign (Claude Desktop / VS Code) file. */
export interface ServerKey {
  key: string;
  foreign: boolean;
}

/** The id each key gets (`undefined` when it cannot have one), and the problems, by key index. */
export interface IdAssignment {
  ids: (string | undefined)[];
  problems: { index: number; message: string }[];
}

const ID_HELP = 'expected [a-z][a-z0-9_-]* (lower-case letters, digits, _ and -, starting with a letter)';

/**
 * `GitHub` → `github`, `my.server` → `my-server`, `My Server (beta)` → `my-server-beta`: lower-cased, every other
 * character mapped to `-`, runs of `-` collapsed and trimmed, `mcp-` put in front of a leading digit or `_`.
 * `undefined` when nothing usable is left.
 */
export function foreignServerId(key: string): string | undefined {
  const mapped = key
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
  if (mapped === '') return undefined;
  return /^[a-z]/.test(mapped) ? mapped : `mcp-${mapped}`;
}

/** Gives every key its id, checking the id rule, uniqueness, and that ids split back under `separator`. */
export function assignServerIds(keys: readonly ServerKey[], separator: string): IdAssignment {
  const ids: (string | undefined)[] = [];
  const problems: IdAssignment['problems'] = [];
  const owner = new Map<string, string>();
  keys.forEach(({ key, foreign }, index) => {
    let id: string | undefined = key;
    if (!isValidServerId(key)) {
      id = foreign ? foreignServerId(key) : undefined;
      if (id === undefined) {
        problems.push({ index, message: `invalid server id ${JSON.stringify(key)}: ${ID_HELP}` });
        ids.push(undefined);
        return;
      }
    }
    const taken = owner.get(id);
    if (taken !== undefined) {
      const from = id === key ? '' : ` (made from ${JSON.stringify(key)})`;
      problems.push({
        index,
        message: `server id ${JSON.stringify(id)}${from} is already used by ${JSON.stringify(taken)}; rename one of them`,
      });
      ids.push(undefined);
      return;
    }
    if (separator === '__' && (id.includes('__') || id.endsWith('_'))) {
      problems.push({
        index,
        message: `server id ${JSON.stringify(id)} cannot be used with separator "__": it contains "__" or ends in "_", so its tool names would not split back`,
      });
      ids.push(undefined);
      return;
    }
    owner.set(id, key);
    ids.push(id);
  });
  return { ids, problems };
}
