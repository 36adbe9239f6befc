// The game database shared by replicas, from a client's side: imports
// through one replica (or the balancer) and reads through another, for
// tests/e2e/database_replicas_test.sh.
//
//   node database_replicas.js import ADDRESS GAMES FIRST COUNT SOURCE [OPTIONS]
//     Imports games FIRST .. FIRST+COUNT-1 of GAMES (a JSON array of
//     records, `scribe play --games`) in one ImportGames stream, PER records
//     a message (FIRST a multiple of PER): message k holds games k*PER ..
//     k*PER+PER-1 as a JSON array, its source "SOURCE/k", so its records are
//     that source's records 0..PER-1 whatever the stream they travel in.
//     Each message is written once the one before it has gone (the call's
//     flow control). OPTIONS:
//       --per N            records a message (default 20)
//       --start-file F     once the games are read, print "ready" and wait
//                          for the file F before starting (clients started
//                          together start their streams at the same time)
//       --hold-after N     once N games are written (the stream still
//                          open), wait until ListGames through --watch
//                          (default ADDRESS) says total_size >=
//                          --hold-total, print "holding sent=N total=T",
//                          and wait for the file --go-file; then write the
//                          rest, or with --stop-after M until M games are
//                          written in all, the stream left open (not
//                          half-closed) until the call ends
//       --retry ADDRESS    when the call fails, send the same whole set
//                          again through ADDRESS (backoff 0.2 s doubling to
//                          2 s, at most 20 tries) until it is answered OK;
//                          with --retry-file F, not before the file F is
//                          there (the caller looks at the database first)
//     Prints a line an attempt (start, end: ms since the epoch):
//       attempt n=1 address=A sent=N start=MS end=MS code=UNAVAILABLE message="..."
//       attempt n=2 address=A sent=N start=MS end=MS code=OK records=N added=N
//               new_sources=N known_sources=N duplicates=N rejected=N
//     Exits 0 when the last attempt was answered OK.
//
//   node database_replicas.js read ADDRESS [PLAYER]
//     Reads the database through ADDRESS and prints one line:
//       read total=N first_id=N get_ok=0|1 get_sources=N get_source=S#R
//            explore_games=N explore_moves=N player_total=N light_wins=N
//            dark_wins=N player_games=N
//     total: ListGames' total_size; first_id: the first game (by id); get_ok:
//     GetGame of it answers that game with its text; get_sources: its
//     sources, get_source: they as source#record; explore_*: the start
//     position's games and the sum of its moves' games (every game makes a
//     first move); player_total: ListGames with the filter player=PLAYER
//     (default "random", both sides of `scribe play`'s games);
//     light_wins, dark_wins: ListGames by winner; player_games: GetPlayer.
//
//   node database_replicas.js sources ADDRESS N
//     The N games stored last (by id), each with GetGame:
//       sources games=N records=R two=T most=M
//     R: their (source, record) pairs in all; T: the games with two; M: the
//     most any game has.
//
//   node database_replicas.js total ADDRESS
//     Prints ListGames' total_size alone.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const loadOptions = {
  keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [path.join(ROOT, 'proto'), '/usr/share/grpc-proto', '/usr/include'],
};
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/game_database.proto', loadOptions));
const codeName = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));
const clients = new Map();
function client(address) {
  if (!clients.has(address)) {
    clients.set(address, new scribe.scribe.v1.GameDatabase(address, grpc.credentials.createInsecure(),
      { 'grpc.enable_retries': 0 }));
  }
  return clients.get(address);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const unary = (address, method, request) => new Promise((resolve, reject) =>
  client(address)[method](request, { deadline: Date.now() + 30000 }, (e, r) => (e ? reject(e) : resolve(r))));
const describe = (e) => `code=${codeName[e.code] || e.code} message=${JSON.stringify(e.details || e.message)}`;

function usage() {
  console.error('usage: node database_replicas.js import ADDRESS GAMES FIRST COUNT SOURCE [OPTIONS]\n' +
                '       node database_replicas.js read ADDRESS [PLAYER]\n' +
                '       node database_replicas.js sources ADDRESS N\n' +
                '       node database_replicas.js total ADDRESS');
  process.exit(2);
}

function options(args) {
  const o = { per: 20, startFile: '', holdAfter: 0, holdTotal: 0, watch: '', goFile: '', stopAfter: 0, retry: '',
              retryFile: '' };
  for (let i = 0; i < args.length; i += 2) {
    const value = args[i + 1];
    if (value === undefined) usage();
    switch (args[i]) {
      case '--per': o.per = Number(value); break;
      case '--start-file': o.startFile = value; break;
      case '--hold-after': o.holdAfter = Number(value); break;
      case '--hold-total': o.holdTotal = Number(value); break;
      case '--watch': o.watch = value; break;
      case '--go-file': o.goFile = value; break;
      case '--stop-after': o.stopAfter = Number(value); break;
      case '--retry': o.retry = value; break;
      case '--retry-file': o.retryFile = value; break;
      default: usage();
    }
  }
  if (o.holdAfter > 0 && !o.goFile) usage();
  return o;
}

const waitForFile = async (file) => { while (!fs.existsSync(file)) await sleep(20); };

// One ImportGames stream of `messages` through `address`; `hold` (the
// first attempt's) pauses it once `hold.after` games are written, and stops
// it (open) at `hold.stop` games. Resolves to [error, response, games
// written, start].
function importOnce(address, messages, hold) {
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    let stop = 0;
    const start = Date.now();
    const call = client(address).ImportGames({ deadline: Date.now() + 120000 }, (e, r) => {
      settled = true;
      resolve([e, r, sent, start]);
    });
    call.on('error', () => {});  // the callback has it
    const write = (message) => new Promise((done) => call.write(message, () => done()));
    (async () => {
      for (const m of messages) {
        if (settled) return;
        if (hold && sent >= hold.after) {
          const held = hold;
          hold = null;
          await held.wait(sent);
          if (settled) return;
          if (held.stop > 0) stop = held.stop;
        }
        if (stop > 0 && sent >= stop) return;  // (open, until the call ends)
        await write({ input: { text: Buffer.from(m.text) }, source: m.source });
        sent += m.games;
      }
      if (!settled) call.end();
    })().catch((e) => { console.error(`import: ${e.stack || e}`); process.exit(1); });
  });
}

