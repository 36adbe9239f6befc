// The review page (scribe review --html) in a real browser: Debian's chromium,
// headless, driven by puppeteer-core. The page must load with no console
// error and no network request, and every way of moving through the game
// (keys, the move list, the graph, the key-move tour) must show on the board
// exactly the position that scribe replay gives.
//
// Usage (tests/e2e/review_browser_test.sh sets these up):
//   PAGE=page.html REPLAY_JSON=replay.json RULESET=ruleset.txt \
//   [SCREENSHOT_DIR=dir] [DOCS_SCREENSHOT=file.png] [CHROMIUM=/usr/bin/chromium] \
//   node --test review_page_test.js
// REPLAY_JSON: `scribe replay --format=json RECORD`; RULESET: `scribe ruleset
// show RULES` of the record's rules (protobuf text: path, dark_path, pieces).
'use strict';

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const puppeteer = require('puppeteer-core');

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (see the usage at the top of review_page_test.js)`);
  return v;
}
const PAGE = path.resolve(need('PAGE'));
const PAGE_URL = pathToFileURL(PAGE).href;
const REPLAY = JSON.parse(fs.readFileSync(need('REPLAY_JSON'), 'utf8'));
const RULESET_TEXT = fs.readFileSync(need('RULESET'), 'utf8');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'review-page-'));
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 375, height: 812, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

// ---- what the board must show, from scribe's own output -------------------

// A repeated field of the ruleset's protobuf text: `key: ["A4", "A3", ...]`.
function rulesetList(key) {
  const m = RULESET_TEXT.match(new RegExp(`^${key}: \\[(.*)\\]$`, 'm'));
  assert.ok(m, `no "${key}: [...]" line in the ruleset text`);
  return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
}
const TILES = { light: rulesetList('path'), dark: rulesetList('dark_path') };
const PIECES = Number((RULESET_TEXT.match(/^pieces: (\d+)$/m) || [])[1]);
assert.ok(PIECES > 0, 'no "pieces: N" line in the ruleset text');
const N = REPLAY.actions.length;

// The position after k actions as { light: {waiting, off, tiles}, dark: ... },
// tiles: tile name -> pieces there (tiles with none left out).
function expectedPosition(k) {
  const empty = new Array(TILES.light.length + 2).fill(0);
  const start = [PIECES, ...empty.slice(1)];
  const pos = k === 0 ? { light: start, dark: start } : REPLAY.actions[k - 1].position;
  const out = {};
  for (const side of ['light', 'dark']) {
    const counts = pos[side];
    assert.equal(counts.length, TILES[side].length + 2, `replay's ${side} array has a path of its own length`);
    const tiles = {};
    for (let i = 1; i <= TILES[side].length; i++) {
      if (counts[i] > 0) tiles[TILES[side][i - 1]] = counts[i];
    }
    out[side] = { waiting: counts[0], off: counts[counts.length - 1], tiles };
  }
  return out;
}

// ---- what the board shows ---------------------------------------------------

const BOARD_TITLE = /^(\d+) (light|dark) pieces? on ([A-Z]+\d+)(, turned over \(on the way down\))?$/;

// Reads #board: its data-ply and the pieces of its SVG, in the shape of
// expectedPosition. Anything the contract does not allow fails.
async function shownPosition(page) {
  const { ply, pieces, svgs } = await page.evaluate(() => {
    const board = document.querySelector('#board');
    if (!board) return { ply: null, pieces: [], svgs: 0 };
    return {
      ply: board.getAttribute('data-ply'),
      svgs: board.querySelectorAll('svg').length,
      pieces: [...board.querySelectorAll('svg g.piece')].map((g) => {
        const t = g.querySelector(':scope > title');
        return { cls: [...g.classList], title: t ? t.textContent.trim() : null };
      }),
    };
  });
  assert.equal(svgs, 1, '#board holds one SVG');
  const pos = {};
  for (const side of ['light', 'dark']) pos[side] = { waiting: 0, off: 0, tiles: {} };
  for (const { cls, title } of pieces) {
    const side = ['light', 'dark'].filter((c) => cls.includes(c));
    const where = ['board', 'waiting', 'off'].filter((c) => cls.includes(c));
    assert.ok(side.length === 1 && where.length === 1, `a piece with classes "${cls.join(' ')}"`);
    const p = pos[side[0]];
    if (where[0] === 'board') {
      const m = BOARD_TITLE.exec(title || '');
      assert.ok(m, `a board piece titled "${title}"`);
      assert.equal(m[2], side[0], `the piece titled "${title}" has class ${side[0]}`);
      assert.ok(!(m[3] in p.tiles), `one stack of ${side[0]} on ${m[3]}`);
      p.tiles[m[3]] = Number(m[1]);
    } else {
      p[where[0]] += 1;
    }
  }
  return { ply: ply === null ? null : Number(ply), pos };
}

