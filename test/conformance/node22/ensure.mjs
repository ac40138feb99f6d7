// Installs this folder's Node 22 (the conformance suite's alone) before the project's own tests, unless the
// package for this platform is already there at the version the lock names. It runs from `npm test` (pretest),
// never from an install of the package: someone installing mcp-supervisor needs no Node 22.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const lock = JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8'));

/** An optional package whose os/cpu rule out this machine is one npm ci skips too. */
function forThisMachine(entry) {
  // The lock keeps os and cpu as the package wrote them: a string or a list, `!name` excluding one.
  const fits = (rule, value) => {
    if (rule === undefined) return true;
    const list = [rule].flat();
    if (list.includes(`!${value}`)) return false;
    return list.some((r) => !r.startsWith('!')) ? list.includes(value) : true;
  };
  return fits(entry.os, process.platform) && fits(entry.cpu, process.arch);
}

function installedVersion(path) {
  try {
    return JSON.parse(readFileSync(join(here, path, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

const missing = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && forThisMachine(entry))
  .filter(([path, entry]) => installedVersion(path) !== entry.version)
  .map(([path]) => path);

if (missing.length > 0) {
  console.error(`test/conformance/node22: installing ${missing.join(', ')}`);
  const npm = process.env.npm_execpath;
  const argv = ['ci', '--prefix', here, '--no-audit', '--no-fund'];
  // Under `npm run`, npm_execpath is the npm that runs us; otherwise the one on PATH.
  const run = npm
    ? spawnSync(process.execPath, [npm, ...argv], { stdio: 'inherit' })
    : spawnSync('npm', argv, { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`test/conformance/node22: npm ci failed (${run.error?.message ?? `exit ${run.status}`})`);
    process.exit(1);
  }
}
