#!/usr/bin/env node
// The client under test for the official conformance suite's client scenarios: a host embedding the built
// package with one `url:` server — the URL the suite appends as the last argument — that starts the supervisor,
// lists the tools and calls the one the scenario (named in MCP_CONFORMANCE_SCENARIO) expects, then stops.
// Exit 0 when the call came back as the scenario's server meant it; 1 (with the reason on stderr) otherwise.
import { createSupervisor, parseConfig } from '../../dist/index.js';

/** What each scenario's test server expects to be called, and with what. */
const CALLS = {
  initialize: null,
  tools_call: { tool: 'add_numbers', args: { a: 5, b: 3 } },
  'sse-retry': { tool: 'test_reconnection', args: {} },
  'elicitation-sep1034-client-defaults': { tool: 'test_client_elicitation_defaults', args: {} },
};

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const fail = (why) => {
  process.stderr.write(`conformance client: ${why}\n`);
  process.exitCode = 1;
};

if (!url?.startsWith('http') || !(scenario in CALLS)) {
  fail(`usage: MCP_CONFORMANCE_SCENARIO=<${Object.keys(CALLS).join('|')}> client-command.mjs <url>`);
} else {
  const config = parseConfig(
    [
      'servers:',
      '  peer:',
      `    url: ${JSON.stringify(url)}`,
      '    namespace: false',
      '    allow: [elicitation]',
      '    timeouts: { startup: 10s, call: 10s, shutdown: 2s }',
      // One connection per run: a failure is reported, not retried until the suite's timeout.
      '    restart: { policy: never }',
    ].join('\n'),
    { source: 'conformance-client.yaml' },
  );
  const sup = createSupervisor(config, {
    // The suite's own test server, on loopback, started for this run: nothing to approve.
    gate: async () => ({ ok: true }),
    // The host's answer to a form: accepted with nothing filled in, so what the form's defaults
    // become is the library's doing, not this host's.
    onElicitation: async () => ({ action: 'accept', content: {} }),
  });
  try {
    await sup.start();
    const [status] = sup.status();
    if (status?.state !== 'ready') {
      fail(
        `server ${status?.id} is ${status?.state}${status?.lastExit ? ` (${JSON.stringify(status.lastExit)})` : ''}`,
      );
    } else {
      const names = sup.listTools().map((t) => t.name);
      process.stdout.write(`tools: ${names.join(', ')}\n`);
      const call = CALLS[scenario];
      if (call) {
        const out = await sup.callToolOutcome(call.tool, call.args, { timeoutMs: 10_000 });
        if (out.ok) process.stdout.write(`${call.tool}: ${out.text}\n`);
        else fail(`${call.tool}: ${out.code}: ${out.message}`);
      }
    }
  } finally {
    await sup.stop();
  }
}
