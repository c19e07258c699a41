// @ts-check
// The page for an address the site does not have (served with status 404): the site's header,
// and the address asked for, said as text.

import { siteHeader } from '../lib/account.js';

siteHeader('');
const what = document.getElementById('missing-what');
what.textContent = `There is no page at ${location.pathname}: like a ring taken off the board, it is not coming back.`;
what.dataset.path = location.pathname;
