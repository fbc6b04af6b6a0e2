/* app.js - the page of 'loopy serve': a board for each game, every move
 * marked with its value for the mover, the value history of the game
 * played, undo and redo, loopy's move, a position typed or linked.  Every
 * value comes from the server's /api/probe, the JSON of 'loopy game probe
 * -f json'; the page computes none.  No framework, nothing loaded from
 * elsewhere. */
'use strict';

const WORDS = { W: 'win', L: 'lose', T: 'tie', D: 'draw' };
const FLIP = { W: 'L', L: 'W', T: 'T', D: 'D' };

const state = {
  games: [],       // /api/games
  game: null,      // the game shown, one of games
  history: [],     // [{answer, move}]: each position's probe, and the move's name that led there
  index: 0,        // the position shown, in history (redo goes past it)
  selected: null,  // chess: the square of the piece picked
  busy: false,
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === 'class') node.setAttribute('class', value);
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  return node;
}

/* ---- The server ---- */

class ServerError extends Error {}

async function getJson(url) {
  let response;
  try {
    response = await fetch(url, { cache: 'no-store' });
  } catch (e) {
    throw new ServerError('the server did not answer (is loopy serve still running?)');
  }
  let body;
  try {
    body = await response.json();
  } catch (e) {
    throw new ServerError(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new ServerError(body && body.error ? body.error : `status ${response.status}`);
  return body;
}

/* A position's answer: the one object of probe's array. */
async function probe(game, position) {
  let url = '/api/probe?game=' + encodeURIComponent(game.id);
  if (position !== null && position !== undefined) url += '&position=' + encodeURIComponent(position);
  const answer = await getJson(url);
  return answer[0];
}

/* ---- Values in words ---- */

/* "win in 5 (mate in 3)", "draw". */
function valueWords(value, remoteness, note) {
  let words = WORDS[value];
  if (value !== 'D') words += remoteness === 0 ? ' now' : ` in ${remoteness}`;
  if (note) words += ` (${note})`;
  return words;
}

/* "W 5", "D": the value as loopy prints it. */
function valueShort(value, remoteness) {
  return value === 'D' ? 'D' : `${value} ${remoteness}`;
}

/* ---- Positions of each kind of game ---- */

/* A grid game's rows of cells (tic-tac-toe, m,n,k, Connect Four). */
function gridRows(text) {
  return text.split('/');
}

/* Who moves in a grid game: x when both have as many stones. */
function gridMover(text) {
  let x = 0, o = 0;
  for (const c of text) {
    if (c === 'x') x++;
    else if (c === 'o') o++;
  }
  return x > o ? 'o' : 'x';
}

/* The cell (index into the text without '/') where two grid positions
 * differ, or -1 when they differ elsewhere or in more than one cell. */
function changedCell(before, after) {
  const a = before.replace(/\//g, ''), b = after.replace(/\//g, '');
  if (a.length !== b.length) return -1;
  let found = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      if (found >= 0) return -1;
      found = i;
    }
  }
  return found;
}

/* A FEN's board: board[rank 8..1][file a..h], a piece letter or ''. */
function fenBoard(fen) {
  const ranks = fen.trim().split(/\s+/)[0].split('/');
  if (ranks.length !== 8) return null;
  const board = [];
  for (const rank of ranks) {
    const row = [];
    for (const c of rank) {
      if (c >= '1' && c <= '8') for (let k = 0; k < Number(c); k++) row.push('');
      else row.push(c);
    }
    if (row.length !== 8) return null;
    board.push(row);
  }
  return board;
}

function fenSide(fen) {
  const fields = fen.trim().split(/\s+/);
  return fields[1] === 'b' ? 'b' : 'w';
}

const GLYPHS = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659',
                 k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f' };
const PIECE_NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };

function squareName(row, col) {
  return 'abcdefgh'[col] + String(8 - row);
}

/* A chess move's squares, from the boards before and after it.  An
 * en passant capture empties two squares: the one left is the one whose
 * piece now stands on the square reached (or, for a promotion, a pawn of
 * the mover's colour). */
function chessMoveSquares(before, after) {
  const left = [];
  let to = null, toRow = 0, toCol = 0;
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      if (before[r][c] === after[r][c]) continue;
      if (after[r][c] === '') left.push([r, c]);
      else { to = squareName(r, c); toRow = r; toCol = c; }
    }
  }
  if (!to || left.length === 0) return null;
  const moved = after[toRow][toCol];
  const white = moved === moved.toUpperCase();
  const same = left.find(([r, c]) => before[r][c] === moved) ||
    left.find(([r, c]) => before[r][c] === (white ? 'P' : 'p')) || left[0];
  return { from: squareName(same[0], same[1]), to };
}

