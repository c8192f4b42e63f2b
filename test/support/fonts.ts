/**
 * Layout tests measure text in the fonts the project installs: DejaVu (Debian's
 * fonts-dejavu-core, which .ci/run installs beside chromium). Every stylesheet asks for
 * Georgia first and DejaVu second, so on a machine without Georgia the measured font is
 * known. `renderedFonts` asks Chromium (over the DevTools protocol) which font files it
 * really drew an element's text with, so a test can say so instead of passing by luck.
 */
import type { Page } from 'playwright-core';

/** The font the layout tests are written against, and where it comes from. */
export const LAYOUT_SERIF = 'DejaVu Serif';
export const LAYOUT_FONTS_PACKAGE = 'fonts-dejavu-core';

/** The family names Chromium drew the first element matching `selector` with. */
export async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    if (!nodeId) throw new Error(`no element matches ${selector}`);
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((f) => f.familyName);
  } finally {
    await cdp.detach();
  }
}
