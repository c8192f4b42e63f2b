/**
 * Debian's Chromium for the browser tests (never a downloaded browser): where it is, why a
 * test is skipped without it, and one launch with the same flags for every test.
 *
 * One Chromium per test process: test files that share their worker's modules (vitest.config.ts)
 * share its browser too, each in contexts of its own (a context is a fresh profile: its own
 * cookies, storage and cache), instead of launching one each (2-3 s apiece on a loaded 2-core
 * machine). A file's `close()` closes its own contexts; the browser ends with the process
 * (Playwright's exit handlers, and Chromium's pipe to the process closing).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const noChromium = !existsSync(CHROMIUM);
export const why = `browser tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`;

let shared: Promise<Browser> | null = null;

function sharedChromium(): Promise<Browser> {
  if (!shared) {
    shared = chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const launched = shared;
    // A browser that crashed or was closed is launched again for the next file.
    launched.then((b) => b.on('disconnected', () => { if (shared === launched) shared = null; }), () => { if (shared === launched) shared = null; });
  }
  return shared;
}

/**
 * The process's Chromium as one test file sees it: its `newContext` and `newPage` open
 * contexts of this file's own, and its `close()` closes them, not the browser.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await sharedChromium();
  const mine = new Set<BrowserContext>();
  const keep = (context: BrowserContext) => { mine.add(context); context.once('close', () => mine.delete(context)); return context; };
  return new Proxy(browser, {
    get(target, key, receiver) {
      if (key === 'newContext') return async (...args: Parameters<Browser['newContext']>) => keep(await target.newContext(...args));
      if (key === 'newPage') {
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          keep(page.context());
          return page;
        };
      }
      if (key === 'close') return async () => { await Promise.all([...mine].map((c) => c.close())); };
      if (key === 'contexts') return () => [...mine];
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