async function importCommand(args) {
  const [address, gamesFile, firstArg, countArg, source, ...rest] = args;
  const first = Number(firstArg), count = Number(countArg);
  if (!address || !gamesFile || !(first >= 0) || !(count > 0) || !source) usage();
  const o = options(rest);
  if (first % o.per !== 0) usage();
  const games = JSON.parse(fs.readFileSync(gamesFile, 'utf8'));
  if (first + count > games.length) {
    console.error(`import: ${gamesFile} has ${games.length} games, not ${first + count}`);
    process.exit(2);
  }
  const messages = [];
  for (let i = first; i < first + count; i += o.per) {
    const records = games.slice(i, Math.min(i + o.per, first + count));
    messages.push({ text: JSON.stringify(records), source: `${source}/${i / o.per}`, games: records.length });
  }
  let hold = null;
  if (o.holdAfter > 0) {
    hold = {
      after: o.holdAfter,
      stop: o.stopAfter,
      // Until the database holds what the caller waits for (at most 60 s),
      // then until the caller says go.
      wait: async (sent) => {
        let total = -1;
        for (const end = Date.now() + 60000; Date.now() < end; await sleep(100)) {
          total = Number((await unary(o.watch || address, 'ListGames', { page_size: 1 })).total_size);
          if (total >= o.holdTotal) break;
        }
        console.log(`holding sent=${sent} total=${total}`);
        await waitForFile(o.goFile);
      },
    };
  }
  if (o.startFile) {
    console.log('ready');
    await waitForFile(o.startFile);
  }
  let target = address;
  let backoff = 200;
  for (let attempt = 1; attempt <= 20; attempt++) {
    const [e, r, sent, start] = await importOnce(target, messages, attempt === 1 ? hold : null);
    const head = `attempt n=${attempt} address=${target} sent=${sent} start=${start} end=${Date.now()}`;
    if (!e) {
      console.log(`${head} code=OK records=${r.records} added=${r.added} new_sources=${r.new_sources} ` +
                  `known_sources=${r.known_sources} duplicates=${r.duplicates} rejected=${r.rejected}`);
      for (const x of r.rejections.slice(0, 5)) console.log(`    rejected: ${JSON.stringify(x)}`);
      return 0;
    }
    console.log(`${head} ${describe(e)}`);
    if (!o.retry) return 1;
    if (o.retryFile) await waitForFile(o.retryFile);
    target = o.retry;
    await sleep(backoff);
    backoff = Math.min(2 * backoff, 2000);
  }
  return 1;
}

async function readCommand(args) {
  const [address, player = 'random'] = args;
  if (!address) usage();
  const total = async (filter) => Number((await unary(address, 'ListGames', { filter, page_size: 1 })).total_size);
  const list = await unary(address, 'ListGames', { page_size: 1, order: 'GAME_ORDER_ID' });
  const out = { total: Number(list.total_size), first_id: -1, get_ok: 0, get_sources: 0 };
  if (list.games.length > 0) {
    out.first_id = Number(list.games[0].id);
    const game = await unary(address, 'GetGame', { id: out.first_id });
    out.get_ok = Number(Number(game.game.id) === out.first_id && game.text.length > 0 &&
                        game.game.plies === list.games[0].plies);
    out.get_sources = game.sources.length;
    out.get_source = game.sources.map((x) => `${x.source}#${x.record}`).join(',') || '-';
  }
  const explored = await unary(address, 'ExplorePosition', { position: '' });
  out.explore_games = Number(explored.games);
  out.explore_moves = explored.moves.reduce((n, m) => n + Number(m.games), 0);
  out.player_total = await total({ player });
  out.light_wins = await total({ winner: 'LIGHT' });
  out.dark_wins = await total({ winner: 'DARK' });
  try {
    out.player_games = Number((await unary(address, 'GetPlayer', { name: player })).games);
  } catch (e) {
    out.player_games = `${codeName[e.code] || e.code}`;
  }
  console.log(`read ${Object.entries(out).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  return 0;
}

async function sourcesCommand(args) {
  const [address, n] = args;
  if (!address || !(Number(n) > 0)) usage();
  const list = await unary(address, 'ListGames', { page_size: Number(n), order: 'GAME_ORDER_ID', descending: true });
  let records = 0, two = 0, most = 0;
  for (const g of list.games) {
    const k = (await unary(address, 'GetGame', { id: g.id })).sources.length;
    records += k;
    if (k === 2) two++;
    most = Math.max(most, k);
  }
  console.log(`sources games=${list.games.length} records=${records} two=${two} most=${most}`);
  return 0;
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  try {
    if (command === 'import') return await importCommand(args);
    if (command === 'read') return await readCommand(args);
    if (command === 'sources') return await sourcesCommand(args);
    if (command === 'total' && args[0]) {
      console.log(Number((await unary(args[0], 'ListGames', { page_size: 1 })).total_size));
      return 0;
    }
  } catch (e) {
    console.log(`error ${describe(e)}`);
    return 1;
  }
  usage();
  return 2;
}

main().then((code) => {
  for (const c of clients.values()) c.close();
  process.exit(code);
});