// Waits for #board to show ply k, then checks its position and the move list.
async function expectPly(page, k, how) {
  try {
    await page.waitForFunction((want) => {
      const b = document.querySelector('#board');
      return b && b.getAttribute('data-ply') === want;
    }, { timeout: 3000 }, String(k));
  } catch {
    const now = await page.evaluate(() => document.querySelector('#board')?.getAttribute('data-ply'));
    assert.fail(`${how}: #board shows ply ${now}, wanted ${k}`);
  }
  const { pos } = await shownPosition(page);
  assert.deepEqual(pos, expectedPosition(k), `${how}: the board at ply ${k} is scribe replay's position`);
  const current = await page.evaluate(() => [...document.querySelectorAll('#moves li.current')]
    .map((li) => Number(li.getAttribute('data-ply'))));
  if (k > 0) assert.deepEqual(current, [k], `${how}: the current move is ply ${k}`);
  else assert.ok(current.every((c) => !(c >= 1)), `${how}: no move is current at the start`);
}

// ---- the browser ------------------------------------------------------------

let browser;
const problems = [];  // console errors, page errors, network requests: none allowed

async function openPage(viewport) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    if (req.url() === PAGE_URL) {
      req.continue();
    } else {
      problems.push(`request: ${req.url()}`);
      req.abort();
    }
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.goto(PAGE_URL, { waitUntil: 'load' });
  return page;
}

