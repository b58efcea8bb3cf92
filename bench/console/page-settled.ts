import type { Page } from 'playwright-core';

/**
 * Waits until nothing on the page is moving: no CSS transition or animation of finite length is
 * running (an endless one, a spinner, is not waited for), and no visible dialog, menu or list box
 * is partly transparent, itself or through what holds it. The second half covers the frame before
 * a fade begins: Mantine first gives a dialog its transparent starting style, and only on the next
 * frame the transition, so for a moment nothing runs yet. axe measures colour contrast through
 * that transparency, and a picture taken mid-fade shows a faded dialog.
 */
export async function settled(page: Page): Promise<void> {
  // Runs in the page, where the DOM exists; this file is compiled for Node.js, hence `any`.
  await page.waitForFunction(() => {
    const view: any = globalThis;
    const moving = view.document.getAnimations().some((animation: any) => animation.playState === 'running' && Number.isFinite(animation.effect?.getComputedTiming().endTime));
    if (moving) return false;
    for (const popup of view.document.querySelectorAll('[role="dialog"], [role="menu"], [role="listbox"]')) {
      if (popup.getClientRects().length === 0) continue;
      for (let node = popup; node !== null; node = node.parentElement) {
        if (view.getComputedStyle(node).opacity !== '1') return false;
      }
    }
    return true;
  });
}
