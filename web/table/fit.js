// @ts-check
// Fits the game to the screen: the felt and the hand take exactly the height left below the
// head of the page, so the whole hand, the trick, whose turn it is and the buttons are all on
// one screen without scrolling (the felt shrinks; the style sheet sizes cards from it).
//
// Owns: the `--game-h` style property of the game's element. May not touch: anything else.

/** The least height the game is given, however little the screen leaves it (px). */
const MIN_HEIGHT = 260;

/**
 * Keeps `--game-h` on `el` current as the window or what sits above the game changes size.
 * @param {HTMLElement} el the game's element
 */
export function fitToScreen(el) {
  const fit = () => {
    if (!el.isConnected) return;
    const top = el.getBoundingClientRect().top + window.scrollY;
    const main = /** @type {HTMLElement | null} */ (el.closest('main'));
    const below = main ? parseFloat(getComputedStyle(main).paddingBottom) || 0 : 0;
    const height = Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - below));
    const value = `${height}px`;
    if (el.style.getPropertyValue('--game-h') !== value) el.style.setProperty('--game-h', value);
  };
  window.addEventListener('resize', fit);
  // From a redraw, once a frame at most, just before it is painted: reading the layout in the
  // middle of a message's redraws would lay the page out once per message.
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fit();
    });
  };
}
