import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliProcess, type cliProcesses, ROOT } from '../cli/helpers.js';

const REVISION_2026 = '2026-07-28';

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
export function serveConformance(
  cli: ReturnType<typeof cliProcesses>,
  dir: string,
  ids: ReadonlyArray<keyof typeof CONFORMANCE_FIXTURES>,
): Promise<{ url: string; serve: CliProcess }> {
  const blocks = ids.map((id) => {
    const args = [CONFORMANCE_FIXTURES[id], `--pid-file=${join(dir, `${id}.pid.json`)}`];
    return serverBlock(id, [
      `command: ${JSON.stringify(process.execPath)}`,
      `args: [${args.map((a) => JSON.stringify(a)).join(', ')}]`,
    ]);
  });
  return serveFleet(cli, dir, blocks);
}

/** The conformance fixtures over Streamable HTTP (`/mcp`: both eras), started by `httpFixtures` of http-fixture.ts. */
export const CONFORMANCE_HTTP = join(ROOT, 'test', 'fixtures', 'conformance-http.mjs');

/**
 * `serve --http` over one server reached over Streamable HTTP (`url:`), as id `conformance`, otherwise as
 * {@link serveConformance}; `protocol` pins the era serve speaks to it (`auto` when absent). Resolves once its fleet
 * has started, with the URL serve printed.
 */
export async function serveUrlConformance(
  cli: ReturnType<typeof cliProcesses>,
  dir: string,
  url: string,
  protocol?: string,
): Promise<string> {
  const how = [`url: ${JSON.stringify(url)}`, ...(protocol ? [`protocol: ${protocol}`] : [])];
  const served = await serveFleet(cli, dir, [serverBlock('conformance', how)]);
  await fleetStarted(served.url, served.serve);
  return served.url;
}

/**
 * Starts the fleet behind `url` with a first request and waits for serve to say it started: a scenario's tool of a
 * server still starting would read as unknown.
 */
export async function fleetStarted(url: string, serve: CliProcess): Promise<void> {
  const listed = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION_2026,
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': REVISION_2026,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  if (listed.status !== 200) throw new Error(`tools/list through serve answered HTTP ${listed.status}`);
  await listed.text();
  await serve.waitFor(/event=log msg=started/, 15_000);
}

function serverBlock(id: string, how: string[]): string {
  return [
    `  ${id}:`,
    ...how.map((line) => `    ${line}`),
    '    namespace: false',
    '    allow: [sampling, elicitation]',
    // The client's roots too: the 2026 suite's input rounds ask for roots/list (docs/security.md).
    '    roots: client',
    '    timeouts: { startup: 10s, call: 10s, shutdown: 2s }',
  ].join('\n');
}

async function serveFleet(
  cli: ReturnType<typeof cliProcesses>,
  dir: string,
  blocks: string[],
): Promise<{ url: string; serve: CliProcess }> {
  const config = join(dir, 'fleet.yaml');
  writeFileSync(config, `servers:\n${blocks.join('\n')}\n`);
  const serve = cli.spawnCli(['serve', config, '--http', '127.0.0.1:0', '--trust-all', '--no-auth']);
  await serve.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/m, 15_000);
  return { url: /^listening on (\S+)$/m.exec(serve.stderr())![1]!, serve };
}
