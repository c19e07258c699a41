// @ts-check
// The rules page, /rules: the text and its pictures are in the page itself (the pictures are
// drawn by the server from real positions, /api/rules/diagrams/NAME.svg); this module only puts
// the site header on top and the print button to work.

import { siteHeader } from '../lib/account.js';

siteHeader('rules');
document.getElementById('print').addEventListener('click', () => window.print());
