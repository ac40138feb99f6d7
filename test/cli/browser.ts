import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; `.ci/run` installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Says loudly, once per file, that a browser test did not run — never a silent skip. */
export function warnIfNoChromium(what: string): void {
  if (hasChromium) return;
  const bar = '#'.repeat(78);
  console.warn(`\n${bar}\n#  BROWSER TEST DID NOT RUN: ${CHROMIUM} does not exist.\n#  ${what}\n${bar}\n`);
}

/**
 * The bound on a test file's Chromium start (its `beforeAll`): the first start reads a few hundred MiB from disk,
 * which on a loaded machine alone took over 20 s.
 */
export const CHROMIUM_START_MS = 60_000;

/** Headless Chromium that makes no requests of its own: a test talks to loopback only. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
