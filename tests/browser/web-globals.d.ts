// What the pages of web/ keep on `window` for the browser tests (tests/browser/), and the
// browser features older than the DOM types that the pages still look for.
interface Window {
  zertzShownAt?: number;
  zertzSocket?: unknown;
  zertzMatchSocket?: unknown;
  zertzFeel?: unknown;
  zertzLearn?: unknown;
  zertzAnalysis?: unknown;
  webkitAudioContext?: typeof AudioContext;
}
