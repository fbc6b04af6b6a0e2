// page.test.mjs - the page of 'loopy serve' in a real browser (Debian's
// chromium, headless, driven by puppeteer-core): for each game, the moves
// and values shown, and their colours, are those of 'loopy game probe -f
// json' for the same positions; moves played by clicking the board (a
// cell, a column, a piece and a square, a heap's take) and by the keyboard;
// the value history grows and shrinks with undo and redo; a link restores a
// position; a bad position typed shows probe's message; a phone-sized window
// scrolls only down.  Screenshots of each game's page go to SHOTS.
//
//   LOOPY=build/loopy URL=http://127.0.0.1:PORT/ SHOTS=DIR \
//   DATABASE=krk.ldb node tests/browser/page.test.mjs
//
// Prints "PASS NAME" or "FAIL NAME: WHY" per check (tests/cli/serve_browser.sh
// counts them).  CHROMIUM names the browser (default /usr/bin/chromium).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const LOOPY = process.env.LOOPY;
const URL_BASE = process.env.URL;
const SHOTS = process.env.SHOTS || os.tmpdir();
const DATABASE = process.env.DATABASE;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// Every wait is bounded, so that a page that never answers fails the check
// rather than hanging the run; none is a measure of speed.
const WAIT = 30000;

// GamesmanUni's colours (web/style.css): win green, tie and draw yellow,
// lose maroon.
const COLOURS = { W: 'rgb(0, 128, 0)', T: 'rgb(255, 255, 0)', D: 'rgb(255, 255, 0)', L: 'rgb(128, 0, 0)' };

let failures = 0;
function pass(name) {
  console.log(`PASS ${name}`);
}
function fail(name, why) {
  failures++;
  console.log(`FAIL ${name}: ${why}`);
}
function check(name, ok, why) {
  if (ok) pass(name);
  else fail(name, why);
}
function same(name, got, want) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  check(name, g === w, `got ${g.slice(0, 400)}, expected ${w.slice(0, 400)}`);
}

// What 'loopy game probe -f json' says of a position (null: the start).
function probe(spec, position) {
  const args = ['game', 'probe', '-q', '-f', 'json', spec];
  if (position !== null) args.push(position);
  return JSON.parse(execFileSync(LOOPY, args, { encoding: 'utf8' }))[0];
}

