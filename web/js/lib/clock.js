// @ts-check
// Clocks as the server keeps them (docs/server.md, "Clocks"). The server sends each clock as of
// `server_ms`; between messages the running clock is ticked here from the time the state was
// received. What a clock shows depends on its kind.

/**
 * `m:ss`, `h:mm:ss`, or `s.t` under ten seconds.
 * @param {number} ms
 */
export function formatMs(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  if (h >= 48) return `${Math.floor(h / 24)} d ${h % 24} h`;
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * What clock `i` shows `elapsed` ms after the state `state` was received:
 * {main, sub, low, out}. `main` is the big figure, `sub` the periods or reserve.
 * @param {import('./types.js').GameState} state
 * @param {number} i the seat's index (0 or 1)
 * @param {number} elapsed
 * @returns {{main: string, sub: string, low: boolean, out: boolean}}
 */
export function clockShows(state, i, elapsed) {
  const spec = state.clock || { kind: 'unlimited' };
  const view = state.clocks[i];
  const e = view.running ? Math.max(0, elapsed) : 0;
  switch (spec.kind) {
    case 'unlimited':
      return { main: '–', sub: 'no clock', low: false, out: false };
    case 'sudden_death':
    case 'fischer':
    case 'correspondence': {
      const left = view.remaining_ms - e;
      return { main: formatMs(left), sub: '', low: left < 20000, out: left <= 0 };
    }
    case 'periods': {
      // A clock at zero with periods left stands at the start of its current period.
      const base = view.remaining_ms <= 0 && view.periods_left > 0 ? spec.period_ms : view.remaining_ms;
      let left = base - e;
      let periods = view.periods_left;
      // Past the shown time a period is used up (refetched from the server to be exact).
      while (left <= 0 && periods > 1) {
        left += spec.period_ms;
        periods -= 1;
      }
      const sub = `${periods} period${periods === 1 ? '' : 's'} of ${formatMs(spec.period_ms)}`;
      return { main: formatMs(left), sub, low: periods <= 1 && left < 20000, out: left <= 0 };
    }
    case 'per_move_reserve': {
      // The free time of the turn, then the reserve charged in whole steps rounded up.
      const turn = view.running ? (state.turn_ms || 0) + e : 0;
      const steps = (t) => Math.ceil(Math.max(0, t - spec.per_move_ms) / spec.step_ms);
      const reserveAtStart = view.remaining_ms + (view.running ? steps(state.turn_ms || 0) * spec.step_ms : 0);
      const reserve = Math.max(0, reserveAtStart - steps(turn) * spec.step_ms);
      const free = spec.per_move_ms - turn;
      if (free > 0) return { main: formatMs(free), sub: `reserve ${formatMs(reserve)}`, low: false, out: false };
      const usable = Math.floor(reserveAtStart / spec.step_ms) * spec.step_ms;
      const left = spec.per_move_ms + usable - turn;
      return { main: formatMs(left), sub: `in reserve, ${formatMs(reserve)} left`, low: left < 20000, out: left <= 0 };
    }
    default:
      return { main: '?', sub: /** @type {{kind: string}} */ (spec).kind, low: false, out: false };
  }
}