/* The kind of board a game is drawn on. */
function boardKind(game) {
  switch (game.game) {
    case 'tictactoe': case 'mnk': return 'grid';
    case 'connect4': return 'connect4';
    case 'chess': return 'chess';
    case 'subtract': return 'heap';
    default: return 'text';
  }
}

/* Who moves at a position ("x", "White"), or '' when the page cannot
 * tell. */
function moverName(game, position) {
  switch (boardKind(game)) {
    case 'grid': case 'connect4': return gridMover(position);
    case 'chess': return fenSide(position) === 'w' ? 'White' : 'Black';
    default: return '';
  }
}

/* ---- Playing ---- */

function current() {
  return state.history[state.index].answer;
}

function showError(message) {
  $('error').textContent = message || '';
}

async function run(task) {
  if (state.busy) return;
  state.busy = true;
  document.body.setAttribute('aria-busy', 'true');
  try {
    await task();
    showError('');
  } catch (e) {
    if (!(e instanceof ServerError)) console.error(e);
    showError(e.message);
  } finally {
    state.busy = false;
    document.body.removeAttribute('aria-busy');
    render();
  }
}

/* Opens game at position (null: its start), as a new history. */
function openPosition(game, position) {
  return run(async () => {
    const answer = await probe(game, position);
    state.game = game;
    state.history = [{ answer, move: null }];
    state.index = 0;
    state.selected = null;
  });
}

/* Plays one of the moves of the position shown. */
function play(move) {
  return run(async () => {
    const answer = await probe(state.game, move.to);
    state.history = state.history.slice(0, state.index + 1);
    state.history.push({ answer, move });
    state.index++;
    state.selected = null;
  });
}

function undo() {
  if (state.busy || state.index === 0) return;
  state.index--;
  state.selected = null;
  showError('');
  render();
}

function redo() {
  if (state.busy || state.index + 1 >= state.history.length) return;
  state.index++;
  state.selected = null;
  showError('');
  render();
}

function loopyMove() {
  const moves = current().moves;
  if (moves.length > 0) play(moves[0]); // best first: the quickest win, the slowest loss
}

function startOver() {
  if (state.game) openPosition(state.game, null);
}

/* ---- Drawing ---- */

/* A move's name: the game's own (chess: SAN), else one read off the
 * board (a cell, a column, the tokens taken), else the position after it. */
function moveName(move, from) {
  if (move.move !== undefined) return move.move;
  if (from === undefined) return move.to;
  switch (boardKind(state.game)) {
    case 'grid': case 'connect4': {
      const width = gridRows(from)[0].length;
      const cell = changedCell(from, move.to);
      if (cell < 0) return move.to;
      return boardKind(state.game) === 'connect4' ? `column ${cell % width + 1}`
        : `row ${Math.floor(cell / width) + 1}, column ${cell % width + 1}`;
    }
    case 'heap': {
      const taken = Number(from) - Number(move.to);
      return Number.isSafeInteger(taken) ? `take ${taken}` : move.to;
    }
    default: return move.to;
  }
}

function moveLabel(move) {
  return `${moveName(move, current().position)}: ${valueWords(move.value, move.remoteness, move.note)}`;
}

/* A move's button anywhere on the page: coloured by its value, its value
 * written on it, its name and value read out. */
function moveButton(move, content, extraClass) {
  return el('button', {
    type: 'button', class: `move value-${move.value}${extraClass ? ' ' + extraClass : ''}`,
    'data-to': move.to, 'data-value': move.value,
    'data-remoteness': move.remoteness === null ? '' : String(move.remoteness),
    'aria-label': moveLabel(move), title: moveLabel(move),
    onclick: () => play(move),
  }, ...content);
}

