// @ts-check
// The "Analyse" button of the game page: it opens the game on the analysis board at the move
// the page shows (the game page marks it on its board as data-turn), whether the game is over
// or not. A module of its own, so that the game page's script stays as it is.

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const link = /** @type {HTMLAnchorElement | null} */ (document.getElementById('analyse-link'));
const board = document.getElementById('board');

function update() {
  const turn = board.dataset.turn;
  const q = new URLSearchParams({ game: id });
  if (turn !== undefined) q.set('turn', turn);
  link.href = `/analysis?${q}`;
}

if (id && link && board) {
  update();
  new MutationObserver(update).observe(board, { attributes: true, attributeFilter: ['data-turn'] });
}
