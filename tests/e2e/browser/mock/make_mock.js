// Writes a hand-made stand-in for the review page (scribe review --html),
// built to the page's DOM contract only: the boards are scribe's own SVGs
// (scribe replay --svg F --at k), the moves come from scribe replay, the
// chances in the graph and the key moves are made up. It serves to check the
// browser test itself (review_page_test.js), never the real page.
//
// Usage: node make_mock.js SCRIBE RECORD OUT.html [--wrong-ply K]
//   --wrong-ply K: at ply K show the board of ply K-1 instead (the test must
//   then fail, where action K-1 moved a piece).
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [scribe, record, out, flag, wrongArg] = process.argv.slice(2);
if (!scribe || !record || !out || (flag && flag !== '--wrong-ply')) {
  console.error('usage: node make_mock.js SCRIBE RECORD OUT.html [--wrong-ply K]');
  process.exit(2);
}
const wrongPly = flag ? Number(wrongArg) : -1;

const run = (...args) => execFileSync(scribe, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
const replay = JSON.parse(run('replay', '--format=json', record));
const n = replay.actions.length;
const lines = run('replay', record).split('\n')
  .filter((l) => /^\s*\d+\s/.test(l)).map((l) => l.trim().replace(/^\d+\s+/, ''));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-mock-'));
const boards = [];
for (let k = 0; k <= n; k++) {
  const f = path.join(dir, `${k}.svg`);
  run('replay', '--svg', f, '--at', String(k), record);
  boards.push(fs.readFileSync(f, 'utf8'));
}
fs.rmSync(dir, { recursive: true });

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
// Made-up chances: light's borne-off lead.
const off = (k) => (k === 0 ? [0, 0] : [replay.actions[k - 1].position.light.at(-1),
  replay.actions[k - 1].position.dark.at(-1)]);
const chance = (k) => 0.5 + (off(k)[0] - off(k)[1]) / 14;
const W = 600, H = 160, PAD = 10;
const x = (k) => (PAD + (k * (W - 2 * PAD)) / n).toFixed(2);
const y = (k) => (PAD + (1 - chance(k)) * (H - 2 * PAD)).toFixed(2);
const circles = [];
for (let k = 0; k <= n; k++) circles.push(`<circle class="ply" cx="${x(k)}" cy="${y(k)}" r="2.5"/>`);
const points = circles.map((_, k) => `${x(k)},${y(k)}`).join(' ');
const keyMoves = [12, 40, 99].filter((k) => k < n);

const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review (mock)</title>
<style>
body { font-family: sans-serif; margin: 0; padding: 8px; }
#board svg, #graph svg { width: 100%; height: auto; display: block; }
#board { max-width: 640px; }
#moves { max-height: 300px; overflow-y: auto; }
#moves li.current { background: #fd6; }
#graph circle.ply { fill: #246; }
</style></head>
<body>
<main id="review" data-plies="${n}">
<div id="board" data-ply="0"></div>
<div id="graph"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}">
<rect x="0" y="0" width="${W}" height="${H}" fill="#eee"/>
<polyline points="${points}" fill="none" stroke="#888"/>
${circles.join('\n')}
</svg></div>
<h2>Key moves</h2>
<ol id="key-moves">${keyMoves.map((k) => `<li data-ply="${k}">${esc(lines[k])}</li>`).join('')}</ol>
<button id="next-key" type="button">Next key move</button>
<ol id="moves">
${lines.map((l, i) => `<li data-ply="${i + 1}">${esc(l)}</li>`).join('\n')}
</ol>
</main>
${boards.map((b, k) => `<template data-board="${k}">${k === wrongPly ? boards[k - 1] : b}</template>`).join('\n')}
<script>
(function () {
  var n = ${n}, ply = 0, key = -1;
  var board = document.getElementById('board');
  function show(k) {
    ply = Math.max(0, Math.min(n, k));
    board.innerHTML = document.querySelector('template[data-board="' + ply + '"]').innerHTML;
    board.setAttribute('data-ply', String(ply));
    document.querySelectorAll('#moves li').forEach(function (li) {
      li.classList.toggle('current', li.getAttribute('data-ply') === String(ply));
    });
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') show(ply + 1);
    else if (e.key === 'ArrowLeft') show(ply - 1);
    else if (e.key === 'Home') show(0);
    else if (e.key === 'End') show(n);
    else return;
    e.preventDefault();
  });
  document.querySelectorAll('#moves li, #key-moves li').forEach(function (li) {
    li.addEventListener('click', function () { show(Number(li.getAttribute('data-ply'))); });
  });
  var svg = document.querySelector('#graph svg');
  svg.addEventListener('click', function (e) {
    var best = 0, bestD = Infinity;
    svg.querySelectorAll('circle.ply').forEach(function (c, k) {
      var r = c.getBoundingClientRect(), d = Math.abs(r.left + r.width / 2 - e.clientX);
      if (d < bestD) { bestD = d; best = k; }
    });
    show(best);
  });
  var keys = document.querySelectorAll('#key-moves li');
  document.getElementById('next-key').addEventListener('click', function () {
    key = (key + 1) % keys.length;
    show(Number(keys[key].getAttribute('data-ply')));
  });
  show(0);
})();
</script>
</body></html>
`;
fs.writeFileSync(out, html);
