/**
 * Debian's Chromium for the browser tests (never a downloaded browser): where it is, why a
 * test is skipped without it, and one launch with the same flags for every test.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const noChromium = !existsSync(CHROMIUM);
export const why = `browser tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
