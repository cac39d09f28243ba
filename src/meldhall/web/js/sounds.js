// Short sounds made with WebAudio (no files): the person's turn, a claim offered, a win.
// Silent unless the sound setting is on; the browser lets audio start only after a click.
const TUNES = {
  turn: [[660, 0, 0.09]],
  claim: [[520, 0, 0.08], [780, 0.1, 0.1]],
  win: [[523, 0, 0.12], [659, 0.13, 0.12], [784, 0.26, 0.12], [1047, 0.39, 0.25]],
};

let audio = null;

/** Return the names of the sounds there are. */
export function soundNames() {
  return Object.keys(TUNES);
}

/** Play the sound `name` when `settings.sound` is on; return whether it was started. */
export function play(name, settings) {
  if (!settings?.sound || !TUNES[name]) return false;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  audio = audio || new Ctx();
  if (audio.state === 'suspended') audio.resume();
  const start = audio.currentTime + 0.01;
  for (const [freq, at, length] of TUNES[name]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'triangle';
    tone.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + at);
    tone.stop(start + at + length + 0.02);
  }
  document.body.dataset.lastSound = name;
  return true;
}
