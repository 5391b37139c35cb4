// @ts-check
// A tiny helper to build DOM nodes without a framework.

/**
 * Creates an element: `h('button', { class: 'x', onclick: fn, 'aria-label': 'y' }, 'text', child)`.
 * Attributes whose value is `false`, `null` or `undefined` are left out; `true` sets an empty one.
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'value') {
      /** @type {HTMLInputElement} */ (el).value = value;
    } else if (key === 'checked') {
      /** @type {HTMLInputElement} */ (el).checked = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** @param {Element} el @param {any[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/**
 * Runs `draw`, which redraws `el`, and keeps the keyboard focus on the element with the same
 * `data-focus` key (or, when that is gone, a card played, on its neighbour). The key is read
 * before anything moves: moving a focused button, even into a new parent, drops the focus.
 * @param {Element} el
 * @param {() => void} draw
 */
export function keepFocus(el, draw) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const key = active && el.contains(active) ? active.dataset.focus : undefined;
  const index = key && active ? [...el.querySelectorAll('[data-focus]')].indexOf(active) : -1;
  draw();
  if (!key || (document.activeElement && document.activeElement !== document.body && el.contains(document.activeElement))) return;
  const same = /** @type {HTMLElement | null} */ (el.querySelector(`[data-focus="${CSS.escape(key)}"]`));
  // Without scrolling: the element is where the focus was, and a scroll into view would lay
  // the page out at once, on every redraw.
  if (same) same.focus({ preventScroll: true });
  if (same && document.activeElement === same) return;
  // Gone, or not to be used now (disabled): the nearest that can take the focus.
  const all = /** @type {HTMLElement[]} */ ([...el.querySelectorAll('[data-focus]')]);
  const from = Math.min(Math.max(index, 0), all.length - 1);
  for (let d = 0; d < all.length; d += 1) {
    for (const near of [all[from + d], all[from - d]]) {
      if (!near) continue;
      near.focus({ preventScroll: true });
      if (document.activeElement === near) return;
    }
  }
}

/**
 * Replaces the children of `el`, keeping keyboard focus on the element with the same key.
 * @param {Element} el
 * @param {...any} children
 */
export function replaceChildren(el, ...children) {
  keepFocus(el, () => {
    el.replaceChildren();
    append(el, children);
  });
}
