// The layout matrix: the screen sizes the layout and clipped-text tests check the page at.

/**
 * Phones upright and sideways, a tablet both ways, the common laptops and desktops, and the
 * two commonest laptops at 200% zoom (1280×800 and 1366×768 halved: the page gets half the CSS
 * pixels, each drawn twice as large).
 */
export const SIZES = [
  [360, 740], [375, 667], [390, 844], [740, 360], [640, 400], [683, 384], [768, 1024], [1024, 768], [1280, 800], [1366, 768], [1440, 900], [1920, 1080],
];

/** The smallest phone in use (an iPhone SE of the first generation). */
export const SMALLEST = [320, 568];

/** Every size the table is laid out for: the smallest phone first, then the common ones. */
export const MATRIX = [SMALLEST, ...SIZES];

/** Resizes the page to `width`×`height` and waits until the layout has settled on it. */
export async function resizeTo(page, width, height) {
  await page.setViewportSize({ width, height });
  // The game fits itself on the resize; wait for the layout to settle on its new height.
  await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  await page.evaluate(() => window.scrollTo(0, 0));
  // A card still flying to the table is measured where it lands.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))));
}
