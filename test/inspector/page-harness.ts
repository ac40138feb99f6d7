import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { UiServer } from '../../src/inspector/ui-server.js';
import { CHROMIUM_START_MS, launchChromium } from '../cli/browser.js';

export interface PageHarness {
  /** The block's one Chromium, started before its first test. */
  readonly browser: Browser;
  /** A test sets these; each is closed and cleared after the test. A test that closes one itself clears it. */
  page: Page | undefined;
  ui: UiServer | undefined;
}

/**
 * Call inside a browser test's `describe` block: one Chromium for the block, and after every test, passed or
 * failed, its page and inspector server closed, then `afterEachTest` for whatever else the test opened.
 */
export function usePageHarness(afterEachTest?: () => Promise<void> | void): PageHarness {
  let browser: Browser | undefined;
  const harness: PageHarness = {
    get browser(): Browser {
      if (!browser) throw new Error('Chromium did not start (see the beforeAll hook)');
      return browser;
    },
    page: undefined,
    ui: undefined,
  };

  beforeAll(async () => {
    browser = await launchChromium();
  }, CHROMIUM_START_MS);
  afterEach(async () => {
    const { page, ui } = harness;
    // Cleared first, and each close runs even if the one before it threw, so no test inherits another's leftovers.
    harness.page = undefined;
    harness.ui = undefined;
    try {
      await page?.close();
    } finally {
      try {
        await ui?.close();
      } finally {
        await afterEachTest?.();
      }
    }
  });
  afterAll(async () => {
    await browser?.close();
  });
  return harness;
}
