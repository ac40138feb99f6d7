import { describeChanges } from './changes.js';
import type { ContainerFacts, FingerprintFacts } from './fingerprint.js';
import { MASK, maskArgs, maskEnv, maskHeaders, maskInline } from './mask.js';
import type { TrustRecord } from './store-file.js';

/** What `approve` is asked: one launch, or one server's changed tools, with what changed and secrets masked. */
export interface ApprovalRequest {
  kind: 'server' | 'tools';
  server: string;
  fingerprint: string;
  command: string;
  /** What `command` resolves to on disk (symlinks followed), null when it could not be found. */
  executable: string | null;
  args: string[];
  cwd: string;
  /** Env names with values masked where they look secret. */
  env: Record<string, string>;
  changes: string[];
  tools?: string[];
  /** A url server's URL (secrets in it masked); `command` is then empty. */
  url?: string;
  /** A url server's header names with values masked (a bare `${VAR}` reference shows as written). */
  headers?: Record<string, string>;
  /** A container server's image (with its id), engine and settings: what would run, and where. */
  container?: ContainerFacts;
}

/**
 * Builds what `approve` is shown. `env` is the server's real env (the values `computeFingerprint` was given):
 * it is masked here, and only masked values leave; without it every value shows as `***`. `changes` lists
 * what differs from `previous` (`first approval` when there is none); for `kind: 'tools'` it also names each
 * held tool as `tool NAME changed` (it was pinned) or `tool NAME added`.
 */
export function buildApprovalRequest(
  kind: ApprovalRequest['kind'],
  serverId: string,
  facts: FingerprintFacts,
  fingerprint: string,
  previous?: TrustRecord,
  tools?: readonly string[],
  env?: Readonly<Record<string, string>>,
): ApprovalRequest {
  const shownEnv: Record<string, string> = {};
  if (env !== undefined) Object.assign(shownEnv, maskEnv(env));
  else for (const name of Object.keys(facts.env).sort()) shownEnv[name] = MASK;
  const serverLines =
    kind === 'server' || previous === undefined || previous.fingerprint !== fingerprint
      ? describeChanges(previous?.facts, facts)
      : [];
  if (serverLines.length === 0 && previous !== undefined && previous.fingerprint !== fingerprint) {
    serverLines.push('fingerprint changed');
  }
  const toolLines =
    kind === 'tools'
      ? (tools ?? []).map((t) => `tool ${t} ${Object.hasOwn(previous?.tools ?? {}, t) ? 'changed' : 'added'}`)
      : [];
  const request: ApprovalRequest = {
    kind,
    server: serverId,
    fingerprint,
    command: facts.command,
    executable: facts.executable,
    args: maskArgs(facts.args),
    cwd: facts.cwd,
    env: shownEnv,
    changes: [...serverLines, ...toolLines],
  };
  if (tools !== undefined) request.tools = [...tools];
  if (facts.remote) {
    request.url = maskInline(facts.remote.url);
    request.headers = facts.remote.headersAsWritten
      ? maskHeaders(facts.remote.headersAsWritten)
      : Object.fromEntries(Object.keys(facts.remote.headers).map((name) => [name, MASK]));
  }
  if (facts.container) request.container = { ...facts.container };
  return request;
}
