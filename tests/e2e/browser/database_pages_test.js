// The game database's pages (scribe db pages) in a real browser: Debian's
// chromium, headless, driven by puppeteer-core. Every page must load with
// no console error and no network request; every link must resolve to a
// page that was written; each explorer page's numbers must equal
// `scribe db explore --format json` for its position, and each player
// page's equal `scribe db player --format json`; following a move's link
// leads to a page of the position after it.
//
// Usage (tests/e2e/database_pages_browser_test.sh sets these up):
//   PAGES=dir SCRIBE=scribe DB=games.db [CHROMIUM=/usr/bin/chromium] node --test database_pages_test.js
'use strict';

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { pathToFileURL, fileURLToPath } = require('node:url');
const puppeteer = require('puppeteer-core');

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (see the usage at the top of database_pages_test.js)`);
  return v;
}
const PAGES = path.resolve(need('PAGES'));
const SCRIBE = need('SCRIBE');
const DB = need('DB');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const scribeJson = (...args) => JSON.parse(execFileSync(SCRIBE, ['db', ...args, '--db', DB, '--format', 'json']));

function htmlFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? htmlFiles(p) : e.name.endsWith('.html') ? [p] : [];
  });
}

let browser;
const problems = [];  // console errors, page errors, network requests: none allowed

async function open(file) {
  const url = pathToFileURL(file).href;
  const page = await browser.newPage();
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    if (req.url() === url) {
      req.continue();
    } else {
      problems.push(`${path.relative(PAGES, file)}: request: ${req.url()}`);
      req.abort();
    }
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${path.relative(PAGES, file)}: console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`${path.relative(PAGES, file)}: page error: ${err.message}`));
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

describe('the database pages in headless chromium', () => {
  const files = htmlFiles(PAGES);
  const explorer = files.filter((f) => f.includes(`${path.sep}explorer${path.sep}`));
  const players = files.filter((f) => f.includes(`${path.sep}players${path.sep}`));
  const games = files.filter((f) => f.includes(`${path.sep}games${path.sep}`));

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing (scripts/setup.sh installs Debian's chromium)`);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
    });
  });
  after(async () => {
    if (browser) await browser.close();
  });

  it('wrote an index, explorer pages, player pages and game pages', () => {
    assert.ok(files.includes(path.join(PAGES, 'index.html')), 'index.html');
    assert.ok(explorer.length > 1, `explorer pages: ${explorer.length}`);
    assert.ok(players.length > 0, `player pages: ${players.length}`);
    assert.ok(games.length > 0, `game pages: ${games.length}`);
  });

  it('every link of every page resolves to a page that was written', async () => {
    for (const file of files) {
      const page = await open(file);
      const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.href));
      for (const href of hrefs) {
        assert.ok(href.startsWith('file:'), `${path.relative(PAGES, file)} links out of the pages: ${href}`);
        const target = fileURLToPath(href.split('#')[0]);
        assert.ok(fs.existsSync(target), `${path.relative(PAGES, file)} links to a missing page: ${target}`);
      }
      await page.close();
    }
  });

  it('each explorer page shows what scribe db explore says of its position', async () => {
    for (const file of explorer) {
      const page = await open(file);
      const shown = await page.$eval('main#explorer', (m) => ({
        position: m.dataset.position,
        games: Number(m.dataset.games),
        moves: Array.from(m.querySelectorAll('table#played tbody tr')).map((tr) => ({
          roll: Number(tr.dataset.roll), from: Number(tr.dataset.from), to: Number(tr.dataset.to),
          games: Number(tr.dataset.games), light_wins: Number(tr.dataset.lightWins),
          dark_wins: Number(tr.dataset.darkWins),
        })),
      }));
      const cli = scribeJson('explore', '--position', shown.position);
      assert.equal(shown.games, cli.games, `${path.basename(file)}: games`);
      const want = cli.moves.map((m) => ({
        roll: m.roll, from: m.from ?? -1, to: m.to ?? -1, games: m.games, light_wins: m.light_wins,
        dark_wins: m.dark_wins,
      }));
      assert.deepEqual(shown.moves, want, `${path.basename(file)}: the moves of ${shown.position}`);
      await page.close();
    }
  });

  it('a move\'s link leads to the position after it, reached by at least its games', async () => {
    const start = await open(path.join(PAGES, 'explorer', 'p0.html'));
    const rows = await start.$$eval('table#played tbody tr', (trs) => trs
      .filter((tr) => tr.querySelector('a'))
      .map((tr) => ({ games: Number(tr.dataset.games), href: tr.querySelector('a').href })));
    assert.ok(rows.length > 0, 'the start has moves with pages');
    await start.close();
    for (const row of rows) {
      const next = await open(fileURLToPath(row.href));
      const games = await next.$eval('main#explorer', (m) => Number(m.dataset.games));
      assert.ok(games >= row.games, `${row.href}: ${games} games, fewer than the move's ${row.games}`);
      await next.close();
    }
  });

  it('each player page shows what scribe db player says', async () => {
    for (const file of players) {
      const page = await open(file);
      const shown = await page.$eval('main#player', (m) => ({
        name: m.dataset.name, games: Number(m.dataset.games), wins: Number(m.dataset.wins),
        losses: Number(m.dataset.losses),
        ratings: Array.from(m.querySelectorAll('table#ratings tbody tr')).map((tr) => tr.dataset.period),
        listed: m.querySelectorAll('table#games tbody tr').length,
      }));
      const cli = scribeJson('player', shown.name);
      assert.equal(shown.games, cli.games, `${shown.name}: games`);
      assert.equal(shown.wins, cli.wins, `${shown.name}: wins`);
      assert.equal(shown.losses, cli.losses, `${shown.name}: losses`);
      assert.deepEqual(shown.ratings, cli.ratings.map((r) => r.period), `${shown.name}: rating periods`);
      assert.ok(shown.listed > 0, `${shown.name}: games listed`);
      await page.close();
    }
  });

  it('made no network request and logged no error', () => {
    assert.deepEqual(problems, []);
  });
});
