import type { ApprovalRequest } from '../supervisor/types.js';

/** Asks a person; resolves their yes/no. */
export type AskFn = (request: ApprovalRequest) => Promise<boolean>;

export interface ApprovalPolicy {
  /** `--trust-all`: every request is approved (and stored, so later runs know the fingerprint). */
  trustAll: boolean;
  /** `--trust <id>`: requests of these servers are approved. */
  trustIds: readonly string[];
  /** On a terminal: ask the person; absent means refuse (no TTY). */
  ask?: AskFn | undefined;
  /** Told about each refusal, with the flag that would have allowed it. */
  onRefuse?: (request: ApprovalRequest, hint: string) => void;
}

/**
 * The supervisor's `approve` option for the CLI: the flags first, then a prompt on a terminal, else refusal.
 * Prompts are asked one at a time even when several servers start at once.
 */
export function createApprove(policy: ApprovalPolicy): (request: ApprovalRequest) => Promise<boolean> {
  const trusted = new Set(policy.trustIds);
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    if (policy.trustAll || trusted.has(request.server)) return Promise.resolve(true);
    const ask = policy.ask;
    if (!ask) {
      const what = request.kind === 'tools' ? 'changed tools' : 'command line';
      policy.onRefuse?.(
        request,
        `${what} of server '${request.server}' not trusted; pass --trust ${request.server} or --trust-all`,
      );
      return Promise.resolve(false);
    }
    const answer = queue.then(() => ask(request));
    queue = answer.catch(() => false);
    return answer.catch(() => false);
  };
}

/** The command line as a person would type it: args with spaces or quotes are quoted. */
export function displayCommand(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

/** The text shown before the question: what would run, where, with which environment, and what changed. */
export function describeRequest(request: ApprovalRequest): string[] {
  const title =
    request.kind === 'tools'
      ? `Server '${request.server}' changed its tool definitions.`
      : `Server '${request.server}' is not trusted yet.`;
  const lines = [title];
  if (request.url !== undefined) {
    const headers = Object.entries(request.headers ?? {});
    lines.push(`  url          ${request.url}`);
    lines.push(
      `  headers      ${headers.length ? headers.map(([k, v]) => `${k}: ${v}`).join('; ') : '(none)'}`,
    );
  } else if (request.container !== undefined) {
    lines.push(...containerLines(request));
    const env = Object.entries(request.env);
    lines.push(`  env          ${env.length ? env.map(([k, v]) => `${k}=${v}`).join(' ') : '(none)'}`);
  } else {
    lines.push(
      `  command      ${displayCommand(request.command, request.args)}`,
      `  executable   ${request.executable ?? '(not found on PATH)'}`,
      `  cwd          ${request.cwd}`,
    );
    const env = Object.entries(request.env);
    lines.push(`  env          ${env.length ? env.map(([k, v]) => `${k}=${v}`).join(' ') : '(none)'}`);
  }
  if (request.changes.length) lines.push(`  changes      ${request.changes.join('; ')}`);
  if (request.tools?.length) lines.push(`  tools        ${request.tools.join(', ')}`);
  lines.push(`  fingerprint  ${request.fingerprint}`);
  return lines;
}

/** What a container launch is: the image by id, the engine, the command inside and every setting. */
function containerLines(request: ApprovalRequest): string[] {
  const c = request.container;
  if (!c) return [];
  const limits = [
    c.memoryBytes !== undefined ? `memory ${c.memoryBytes} bytes` : 'memory unlimited',
    c.cpus !== undefined ? `cpus ${c.cpus}` : 'cpus unlimited',
    c.pids !== undefined ? `pids ${c.pids}` : 'pids default',
  ];
  const mounts = c.mounts.map((m) => `${m.source}:${m.target}${m.readOnly ? ':ro' : ''}`);
  return [
    `  image        ${c.image} (${c.imageId})`,
    `  engine       ${c.engine}`,
    `  command      ${request.command || request.args.length ? displayCommand(request.command, request.args) : "(the image's)"}`,
    `  cwd          ${c.workdir ?? "(the image's)"}`,
    `  network      ${c.network}${c.readOnly ? ', read-only root' : ', writable root'}${c.user ? `, user ${c.user}` : ''}`,
    `  limits       ${limits.join(', ')}`,
    `  mounts       ${mounts.length ? mounts.join(' ') : '(none)'}`,
  ];
}
