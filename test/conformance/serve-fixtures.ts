import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliProcess, type cliProcesses, ROOT } from '../cli/helpers.js';

/** The stdio conformance fixtures, by their id in the fleet. */
export const CONFORMANCE_FIXTURES = {
  conformance: join(ROOT, 'test', 'fixtures', 'conformance-server.mjs'),
  /** 2026-only: the input-required scenarios' tools and prompt, their names apart from the first's. */
  modern: join(ROOT, 'test', 'fixtures', 'conformance-modern.mjs'),
  /** 2026 only: a 2025 server whose tools run as tasks, which serve offers as the tasks extension. */
  tasks: join(ROOT, 'test', 'fixtures', 'tasks-server.mjs'),
  /** 2026 only: a 2026 server with the tasks extension of its own (an input round, then a task). */
  tasks26: join(ROOT, 'test', 'fixtures', 'tasks-modern-server.mjs'),
} as const;

/**
 * `serve --http` over these stdio fixtures, their names unchanged and their sampling and elicitation passed on to
 * the suite's client; each writes its pid file into `dir`. Resolves with the URL serve printed, and serve.
 */
export async function serveConformance(
  cli: ReturnType<typeof cliProcesses>,
  dir: string,
  ids: ReadonlyArray<keyof typeof CONFORMANCE_FIXTURES>,
): Promise<{ url: string; serve: CliProcess }> {
  const blocks = ids.map((id) => {
    const args = [CONFORMANCE_FIXTURES[id], `--pid-file=${join(dir, `${id}.pid.json`)}`];
    return [
      `  ${id}:`,
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${args.map((a) => JSON.stringify(a)).join(', ')}]`,
      '    namespace: false',
      '    allow: [sampling, elicitation]',
      // The client's roots too: the 2026 suite's input rounds ask for roots/list (docs/security.md).
      '    roots: client',
      '    timeouts: { startup: 10s, call: 10s, shutdown: 2s }',
    ].join('\n');
  });
  const config = join(dir, 'fleet.yaml');
  writeFileSync(config, `servers:\n${blocks.join('\n')}\n`);
  const serve = cli.spawnCli(['serve', config, '--http', '127.0.0.1:0', '--trust-all', '--no-auth']);
  await serve.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/m, 15_000);
  return { url: /^listening on (\S+)$/m.exec(serve.stderr())![1]!, serve };
}