function renderGrid(board, answer, connect4) {
  const rows = gridRows(answer.position);
  const width = rows[0].length;
  const byCell = new Map();
  const byColumn = new Map();
  for (const move of answer.moves) {
    const cell = changedCell(answer.position, move.to);
    if (cell < 0) continue;
    byCell.set(cell, move);
    byColumn.set(cell % width, move);
  }
  if (connect4) {
    const columns = el('div', { class: 'columns', role: 'group', 'aria-label': 'Drop in a column' });
    columns.style.gridTemplateColumns = `repeat(${width}, 1fr)`;
    for (let c = 0; c < width; c++) {
      const move = byColumn.get(c);
      columns.append(move
        ? moveButton(move, [el('span', { text: String(c + 1) }), el('br'), el('span', { class: 'tag', text: valueShort(move.value, move.remoteness) })], 'column')
        : el('button', { type: 'button', class: 'column', disabled: true, 'aria-label': `column ${c + 1}: no move`, text: String(c + 1) }));
    }
    board.append(columns);
  }
  const grid = el('div', { class: connect4 ? 'grid connect4' : 'grid', role: 'grid', 'aria-label': `${rows.length} by ${width} board` });
  grid.style.gridTemplateColumns = `repeat(${width}, 1fr)`;
  rows.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      const index = r * width + c;
      const stone = row[c];
      const name = `row ${r + 1}, column ${c + 1}`;
      const move = connect4 ? null : byCell.get(index);
      if (move) {
        grid.append(moveButton(move, [el('span', { class: 'tag', text: valueShort(move.value, move.remoteness) })], 'cell'));
      } else {
        const landing = connect4 && byCell.has(index) ? byCell.get(index) : null;
        grid.append(el('div', {
          class: `cell${stone === '.' ? '' : ' stone-' + stone}${landing ? ' landing' : ''}`,
          role: 'gridcell', 'aria-label': `${name}: ${stone === '.' ? 'empty' : stone}`,
        }, el('span', { class: 'piece', text: stone === '.' ? '' : stone })));
      }
    }
  });
  board.append(grid);
}

function renderChess(board, answer) {
  const squares = fenBoard(answer.position);
  if (!squares) {
    renderText(board, answer);
    return;
  }
  const moves = [];
  for (const move of answer.moves) {
    const after = fenBoard(move.to);
    const where = after && chessMoveSquares(squares, after);
    if (where) moves.push({ move, from: where.from, to: where.to });
  }
  const froms = new Set(moves.map((m) => m.from));
  const targets = new Map();
  if (state.selected) for (const m of moves) if (m.from === state.selected) targets.set(m.to, m.move);
  const grid = el('div', { class: 'chess', role: 'grid', 'aria-label': 'Chess board, white at the bottom' });
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      const name = squareName(r, c);
      const piece = squares[r][c];
      const shade = (r + c) % 2 === 0 ? 'light' : 'dark';
      const described = piece ? `${name}: ${piece === piece.toUpperCase() ? 'white' : 'black'} ${PIECE_NAMES[piece.toUpperCase()]}` : `${name}: empty`;
      const target = targets.get(name);
      const content = [el('span', { class: 'piece', 'aria-hidden': 'true', text: piece ? GLYPHS[piece] : '' })];
      if (target) {
        content.push(el('span', { class: `tag value-${target.value}`, text: valueShort(target.value, target.remoteness) }));
        const button = moveButton(target, content, `square ${shade}`);
        button.setAttribute('data-square', name);
        button.setAttribute('aria-label', `${name}: ${moveLabel(target)}`);
        grid.append(button);
      } else if (froms.has(name)) {
        grid.append(el('button', {
          type: 'button', class: `square ${shade} from${state.selected === name ? ' selected' : ''}`,
          'data-square': name, 'aria-pressed': state.selected === name ? 'true' : 'false',
          'aria-label': `${described}: pick it to move`,
          onclick: () => { state.selected = state.selected === name ? null : name; render(); focusSquare(name); },
        }, ...content));
      } else {
        grid.append(el('div', { class: `square ${shade}`, role: 'gridcell', 'data-square': name, 'aria-label': described }, ...content));
      }
    }
  }
  board.append(grid);
  const files = el('div', { class: 'files', 'aria-hidden': 'true' });
  for (const f of 'abcdefgh') files.append(el('span', { text: f }));
  board.append(files);
}

function focusSquare(name) {
  const square = document.querySelector(`#board [data-square="${name}"]`);
  if (square && square.focus) square.focus();
}

function renderHeap(board, answer) {
  const tokens = Number(answer.position);
  if (!Number.isSafeInteger(tokens) || tokens < 0) {
    renderText(board, answer);
    return;
  }
  const heap = el('div', { class: 'heap', role: 'img', 'aria-label': `a heap of ${tokens}` });
  for (let k = 0; k < Math.min(tokens, 200); k++) heap.append(el('span', { class: 'token' }));
  board.append(el('p', { text: `${tokens} token${tokens === 1 ? '' : 's'} in the heap${tokens > 200 ? ' (200 drawn)' : ''}` }), heap);
  const moves = el('div', { class: 'heap-moves', role: 'group', 'aria-label': 'Take' });
  for (const move of answer.moves) {
    const take = tokens - Number(move.to);
    moves.append(moveButton(move, [`take ${take} `, el('span', { class: 'tag', text: valueShort(move.value, move.remoteness) })]));
  }
  board.append(moves);
}

