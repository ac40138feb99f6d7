// A tiny MCP server over stdio (newline-delimited JSON-RPC 2.0) for the demo servers: no dependencies, no network.
// Each demo passes its tools; this module answers initialize, ping, tools/list and tools/call, and exits when stdin ends.

const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

/** Human lines go to stderr: stdout is the protocol. */
export function log(name, message) {
  process.stderr.write(`${name}[${process.pid}]: ${message}\n`);
}

/** A flag value from argv: `--name V` or `--name=V`, else the fallback. */
export function flag(name, fallback) {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1] ?? fallback;
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
  }
  return fallback;
}

/**
 * Serves `tools` ({ name: { description, inputSchema, run(args) } }, `run` returning a string or
 * { text, isError }) under `name`. `startDelayMs` postpones reading stdin (a slow start); `onReady` runs after
 * `notifications/initialized`.
 */
export function serveMcp({ name, version = '1.0.0', tools, startDelayMs = 0, onReady }) {
  const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const reply = (id, result) => send({ jsonrpc: '2.0', id, result });
  const fail = (id, code, message) => send({ jsonrpc: '2.0', id, error: { code, message } });

  const handle = async (msg) => {
    const { id, method, params } = msg;
    const isRequest = id !== undefined && id !== null;
    if (method === 'notifications/initialized') return onReady?.();
    if (!isRequest) return;
    if (method === 'initialize') {
      const asked = params?.protocolVersion;
      return reply(id, {
        protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS.at(-1),
        capabilities: { tools: {} },
        serverInfo: { name, version },
      });
    }
    if (method === 'ping') return reply(id, {});
    if (method === 'tools/list') {
      return reply(id, {
        tools: Object.entries(tools).map(([toolName, t]) => ({
          name: toolName,
          description: t.description,
          inputSchema: t.inputSchema ?? { type: 'object', properties: {} },
        })),
      });
    }
    if (method === 'tools/call') {
      const tool = tools[params?.name];
      if (!tool) return fail(id, -32602, `unknown tool: ${params?.name}`);
      try {
        const out = await tool.run(params.arguments ?? {});
        const { text, isError } = typeof out === 'string' ? { text: out, isError: false } : out;
        return reply(id, { content: [{ type: 'text', text }], isError: Boolean(isError) });
      } catch (err) {
        return reply(id, { content: [{ type: 'text', text: String(err?.message ?? err) }], isError: true });
      }
    }
    return fail(id, -32601, `method not found: ${method}`);
  };

  const start = () => {
    let carry = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => {
      carry += chunk;
      let nl = carry.indexOf('\n');
      while (nl >= 0) {
        const line = carry.slice(0, nl).trim();
        carry = carry.slice(nl + 1);
        if (line) {
          let msg;
          try {
            msg = JSON.parse(line);
          } catch {
            send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
          }
          if (msg) void handle(msg);
        }
        nl = carry.indexOf('\n');
      }
    });
    process.stdin.on('end', () => {
      log(name, 'stdin closed, exiting');
      process.exit(0);
    });
  };
  log(name, startDelayMs > 0 ? `warming up for ${startDelayMs} ms` : 'up');
  if (startDelayMs > 0) setTimeout(start, startDelayMs);
  else start();
}
