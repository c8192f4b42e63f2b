/**
 * Clicking the map as a person does: on the visible mark of a place (its dot, port or box),
 * with a mouse on a desktop or a finger on a phone.
 */
import type { Page } from 'playwright-core';

/** The screen centre of a node's visible mark, scrolled into view first. */
export async function markCentre(page: Page, nodeId: string): Promise<{ x: number; y: number }> {
  const mark = page.locator(`g.node[data-node="${nodeId}"] :is(circle.port, circle.sea, rect.box)`);
  await mark.scrollIntoViewIfNeeded();
  const box = (await mark.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Click (mouse) or tap (touch) the centre of a node's visible mark. */
export async function clickMark(page: Page, nodeId: string, how: 'mouse' | 'touch' = 'mouse'): Promise<void> {
  const c = await markCentre(page, nodeId);
  if (how === 'touch') await page.touchscreen.tap(c.x, c.y);
  else await page.mouse.click(c.x, c.y);
}

/** The screen centre of a place's mark in the Lesser Antilles inset, scrolled into view first. */
export async function insetMarkCentre(page: Page, nodeId: string): Promise<{ x: number; y: number }> {
  const mark = page.locator(`g.inset-node[data-inset-node="${nodeId}"] :is(circle.port, circle.sea)`);
  await mark.scrollIntoViewIfNeeded();
  const box = (await mark.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
