// @ts-check
// Entry point: `/t/{id}` is a table, `/leaderboard` the ratings, everything else the lobby.

import { missing, startLanguage } from './i18n/index.js';
import { showLeaderboard } from './leaderboard.js';
import { showLobby } from './lobby.js';
import { showTable } from './table.js';

// The language first: every word drawn after speaks it.
startLanguage();
// Keys no catalogue has, for tests that check every word is translated.
Object.assign(window, { __i18nMissing: missing });
const root = /** @type {HTMLElement} */ (document.getElementById('app'));
const match = location.pathname.match(/\/t\/([^/]+)\/?$/);
if (match) {
  showTable(root, decodeURIComponent(match[1]));
} else if (/\/leaderboard\/?$/.test(location.pathname)) {
  showLeaderboard(root);
} else {
  showLobby(root);
}