function renderText(board, answer) {
  board.append(el('p', { class: 'text-position', text: answer.position }));
}

function renderBoard(answer) {
  const board = $('board');
  board.replaceChildren();
  board.setAttribute('data-kind', boardKind(state.game));
  switch (boardKind(state.game)) {
    case 'grid': renderGrid(board, answer, false); break;
    case 'connect4': renderGrid(board, answer, true); break;
    case 'chess': renderChess(board, answer); break;
    case 'heap': renderHeap(board, answer); break;
    default: renderText(board, answer);
  }
}

function renderMoves(answer) {
  const list = $('moves');
  list.replaceChildren();
  answer.moves.forEach((move, i) => {
    const content = [
      el('span', { class: 'swatch', text: valueShort(move.value, move.remoteness) }), ' ',
      el('span', { class: 'name', text: moveName(move, answer.position) }), ' ',
      el('span', { class: 'words', text: valueWords(move.value, move.remoteness, move.note) }),
    ];
    list.append(el('li', {}, moveButton(move, content, i === 0 ? 'best' : '')));
  });
  if (answer.moves.length === 0) list.append(el('li', { class: 'quiet', text: 'No moves: the game is over.' }));
}

function renderStatus(answer) {
  const mover = moverName(state.game, answer.position) || 'the player to move';
  const value = valueWords(answer.value, answer.remoteness, answer.note);
  let text;
  if (answer.moves.length === 0) {
    text = answer.value === 'T' ? 'Game over: a tie.'
      : answer.value === 'L' ? `Game over: ${mover} has lost.`
        : answer.value === 'W' ? `Game over: ${mover} has won.` : 'Game over.';
  } else {
    text = moverName(state.game, answer.position) ? `${mover[0].toUpperCase()}${mover.slice(1)} to move: ${value}.`
      : `The player to move: ${value}.`;
    if (answer.value === 'D') text += ' Play can go on forever.';
  }
  if (answer.misere) text += ' (misere play)';
  const status = $('status');
  status.replaceChildren(el('span', { class: `swatch value-${answer.value}`, text: valueShort(answer.value, answer.remoteness) }), ' ', text);
  status.setAttribute('data-value', answer.value);
  status.setAttribute('data-remoteness', answer.remoteness === null ? '' : String(answer.remoteness));
}

/* The value history: a row per position of the game so far, top to
 * bottom; the player who moved first in it wins on the left, the other on
 * the right, nearer the edge the sooner (remoteness 0 at the edge); ties
 * and draws on the centre line.  Each point is coloured by the value for
 * the player to move there, each segment by the value of the move made
 * for its mover: a blunder is a segment that crosses to the other side. */
