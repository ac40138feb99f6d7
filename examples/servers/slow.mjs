// Demo server `slow`: takes ~1.5 s to start, and has a `sleep` tool.
import { flag, serveMcp } from './mini-mcp.mjs';

serveMcp({
  name: 'slow',
  startDelayMs: Number(flag('start-ms', '1500')),
  tools: {
    sleep: {
      description: 'Wait `ms` milliseconds (default 1000, at most 60000), then answer.',
      inputSchema: { type: 'object', properties: { ms: { type: 'number', minimum: 0, maximum: 60000 } } },
      run: async ({ ms }) => {
        const wait = Math.min(60_000, Math.max(0, Number(ms ?? 1000) || 0));
        await new Promise((resolve) => setTimeout(resolve, wait));
        return `slept ${wait} ms`;
      },
    },
  },
});
