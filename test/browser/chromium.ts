import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`; `.ci/run` installs it). Never a downloaded build. */
export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Why the browser tests cannot run here, or undefined when they can. With `CI=true` a missing
 * Chromium is a failure (the caller throws this reason), never a skip.
 *
 * @example
 * const missing = chromiumMissing();
 * if (missing && process.env.CI === 'true') throw new Error(missing);
 */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not found (apt-get install -y chromium)`;
}

/**
 * Headless Chromium through playwright-core, with the project's flags.
 *
 * @example
 * const browser = await launchChromium();
 * const page = await browser.newPage();
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}
