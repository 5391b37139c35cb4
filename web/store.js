// @ts-check
// What the browser remembers: the player's name, display preferences and, per table, the
// secret seat token that gives the seat back after a refresh or a lost connection.

/** @param {string} key */
function get(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** @param {string} key @param {string | null} value */
function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private windows may refuse storage; the game still works for this page's lifetime.
  }
}

/** The name shown to others, or "" when none was given yet. */
export function loadName() {
  return get('parlor.name') || '';
}

/** Remembers the player's name. @param {string} name */
export function saveName(name) {
  set('parlor.name', name.trim());
}

/**
 * The seat token kept for a table: `{ token, seat }` or null.
 * @param {string} tableId
 * @returns {{ token: string, seat: number | null } | null}
 */
export function loadSeat(tableId) {
  const raw = get(`parlor.seat.${tableId}`);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw);
    return parsed && typeof parsed.token === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Keeps (or, with null, forgets) the seat token for a table.
 * @param {string} tableId @param {{ token: string, seat: number | null } | null} seat
 */
export function saveSeat(tableId, seat) {
  set(`parlor.seat.${tableId}`, seat ? JSON.stringify(seat) : null);
}

/** The host key of a table this browser created, or null. @param {string} tableId */
export function loadHostKey(tableId) {
  return get(`parlor.hostkey.${tableId}`);
}

/** Keeps the host key `POST /api/tables` gave for a table. @param {string} tableId @param {string} key */
export function saveHostKey(tableId, key) {
  set(`parlor.hostkey.${tableId}`, key);
}

/** The tables this browser holds a seat at, by id (from the seat tokens kept above). */
export function savedTables() {
  /** @type {string[]} */
  const ids = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && key.startsWith('parlor.seat.') && loadSeat(key.slice('parlor.seat.'.length))) ids.push(key.slice('parlor.seat.'.length));
    }
  } catch {
    // No storage: no remembered seats.
  }
  return ids;
}

/**
 * Whether sound is on. On unless switched off: the one sound is the "your turn" chime while
 * the page is in the background, exactly when a player wants to hear it, and browsers keep it
 * silent anyway until the page has been touched.
 */
export function loadSound() {
  return get('parlor.sound') !== '0';
}

/** Remembers the sound switch. @param {boolean} on */
export function saveSound(on) {
  set('parlor.sound', on ? '1' : '0');
}

/** Whether the four-colour deck is wanted. */
export function loadFourColour() {
  return get('parlor.fourColour') === '1';
}

/** Remembers the four-colour choice. @param {boolean} on */
export function saveFourColour(on) {
  set('parlor.fourColour', on ? '1' : '0');
}
