// @ts-check
// The page's one sound: a short two-note chime made with Web Audio (no sound files), for "your
// turn" while the page is in the background.
//
// Owns: the AudioContext. Browsers keep audio silent until the person has touched the page, so
// the context is made (or woken) on the first click or key press. May not touch: the DOM or
// any state; whether sound is wanted is the caller's to decide.

/** @type {AudioContext | null} */
let context = null;

/** Makes or wakes the audio context; called from a click or key press. */
function unlock() {
  try {
    const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return;
    if (!context) context = new Ctor();
    if (context.state === 'suspended') context.resume().catch(() => {});
  } catch {
    // No audio on this device: the title still says whose turn it is.
  }
}

/** Listens for the first touch of the page, which lets the page make sounds afterwards. */
export function allowSound() {
  window.addEventListener('pointerdown', unlock, { capture: true });
  window.addEventListener('keydown', unlock, { capture: true });
}

/** Plays the "your turn" chime: two soft notes, under half a second in all. */
export function chime() {
  if (!context) unlock();
  if (!context) return;
  const start = context.currentTime + 0.01;
  [[660, 0], [880, 0.16]].forEach(([freq, at]) => {
    const osc = /** @type {AudioContext} */ (context).createOscillator();
    const gain = /** @type {AudioContext} */ (context).createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.25, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.28);
    osc.connect(gain).connect(/** @type {AudioContext} */ (context).destination);
    osc.start(start + at);
    osc.stop(start + at + 0.3);
  });
}
