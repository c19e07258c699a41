// @ts-check
// How an event is put in words on both tournament pages: its format, its status and start, its
// settings, and a board's result.

import { describeSettings } from '../../lib/ui.js';

/** @typedef {import('../../lib/types.js').Tournament} Tournament */

/** The formats the server runs, by key, as a player reads them. */
export const FORMATS = {
  swiss: 'Swiss',
  round_robin: 'Round robin',
  knockout: 'Death-match knockout (best of 3)',
  arena: 'Arena',
};

/** The format of an event in words ("Swiss, 5 rounds", "Double round robin"). */
export function formatText(t) {
  const name = FORMATS[t.format] || t.format;
  const double = t.settings && t.settings.double;
  const base = t.format === 'round_robin' && double ? 'Double round robin' : name;
  if (t.format === 'arena') {
    const minutes = t.settings && t.settings.minutes;
    const berserk = t.settings && t.settings.berserk ? ', berserk allowed' : '';
    return minutes ? `${name}, ${minutes} minutes${berserk}` : name;
  }
  const rounds = t.rounds ?? (t.settings && t.settings.rounds);
  const third = t.format === 'knockout' && t.settings && t.settings.third_place ? ', a match for third place' : '';
  return rounds ? `${base}, ${rounds} round${rounds === 1 ? '' : 's'}${third}` : `${base}${third}`;
}

/** Hours, minutes and seconds until `ms` from `now` ("2 h 05 min", "4:07"), never negative. */
export function countdown(ms, now = Date.now()) {
  const left = Math.max(0, Math.round((ms - now) / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  if (h >= 24) return `${Math.floor(h / 24)} d ${h % 24} h`;
  if (h) return `${h} h ${String(m).padStart(2, '0')} min`;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** When a registering event starts, in words. */
export function startText(t, now = Date.now()) {
  if (!t.start_ms) return 'Starts when the organiser starts it';
  if (t.start_ms <= now) return 'Starting…';
  return `Starts in ${countdown(t.start_ms, now)}`;
}

/** Where an event is: "Starts in 4:07", "Round 2 of 5", "Finished". */
export function statusText(t, now = Date.now()) {
  if (t.status === 'registering') return startText(t, now);
  if (t.status === 'running') return t.rounds ? `Round ${t.round} of ${t.rounds}` : `Round ${t.round}`;
  if (t.status === 'paused') return `Paused by the organiser in round ${t.round}: the games under way go on`;
  return 'Finished';
}

/** The games' settings: "37 rings · standard · 5 min + 3 s a move · rated". */
export function settingsText(t) {
  const s = t.settings;
  if (!s) return '';
  const firstMove = s.first_move_s ? `first move within ${s.first_move_s} s or lost by forfeit` : null;
  const lo = s.min_rating;
  const hi = s.max_rating;
  const ratings = lo != null && hi != null ? `ratings ${lo}–${hi}` : lo != null ? `ratings ${lo} and up` : hi != null ? `ratings up to ${hi}` : null;
  const age = s.min_account_days ? `accounts ${s.min_account_days} day${s.min_account_days === 1 ? '' : 's'} old or more` : null;
  return describeSettings(s.board, s.rules, t.clock_text || '', [s.rated ? 'rated' : 'casual', firstMove, ratings, age]);
}

/**
 * A board's result as shown ("1–0", "½–½", "+ –" a forfeit, "bye", "½ bye" asked for); ''
 * while it is played.
 */
export function resultText(result) {
  switch (result) {
    case '1-0': return '1–0';
    case '0-1': return '0–1';
    case '1/2-1/2': return '½–½';
    case '+-': return '+ –';
    case '-+': return '– +';
    case '--': return '– –';
    case 'bye': return 'bye';
    case 'half-bye': return '½ bye';
    case 'zero-bye': return '0 bye';
    case 'rest': return 'rests';
    default: return '';
  }
}

/** Points as the standings write them: 2.5 → "2½", 0.5 → "½", 1.25 → "1¼" (Sonneborn-Berger). */
export function pointsText(points) {
  const whole = Math.floor(points);
  const part = { 0.25: '¼', 0.5: '½', 0.75: '¾' }[String(Math.round((points - whole) * 4) / 4)] || '';
  return part && !whole ? part : `${whole}${part}`;
}

/** "1 point", "2½ points". */
export const pointsWords = (points) => `${pointsText(points)} point${points === 1 ? '' : 's'}`;
