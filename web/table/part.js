// @ts-check
// A piece of the page that keeps its own element and draws again only when what it shows changed.
//
// Owns: the comparison of a part's inputs with the last ones. May not touch: the state (parts
// read it and call actions; they never change it themselves).

/**
 * @template S
 * @typedef {object} Part
 * @property {HTMLElement} el the part's element, the same for the page's lifetime
 * @property {(state: S) => void} update draws again if the inputs changed
 */

/**
 * Makes a part: `inputs(state)` lists what it shows (compared one by one with `===`), and
 * `draw(el, state)` fills `el` from the state.
 * @template S
 * @param {HTMLElement} el
 * @param {(state: S) => unknown[]} inputs
 * @param {(el: HTMLElement, state: S) => void} draw
 * @returns {Part<S>}
 */
export function part(el, inputs, draw) {
  /** @type {unknown[] | null} */
  let last = null;
  return {
    el,
    update(state) {
      const now = inputs(state);
      if (last && now.length === last.length && now.every((x, i) => x === /** @type {unknown[]} */ (last)[i])) return;
      last = now;
      draw(el, state);
    },
  };
}

/** Sets an attribute, or removes it for `null`. @param {Element} el @param {string} name @param {string | null} value */
export function setOrRemove(el, name, value) {
  if (value === null) el.removeAttribute(name);
  else el.setAttribute(name, value);
}
