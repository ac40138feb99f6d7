// Entry of one memory measurement in a fresh process: `memory-child.ts <ours|bypass|sdk> <n>` prints one JSON line.
import { removeTrustStore } from './fixture-fleet.js';
import { type MemoryKind, memoryDelta } from './memory-per-server.js';

const kind = process.argv[2] as MemoryKind;
const n = Number(process.argv[3]);
try {
  console.log(JSON.stringify(await memoryDelta(kind, n)));
} finally {
  removeTrustStore();
}
