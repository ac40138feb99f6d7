#!/usr/bin/env node
// The `mcp-supervisor` bin: runs the program and ends with its exit code.
import { main } from './program.js';
import { exitSoon } from './shutdown.js';

main(process.argv).then(
  (code) => exitSoon(code),
  () => exitSoon(1),
);