// loopy game probe's message for a position it refuses.
function probeError(spec, position) {
  try {
    execFileSync(LOOPY, ['game', 'probe', '-q', spec, position], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    return e.stderr.trim().replace(/^loopy game: /, '');
  }
  return null;
}

const consoleErrors = [];

async function idle(page) {
  await page.waitForFunction(() => !document.body.hasAttribute('aria-busy') && document.querySelector('#status[data-value]'), { timeout: WAIT });
}

// What the page shows of the position: its value, the moves in order with
// their values and colours, the chart's points.
async function shown(page) {
  return page.evaluate(() => {
    const moves = [...document.querySelectorAll('#moves button.move')].map((b) => ({
      to: b.dataset.to, value: b.dataset.value,
      remoteness: b.dataset.remoteness === '' ? null : Number(b.dataset.remoteness),
      colour: getComputedStyle(b).backgroundColor, text: b.textContent,
    }));
    const status = document.querySelector('#status');
    return {
      position: document.querySelector('#position').value,
      value: status.dataset.value,
      remoteness: status.dataset.remoteness === '' ? null : Number(status.dataset.remoteness),
      moves,
      points: document.querySelectorAll('#chart circle').length,
      error: document.querySelector('#error').textContent,
      url: window.location.href,
    };
  });
}

// The page against probe, for the position it shows.
async function checkPosition(page, spec, label) {
  const s = await shown(page);
  const want = probe(spec, s.position);
  same(`${label}: the position's value`, [s.value, s.remoteness], [want.value, want.remoteness]);
  same(`${label}: the moves and their values, best first`,
    s.moves.map((m) => [m.to, m.value, m.remoteness]), want.moves.map((m) => [m.to, m.value, m.remoteness]));
  const wrongColour = s.moves.filter((m) => m.colour !== COLOURS[m.value]);
  check(`${label}: each move in its value's colour`, wrongColour.length === 0,
    `${wrongColour.length} not: ${JSON.stringify(wrongColour[0])}`);
  // Not by colour alone: each move says its value in letters.
  const unwritten = s.moves.filter((m, i) => !m.text.includes(want.moves[i].value === 'D' ? 'D' : `${m.value} ${m.remoteness}`));
  check(`${label}: each move's value written on it`, unwritten.length === 0, JSON.stringify(unwritten[0]));
  return { s, want };
}

// The board's own move buttons agree with the list.
async function checkBoard(page, label) {
  const bad = await page.evaluate((colours) => {
    const wrong = [];
    for (const b of document.querySelectorAll('#board button.move')) {
      const listed = [...document.querySelectorAll('#moves button.move')].find((m) => m.dataset.to === b.dataset.to);
      const colour = getComputedStyle(b).backgroundColor;
      const tag = b.querySelector('.tag');
      const tagColour = tag ? getComputedStyle(tag).backgroundColor : colour;
      if (!listed || listed.dataset.value !== b.dataset.value || (colour !== colours[b.dataset.value] && tagColour !== colours[b.dataset.value]))
        wrong.push({ to: b.dataset.to, value: b.dataset.value, colour, tagColour });
    }
    return { wrong, count: document.querySelectorAll('#board button.move').length };
  }, COLOURS);
  check(`${label}: the board's moves are the list's, in their colours`, bad.wrong.length === 0, JSON.stringify(bad.wrong[0]));
  return bad.count;
}

async function click(page, selector, label) {
  const handle = await page.$(selector);
  if (!handle) {
    fail(label, `nothing to click at ${selector}`);
    return false;
  }
  await handle.click();
  await idle(page);
  return true;
}

async function shot(page, name) {
  const file = path.join(SHOTS, `serve_browser-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot ${file}`);
}

async function open(page, query) {
  await page.goto(URL_BASE + query, { waitUntil: 'domcontentloaded', timeout: WAIT });
  await idle(page);
}

// Plays by clicking, n times, with pick(page) giving the selector to
// click (or a function doing it), checking each new position and the chart.
async function playGame(page, spec, name, steps) {
  let before = await shown(page);
  for (let k = 0; k < steps.length; k++) {
    const label = `${name}, move ${k + 1}`;
    const done = await steps[k](page, label);
    if (done === false) return;
    const now = await shown(page);
    check(`${label}: the position changed`, now.position !== before.position, `still ${now.position}`);
    same(`${label}: the chart has a point per position`, now.points, before.points + 1);
    check(`${label}: the position is in the URL`, new URL(now.url).searchParams.get('position') === now.position, now.url);
    await checkPosition(page, spec, label);
    before = now;
  }
}

async function undoRedo(page, name) {
  const before = await shown(page);
  await click(page, '#undo', `${name}: undo`);
  const undone = await shown(page);
  same(`${name}: undo takes a point off the chart`, undone.points, before.points - 1);
  await click(page, '#redo', `${name}: redo`);
  const redone = await shown(page);
  same(`${name}: redo gives the position back`, [redone.position, redone.points], [before.position, before.points]);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--user-data-dir=${dataDir}`],
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT);
    // The 400 of the bad position typed is the one error expected.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 400/.test(m.text())) consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.setViewport({ width: 1100, height: 900 });

    // The games served, in the menu.
    await open(page, '');
    const games = JSON.parse(await (await fetch(URL_BASE + 'api/games')).text());
    same('the menu lists the games served', await page.$$eval('#game option', (o) => o.map((x) => x.value)), games.map((g) => g.id));

    // ---- tic-tac-toe: cells ----
    await open(page, '?game=tictactoe');
    await checkPosition(page, 'tictactoe', 'tictactoe start');
    same('tictactoe start: nine cells to play', await checkBoard(page, 'tictactoe start'), 9);
    // x in the centre, then o's blunder, an edge, by the board (a corner
    // ties, an edge loses), then loopy's win for x: the chart shows it.
    await playGame(page, 'tictactoe', 'tictactoe', [
      (p, l) => click(p, '#board .grid > :nth-child(5)', l),
      (p, l) => click(p, '#board .grid > :nth-child(2)', l),
      (p, l) => click(p, '#loopy-move', l),
    ]);
    await checkBoard(page, 'tictactoe after three moves');
    await undoRedo(page, 'tictactoe');
    const blunder = await page.$$eval('#chart line.move', (lines) => lines.map((l) => l.getAttribute('class')));
    same('tictactoe: the chart shows the blunder (a losing move) in its colour', blunder, ['move move-T', 'move move-L', 'move move-W']);
    const sides = await page.$$eval('#chart circle', (c) => c.map((x) => Number(x.getAttribute('cx'))));
    check('tictactoe: after the blunder the points leave the centre line for x\'s side',
      sides[0] === sides[1] && sides[2] < sides[1] && sides[3] < sides[1], JSON.stringify(sides));
    await shot(page, 'tictactoe');

    // A link opens the same position.
    const link = (await shown(page)).url;
    const other = await browser.newPage();
    other.on('pageerror', (e) => consoleErrors.push(e.message));
    await other.goto(link, { waitUntil: 'domcontentloaded' });
    await idle(other);
    const reopened = await shown(other);
    const original = await shown(page);
    same('a link restores the position and its moves', [reopened.position, reopened.value, reopened.moves.map((m) => m.to)],
      [original.position, original.value, original.moves.map((m) => m.to)]);
    await other.close();

    // A bad position typed: probe's message, the position kept.
    await page.click('#position', { clickCount: 3 });
    await page.type('#position', 'xx/oo');
    await page.click('#position-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#error').textContent !== '', { timeout: WAIT });
    const afterBad = await shown(page);
    same('a bad position typed shows probe\'s message', afterBad.error, probeError('tictactoe', 'xx/oo'));
    same('a bad position typed keeps the position', afterBad.points, original.points);
    await shot(page, 'tictactoe-bad-position');
    // A good one typed opens it.
    await page.click('#position', { clickCount: 3 });
    await page.type('#position', 'x.o/.x./...');
    await page.keyboard.press('Enter');
    await idle(page);
    const typed = await shown(page);
    same('a position typed opens it, with an empty history', [typed.position, typed.points, typed.error], ['x.o/.x./...', 1, '']);
    await checkPosition(page, 'tictactoe', 'tictactoe typed');

    // The keyboard: m lets loopy move (its best move), u undoes, Tab
    // reaches a move and Enter plays it.
    const best = (await shown(page)).moves[0].to;
    await page.focus('#start-over');
    await page.keyboard.press('m');
    await idle(page);
    same('the key m lets loopy move (the best move)', (await shown(page)).position, best);
    await page.keyboard.press('u');
    await idle(page);
    same('the key u undoes', (await shown(page)).position, 'x.o/.x./...');
    await page.focus('#moves li:nth-child(2) button');
    const second = (await shown(page)).moves[1].to;
    await page.keyboard.press('Enter');
    await idle(page);
    same('Enter on a move plays it', (await shown(page)).position, second);

    // ---- Connect Four: columns ----
    await open(page, '?game=connect4%3A4x4');
    await checkPosition(page, 'connect4:4x4', 'connect4 start');
    same('connect4 start: four columns to play', await checkBoard(page, 'connect4 start'), 4);
    await playGame(page, 'connect4:4x4', 'connect4', [
      (p, l) => click(p, '#board .columns > :nth-child(2)', l),
      (p, l) => click(p, '#board .columns > :nth-child(2)', l),
      (p, l) => click(p, '#board .columns > :nth-child(3)', l),
      (p, l) => click(p, '#loopy-move', l),
    ]);
    await checkBoard(page, 'connect4 after four moves');
    await undoRedo(page, 'connect4');
    await shot(page, 'connect4');

    // ---- subtract: the heap ----
    const subtract = games.find((g) => g.game === 'subtract');
    await open(page, `?game=${encodeURIComponent(subtract.id)}`);
    await checkPosition(page, 'subtract', 'subtract start');
    await checkBoard(page, 'subtract start');
    await playGame(page, 'subtract', 'subtract', [
      (p, l) => click(p, '#board .heap-moves > :nth-child(1)', l),
      (p, l) => click(p, '#board .heap-moves > :nth-child(3)', l),
    ]);
    await shot(page, 'subtract');

    // ---- chess: a piece, then a square ----
    const chess = games.find((g) => g.game === 'chess');
    const fen = '8/8/8/4k3/8/8/8/KR6 w';
    await open(page, `?game=${encodeURIComponent(chess.id)}&position=${encodeURIComponent(fen)}`);
    same('chess: the FEN shown', (await shown(page)).position, fen);
    await checkPosition(page, DATABASE, 'chess KRK');
    await playGame(page, DATABASE, 'chess', [
      async (p, l) => {
        // The rook on b1 to b4, as a person moves it.
        if (!await click(p, '#board [data-square="b1"]', `${l}: pick the rook`)) return false;
        const targets = await p.$$eval('#board button.move[data-square]', (b) => b.map((x) => x.dataset.square));
        check(`${l}: the rook's squares are marked`, targets.includes('b4') && targets.includes('b8') && !targets.includes('a2'), JSON.stringify(targets));
        await checkBoard(p, `${l}: the rook's squares`);
        return click(p, '#board [data-square="b4"]', `${l}: put it on b4`);
      },
      (p, l) => click(p, '#loopy-move', l),
      async (p, l) => {
        if (!await click(p, '#board [data-square="a1"]', `${l}: pick the king`)) return false;
        return click(p, '#board button.move[data-square]', `${l}: move it`);
      },
    ]);
    const chessMoves = await page.$$eval('#moves .name', (n) => n.map((x) => x.textContent));
    same('chess: the moves named in SAN', chessMoves, probe(DATABASE, (await shown(page)).position).moves.map((m) => m.move));
    await undoRedo(page, 'chess');
    await shot(page, 'chess');
    // The FEN is editable: a mate in one typed.
    await page.click('#position', { clickCount: 3 });
    await page.type('#position', 'k7/8/1K6/8/8/8/8/7R w');
    await page.keyboard.press('Enter');
    await idle(page);
    const mate = await shown(page);
    same('chess: a FEN typed opens it', mate.position, 'k7/8/1K6/8/8/8/8/7R w');
    check('chess: mate in 1 said', (await page.$eval('#status', (s) => s.textContent)).includes('mate in 1'),
      await page.$eval('#status', (s) => s.textContent));
    await click(page, '#loopy-move', 'chess: loopy mates');
    const over = await shown(page);
    same('chess: mated, no moves, lost', [over.moves.length, over.value, over.remoteness], [0, 'L', 0]);
    check('chess: no move for loopy after the mate', await page.$eval('#loopy-move', (b) => b.disabled), 'enabled');

    // ---- A phone-sized window ----
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await open(page, '?game=connect4%3A4x4');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check('a phone-sized window: nothing wider than the screen', overflow <= 0, `${overflow} px too wide`);
    await click(page, '#board .columns > :nth-child(1)', 'phone: drop in column 1');
    same('phone: a tap plays', (await shown(page)).points, 2);
    await shot(page, 'phone-connect4');
    await open(page, `?game=${encodeURIComponent(chess.id)}`);
    const chessOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check('a phone-sized window: the chess board fits', chessOverflow <= 0, `${chessOverflow} px too wide`);
    await shot(page, 'phone-chess');

    check('no error in the page (scripts, the content policy)', consoleErrors.length === 0, consoleErrors.join(' | '));
  } finally {
    await browser.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(failures ? 1 : 0), (e) => {
  fail('the browser test', e && e.stack ? e.stack : String(e));
  process.exit(1);
});