function renderChart() {
  const shown = state.history.slice(0, state.index + 1);
  const first = moverName(state.game, shown[0].answer.position);
  const other = { x: 'o', o: 'x', White: 'Black', Black: 'White' }[first] || 'the other player';
  const firstName = first || 'the first to move';
  let most = 1;
  for (const entry of shown) if (entry.answer.remoteness !== null) most = Math.max(most, entry.answer.remoteness);
  const width = 360, row = 22, top = 34, margin = 24;
  const half = width / 2 - margin;
  const height = top + row * shown.length + 8;
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-points': String(shown.length),
    'aria-label': `Value history of ${shown.length} position${shown.length === 1 ? '' : 's'}: left, ${firstName} wins; right, ${other} wins; centre, tie or draw`,
  });
  chart.append(svg('text', { x: margin, y: 12, text: `\u2190 ${firstName} wins` }));
  chart.append(svg('text', { x: width - margin, y: 12, 'text-anchor': 'end', text: `${other} wins \u2192` }));
  chart.append(svg('text', { x: width / 2, y: 26, 'text-anchor': 'middle', text: 'tie / draw' }));
  chart.append(svg('line', { class: 'centre', x1: width / 2, x2: width / 2, y1: top - 4, y2: height }));
  chart.append(svg('line', { class: 'axis', x1: margin, x2: margin, y1: top - 4, y2: height }));
  chart.append(svg('line', { class: 'axis', x1: width - margin, x2: width - margin, y1: top - 4, y2: height }));
  const points = shown.map((entry, i) => {
    const answer = entry.answer;
    // The value for the player who moved first in this game.
    const forFirst = i % 2 === 0 ? answer.value : FLIP[answer.value];
    const step = half / (most + 1);
    let x = width / 2;
    if (forFirst === 'W') x = margin + answer.remoteness * step;
    else if (forFirst === 'L') x = width - margin - answer.remoteness * step;
    return { x, y: top + row * i + row / 2, answer };
  });
  for (let i = 1; i < points.length; i++) {
    const move = shown[i].move;
    chart.append(svg('line', {
      class: `move move-${move.value}`, x1: points[i - 1].x, y1: points[i - 1].y, x2: points[i].x, y2: points[i].y,
    }));
  }
  points.forEach((p, i) => {
    chart.append(svg('text', { x: 2, y: p.y + 4, text: String(i) }));
    const dot = svg('circle', {
      class: `value-${p.answer.value}`, cx: p.x, cy: p.y, r: i === state.index ? 6 : 4.5,
      'data-value': p.answer.value, 'data-remoteness': p.answer.remoteness === null ? '' : String(p.answer.remoteness),
    });
    dot.append(svg('title', { text: `${i}: ${p.answer.position}: ${valueShort(p.answer.value, p.answer.remoteness)}` }));
    chart.append(dot);
  });
  $('chart').replaceChildren(chart);

  const list = $('history');
  list.replaceChildren();
  state.history.forEach((entry, i) => {
    const answer = entry.answer;
    const text = i === 0 ? `start ${answer.position}: ${valueShort(answer.value, answer.remoteness)}`
      : `${moveName(entry.move, state.history[i - 1].answer.position)} (${valueShort(entry.move.value, entry.move.remoteness)} for the mover): ${valueShort(answer.value, answer.remoteness)}`;
    list.append(el('li', { class: i === state.index ? 'current' : i > state.index ? 'quiet' : '', text }));
  });
}

function render() {
  if (!state.game || state.history.length === 0) return;
  const answer = current();
  renderStatus(answer);
  renderBoard(answer);
  renderMoves(answer);
  renderChart();
  const input = $('position');
  if (document.activeElement !== input || !input.value) input.value = answer.position;
  $('undo').disabled = state.index === 0;
  $('redo').disabled = state.index + 1 >= state.history.length;
  $('loopy-move').disabled = answer.moves.length === 0;
  $('game').value = state.game.id;
  $('source').textContent = state.game.source === 'database'
    ? `from the database ${state.game.file}` : 'solved by loopy serve at start';
  $('notation').textContent = state.game.notation ? `Positions: ${state.game.notation}` : '';
  document.title = `loopy: ${state.game.id}`;
  // The position is in the URL: a link opens it again.
  const url = `?game=${encodeURIComponent(state.game.id)}&position=${encodeURIComponent(answer.position)}`;
  if (window.location.search !== url) window.history.replaceState(null, '', url);
}

/* ---- Start ---- */

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
  switch (event.key) {
    case 'u': undo(); break;
    case 'r': redo(); break;
    case 'm': loopyMove(); break;
    case 's': startOver(); break;
    default: return;
  }
  event.preventDefault();
}

async function start() {
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('loopy-move').addEventListener('click', loopyMove);
  $('start-over').addEventListener('click', startOver);
  document.addEventListener('keydown', onKey);
  $('position-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('position').value.trim();
    if (state.game) openPosition(state.game, text === '' ? null : text);
  });
  $('game').addEventListener('change', () => {
    const game = state.games.find((g) => g.id === $('game').value);
    if (game) {
      $('position').value = '';
      openPosition(game, null);
    }
  });
  try {
    state.games = await getJson('/api/games');
  } catch (e) {
    $('status').textContent = 'No games: ' + e.message;
    return;
  }
  for (const game of state.games) {
    $('game').append(el('option', { value: game.id, text: game.misere ? `${game.id} (misere)` : game.id }));
  }
  const params = new URLSearchParams(window.location.search);
  const game = state.games.find((g) => g.id === params.get('game')) || state.games[0];
  if (!game) {
    $('status').textContent = 'This server serves no game.';
    return;
  }
  state.game = game;
  await openPosition(game, params.has('position') ? params.get('position') : null);
  if (state.history.length === 0 && params.has('position')) {
    // A link to a position that is not one: the error stays, the start shows.
    const message = $('error').textContent;
    await openPosition(game, null);
    showError(message);
  }
}

start();