async function noHorizontalScroll(page, label) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `${label}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
}

async function plies(page, selector) {
  return page.$$eval(selector, (els) => els.map((e) => Number(e.getAttribute('data-ply'))));
}

describe('the review page in headless chromium', () => {
  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing (scripts/setup.sh installs Debian's chromium)`);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
    });
  });
  after(async () => {
    if (browser) await browser.close();
  });

  it('has the record\'s plies and one move per action', async () => {
    const page = await openPage(LAPTOP);
    const n = await page.$eval('main#review', (m) => m.getAttribute('data-plies'));
    assert.equal(Number(n), N, 'main#review data-plies is the number of actions');
    const moves = (await plies(page, '#moves li[data-ply]')).filter((k) => k >= 1);
    assert.deepEqual(moves, Array.from({ length: N }, (_, i) => i + 1), '#moves li[data-ply] are 1..N in order');
    const circles = await page.$$eval('#graph svg circle.ply', (cs) => cs.length);
    assert.equal(circles, N + 1, 'the graph has one circle.ply per ply, 0..N');
    await page.close();
  });

  it('steps through every ply with the arrow keys, Home and End', async () => {
    const page = await openPage(LAPTOP);
    await page.keyboard.press('Home');
    await expectPly(page, 0, 'Home');
    for (let k = 1; k <= N; k++) {
      await page.keyboard.press('ArrowRight');
      await expectPly(page, k, `ArrowRight to ${k}`);
    }
    for (let k = N - 1; k >= 0; k--) {
      await page.keyboard.press('ArrowLeft');
      await expectPly(page, k, `ArrowLeft to ${k}`);
    }
    await page.keyboard.press('End');
    await expectPly(page, N, 'End');
    await page.keyboard.press('Home');
    await expectPly(page, 0, 'Home after End');
    await page.close();
  });

  it('shows the ply of a clicked move', async () => {
    const page = await openPage(LAPTOP);
    // Out of order, so that no step is the next one's neighbour.
    const order = [];
    for (let s = 0; s < 7; s++) for (let k = N - s; k >= 1; k -= 7) order.push(k);
    for (const k of order) {
      await (await page.$(`#moves li[data-ply="${k}"]`)).click();
      await expectPly(page, k, `click on move ${k}`);
    }
    await page.close();
  });

  it('jumps to the ply nearest to a click on the graph', async () => {
    const page = await openPage(LAPTOP);
    // Clicks land on whole pixels, as a mouse's do (the browser's clientX is
    // a whole number): the point for circle k is its centre rounded, and
    // the ply a point must show is that of the circle whose centre is
    // nearest to the point's x, by a clear pixel at least.
    // point(k, null): circle k's centre; point(k, t): a point of the plot
    // between circles k and k + 1, not on a circle, whose nearest is t.
    // Both scroll the graph into view first (showing a ply may scroll).
    const point = (k, t) => page.evaluate((k, t) => {
      const svg = document.querySelector('#graph svg');
      const r0 = svg.getBoundingClientRect();
      if (r0.top < 0 || r0.bottom > window.innerHeight) svg.scrollIntoView({ block: 'center' });
      const r = svg.getBoundingClientRect();
      const cs = [...svg.querySelectorAll('circle.ply')].map((c) => {
        const q = c.getBoundingClientRect();
        return { x: q.left + q.width / 2, y: q.top + q.height / 2 };
      });
      const inGraph = (x, y) => {
        const el = document.elementFromPoint(x, y);
        return !!el && svg.contains(el) && (t === null || !el.matches('circle.ply'));
      };
      if (t === null) {
        const x = Math.round(cs[k].x), y = Math.round(cs[k].y);
        return inGraph(x, y) ? { x, y } : null;
      }
      for (let x = Math.ceil(cs[k].x); x <= Math.floor(cs[k + 1].x); x++) {
        const d = cs.map((c, i) => [Math.abs(c.x - x), i]).sort((a, b) => a[0] - b[0]);
        if (d[0][1] !== t || d[1][0] - d[0][0] < 1) continue;
        for (const f of [0.5, 0.3, 0.7, 0.15, 0.85]) {
          const y = Math.round(r.top + f * r.height);
          if (inGraph(x, y)) return { x, y };
        }
      }
      return null;
    }, k, t);
    const order = [];
    for (let s = 0; s < 5; s++) for (let k = N - s; k >= 0; k -= 5) order.push(k);
    for (const k of order) {
      const c = await point(k, null);
      assert.ok(c, `circle ${k} can be clicked (it is in the graph and nothing covers it)`);
      await page.mouse.click(c.x, c.y);
      await expectPly(page, k, `click on the graph's circle ${k}`);
    }
    let tried = 0;
    for (let k = 3; k < N; k += 10) {
      for (const t of [k, k + 1]) {
        const c = await point(k, t);
        if (!c) continue;
        tried++;
        await page.mouse.click(c.x, c.y);
        await expectPly(page, t, `click on the graph at x ${c.x} between circles ${k} and ${k + 1}`);
      }
    }
    assert.ok(tried >= 4, `clicked the plot between circles ${tried} times (no free point found)`);
    await page.close();
  });

  it('tours the key moves in order, and shows a clicked one', async () => {
    const page = await openPage(LAPTOP);
    const keys = await plies(page, '#key-moves li[data-ply]');
    assert.ok(keys.length >= 1, 'the game has key moves');
    for (const [i, k] of keys.entries()) {
      await page.click('#next-key');
      await expectPly(page, k, `#next-key click ${i + 1}`);
    }
    const items = await page.$$('#key-moves li[data-ply]');
    for (let i = items.length - 1; i >= 0; i--) {
      await items[i].click();
      await expectPly(page, keys[i], `click on key move ${i + 1}`);
    }
    await page.close();
  });

  it('fits a laptop and a phone width, with screenshots', async () => {
    const laptop = await openPage(LAPTOP);
    await noHorizontalScroll(laptop, 'laptop (1366 px)');
    await laptop.keyboard.press('End');
    await noHorizontalScroll(laptop, 'laptop (1366 px), at the end');
    // The picture for the docs: the first key move, from the top of the page.
    if (await laptop.$('#key-moves li[data-ply]')) await laptop.click('#next-key');
    await laptop.evaluate(() => window.scrollTo(0, 0));
    const shot = path.join(SCREENSHOT_DIR, 'laptop.png');
    await laptop.screenshot({ path: shot });
    if (process.env.DOCS_SCREENSHOT) fs.copyFileSync(shot, process.env.DOCS_SCREENSHOT);
    await laptop.screenshot({ path: path.join(SCREENSHOT_DIR, 'laptop-full.png'), fullPage: true });
    await laptop.close();

    const phone = await openPage(PHONE);
    const width = await phone.evaluate(() => window.innerWidth);
    assert.equal(width, PHONE.width, 'on a phone the page is laid out at the device width (a viewport meta tag)');
    await noHorizontalScroll(phone, 'phone (375 px)');
    await phone.keyboard.press('End');
    await noHorizontalScroll(phone, 'phone (375 px), at the end');
    await phone.screenshot({ path: path.join(SCREENSHOT_DIR, 'phone.png'), fullPage: true });
    await phone.close();
    console.log(`screenshots in ${SCREENSHOT_DIR}`);
  });

  it('made no network request and logged no error', () => {
    assert.deepEqual([...new Set(problems)], []);
  });
});
