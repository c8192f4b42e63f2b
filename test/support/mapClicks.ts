/**
 * Clicking the map as a person does: on the visible mark of a place (its dot, port or box),
 * with a mouse on a desktop or a finger on a phone.
 */
import type { Page } from 'playwright-core';

/** The screen centre of a node's visible mark, scrolled into view first. */
export async function markCentre(page: Page, nodeId: string): Promise<{ x: number; y: number }> {
  return centreOf(page, `g.node[data-node="${nodeId}"] :is(circle.port, circle.sea, rect.box)`);
}

/** In one round trip to the page: scroll the element into view if it is not, and give its centre. */
function centreOf(page: Page, selector: string): Promise<{ x: number; y: number }> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) throw new Error(`no element ${sel}`);
    let r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
      el.scrollIntoView({ block: 'center', inline: 'center' });
      r = el.getBoundingClientRect();
    }
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }, selector);
}

/** Click (mouse) or tap (touch) the centre of a node's visible mark. */
export async function clickMark(page: Page, nodeId: string, how: 'mouse' | 'touch' = 'mouse'): Promise<void> {
  const c = await markCentre(page, nodeId);
  if (how === 'touch') await page.touchscreen.tap(c.x, c.y);
  else await page.mouse.click(c.x, c.y);
}

/** The screen centre of a place's mark in the Lesser Antilles inset, scrolled into view first. */
export async function insetMarkCentre(page: Page, nodeId: string): Promise<{ x: number; y: number }> {
  return centreOf(page, `g.inset-node[data-inset-node="${nodeId}"] :is(circle.port, circle.sea)`);
}
