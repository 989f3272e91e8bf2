/**
 * The wall's optional sound: a short two-tone beep generated with the Web Audio API (no audio
 * file to download). Browsers keep an AudioContext suspended until the page was clicked, so
 * `unlock` is called from the click that turns the sound on; `beep` does nothing until then.
 * The choice is kept in localStorage (off by default).
 */
const STORAGE_KEY = 'alarmWall.sound';

let context: AudioContext | null = null;

export function soundWanted(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

export function rememberSound(on: boolean): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** Creates or resumes the audio context; call it from a click. */
export function unlockSound(): void {
  const Ctor = window.AudioContext;
  if (!Ctor) return;
  context ??= new Ctor();
  if (context.state === 'suspended') void context.resume().catch(() => undefined);
}

/** Two short tones, the higher the level the higher the pitch; silent while the context is locked. */
export function beep(level: number): void {
  if (context?.state !== 'running') return;
  const start = context.currentTime;
  const base = 520 + 140 * Math.max(0, Math.min(level, 3) - 1);
  for (const [i, freq] of [base, base * 1.5].entries()) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    const at = start + i * 0.18;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
    osc.connect(gain).connect(context.destination);
    osc.start(at);
    osc.stop(at + 0.17);
  }
}
