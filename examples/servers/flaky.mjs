// Demo server `flaky`: crashes (exit 1) at a random moment 5-15 s after it is ready, or at once on `crash`.
import { flag, log, serveMcp } from './mini-mcp.mjs';

const minMs = Number(flag('min-ms', '5000'));
const maxMs = Number(flag('max-ms', '15000'));
const startedAt = Date.now();

serveMcp({
  name: 'flaky',
  tools: {
    status: {
      description: 'How long this process has been up.',
      run: () => `up ${((Date.now() - startedAt) / 1000).toFixed(1)} s, pid ${process.pid}`,
    },
    crash: {
      description: 'Exit with code 1 right now (the supervisor restarts it).',
      run: () => {
        log('flaky', 'crash requested');
        process.exit(1);
      },
    },
  },
  onReady: () => {
    const ms = minMs + Math.random() * Math.max(0, maxMs - minMs);
    log('flaky', `will crash in ${(ms / 1000).toFixed(1)} s`);
    setTimeout(() => {
      log('flaky', 'crashing now');
      process.exit(1);
    }, ms).unref();
  },
});
