// A client no one here wrote: Node's @grpc/grpc-js drives the real scribed
// binary over loopback through every method, health checking, server
// reflection and a graceful SIGTERM.
//
// Usage: SCRIBED=path/to/scribed node --test client_test.js
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCRIBED = process.env.SCRIBED || path.join(ROOT, 'build', 'service', 'scribed');
const GRPC_PROTOS = '/usr/share/grpc-proto';
const EXAMPLE_PATH = path.join(ROOT, 'examples', 'finkel-game.json');
const EXAMPLE = fs.readFileSync(EXAMPLE_PATH);

const loadOptions = {
  keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [path.join(ROOT, 'proto'), GRPC_PROTOS, '/usr/include'],
};
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync(
  ['scribe/v1/scribe_service.proto', 'google/rpc/status.proto', 'google/rpc/error_details.proto'],
  loadOptions));
const health = grpc.loadPackageDefinition(protoLoader.loadSync('grpc/health/v1/health.proto', loadOptions));
const reflection = grpc.loadPackageDefinition(
  protoLoader.loadSync('grpc/reflection/v1alpha/reflection.proto', loadOptions));

// Starts scribed on a free loopback port; resolves with { proc, address }.
function startServer(extraArgs = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(SCRIBED, ['--listen', '127.0.0.1:0', '--metrics-interval-seconds', '0', ...extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error('scribed did not start: ' + out)), 20000);
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on port (\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, address: `127.0.0.1:${m[1]}` });
      }
    });
    proc.stderr.on('data', () => {});
    proc.on('exit', (code) => reject(new Error(`scribed exited with ${code}: ${out}`)));
  });
}

function call(client, method, request, options = {}) {
  return new Promise((resolve, reject) => {
    client[method](request, new grpc.Metadata(), options, (err, response) => (err ? reject(err) : resolve(response)));
  });
}

// The google.rpc.BadRequest field violations in an error's trailer.
const protobuf = require('protobufjs');
const rpcRoot = new protobuf.Root().loadSync([path.join(ROOT, 'proto/google/rpc/status.proto'),
  path.join(ROOT, 'proto/google/rpc/error_details.proto')], { keepCase: true });
function fieldViolations(err) {
  const bin = err.metadata.get('grpc-status-details-bin')[0];
  assert.ok(bin, 'the error carries google.rpc.Status details');
  const status = rpcRoot.lookupType('google.rpc.Status').decode(bin);
  const detail = status.details.find((d) => d.type_url.endsWith('google.rpc.BadRequest'));
  assert.ok(detail, 'a BadRequest among the details');
  return rpcRoot.lookupType('google.rpc.BadRequest').decode(detail.value).field_violations;
}

let server;
let client;

before(async () => {
  server = await startServer();
  client = new scribe.scribe.v1.ScribeService(server.address, grpc.credentials.createInsecure());
});

after(() => {
  client.close();
  if (server.proc.exitCode === null) server.proc.kill('SIGKILL');
});

test('ListRulesets pages through every preset', async () => {
  const ids = [];
  let token = '';
  do {
    const page = await call(client, 'ListRulesets', { page_size: 4, page_token: token });
    for (const r of page.rulesets) {
      assert.match(r.digest, /^[0-9a-f]{16}$/);
      ids.push(r.id);
    }
    token = page.next_page_token || '';
  } while (token);
  assert.deepEqual(ids, ['finkel', 'finkel-blank4', 'masters', 'blitz', 'sawah', 'sawah-tablet',
    'sawah-marks', 'turnover', 'murray', 'skiriuk']);
});

test('GetRuleset resolves aliases and overrides, NOT_FOUND for none', async () => {
  const aseb = await call(client, 'GetRuleset', { ruleset: { reference: 'aseb' } });
  assert.equal(aseb.ruleset.pieces, 5);
  const five = await call(client, 'GetRuleset', { ruleset: { reference: 'finkel(pieces=5)' } });
  assert.equal(five.ruleset.pieces, 5);
  await assert.rejects(call(client, 'GetRuleset', { ruleset: { reference: 'no-such-rules' } }),
    (err) => err.code === grpc.status.NOT_FOUND);
  await assert.rejects(call(client, 'GetRuleset', { ruleset: { text: 'pieces: 0\nfoo: 1\n' } }), (err) => {
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    assert.ok(fieldViolations(err).length >= 2, 'every problem is a field violation');
    return true;
  });
});

test('ValidateRecord: a legal game, a broken one, and garbage', async () => {
  const ok = await call(client, 'ValidateRecord', { input: { text: EXAMPLE } });
  assert.equal(ok.valid, true);
  const broken = await call(client, 'ValidateRecord',
    { input: { text: Buffer.from('[Ruleset "finkel"]\n\n1. L 3:0-3\n2. D 2:0-5\n') } });
  assert.equal(broken.valid, false);
  assert.equal(broken.findings[0].code, 'move-roll-mismatch');
  assert.equal(broken.findings[0].line, 4);
  const garbage = await call(client, 'ValidateRecord', { input: { text: Buffer.from([0, 255, 1, 2]) } });
  assert.equal(garbage.valid, false);
  await assert.rejects(call(client, 'ValidateRecord',
    { input: { text: EXAMPLE, ruleset: { reference: '../../etc/passwd' } } }), (err) => {
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    assert.equal(fieldViolations(err)[0].field, 'input.ruleset.reference');
    return true;
  });
});

test('ValidateRecords streams one result per record, in order', async () => {
  const stream = client.ValidateRecords();
  const results = [];
  const done = new Promise((resolve, reject) => {
    stream.on('data', (r) => results.push(r));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const n = 200;
  for (let i = 0; i < n; i++) {
    stream.write({ id: `id-${i}`, input: { text: i % 2 ? EXAMPLE : Buffer.from('not a record') } });
  }
  stream.end();
  await done;
  assert.equal(results.length, n);
  results.forEach((r, i) => {
    assert.equal(r.id, `id-${i}`);
    assert.equal(r.valid, i % 2 === 1);
  });
});

test('ReplayRecord and ConvertRecord', async () => {
  const replay = await call(client, 'ReplayRecord', { input: { text: EXAMPLE } });
  assert.equal(replay.replays.length, 1);
  assert.equal(replay.replays[0].winner, 'LIGHT');
  const tsn = await call(client, 'ConvertRecord', { input: { text: EXAMPLE }, to: 'RECORD_FORMAT_TSN' });
  assert.match(tsn.text, /^\[TSN "1"\]\n\[Ruleset "finkel"\]/);
  const back = await call(client, 'ConvertRecord', { input: { text: Buffer.from(tsn.text) }, to: 'RECORD_FORMAT_JSON' });
  assert.equal(back.records[0].actions.length, JSON.parse(EXAMPLE).actions.length);
  await assert.rejects(call(client, 'ReplayRecord', { input: { text: Buffer.from('{"ruleset":"finkel","actions":[{"roll":9}]}') } }),
    (err) => err.code === grpc.status.INVALID_ARGUMENT);
});

test('AnnotateRecord says what every move did', async () => {
  const annotated = await call(client, 'AnnotateRecord', { input: { text: EXAMPLE }, text_format: 'RECORD_FORMAT_TSN' });
  assert.match(annotated.text, /\[%did /);
  assert.equal(annotated.annotations.length, 1);
  assert.equal(annotated.annotations[0].actions.length, JSON.parse(EXAMPLE).actions.length);
  const valued = await call(client, 'AnnotateRecord', { input: { text: EXAMPLE }, winning_chances: { depth: 1 } });
  const a = valued.annotations[0];
  assert.match(a.evaluator, /search depth 1/);
  assert.equal(a.exact, false);
  assert.equal(a.light_chance.length, a.actions.length + 1);
});

test('the referee: legal moves, a move, a pass', async () => {
  const legal = await call(client, 'ListLegalMoves', { ruleset: { reference: 'finkel' }, roll: 4 });
  assert.deepEqual(legal.moves.map((m) => [m.from || 0, m.to]), [[0, 4]]);
  const made = await call(client, 'MakeMove', { ruleset: { reference: 'finkel' }, roll: 4, move: { from: 0, to: 4 } });
  assert.equal(made.extra_roll, true);
  assert.equal(made.position, '6:...1..........:0/7:..............:0 L');
  const passed = await call(client, 'MakeMove', { ruleset: { reference: 'finkel' }, position: made.position, roll: 0 });
  assert.equal(passed.next_player, 'DARK');
  await assert.rejects(call(client, 'MakeMove',
    { ruleset: { reference: 'finkel' }, position: made.position, roll: 2, move: { from: 4, to: 7 } }),
  (err) => err.code === grpc.status.INVALID_ARGUMENT && /expected one of 0->2, 4->6/.test(err.details));
});

test('SuggestMoves ranks a throw\'s moves by a search and plays a computer opponent', async () => {
  const mid = '5:...1...1......:0/6:......1.......:0 D';
  const request = { ruleset: { reference: 'finkel' }, position: mid, roll: 3, evaluation: { depth: 1 }, strength: 'search:1' };
  const res = await call(client, 'SuggestMoves', request);
  assert.equal(res.exact, false, 'no table loaded: an estimate');
  assert.match(res.evaluator, /search depth 1/);
  assert.equal(res.player, 'DARK');
  assert.match(res.ruleset_digest, /^[0-9a-f]{16}$/);
  // The moves are ListLegalMoves' moves, in the same notation, best first.
  const legal = await call(client, 'ListLegalMoves', { ruleset: { reference: 'finkel' }, position: mid, roll: 3 });
  const key = (m) => `${m.from || 0}-${m.to}`;
  assert.deepEqual(res.moves.map((m) => key(m.move)).sort(), legal.moves.map(key).sort());
  assert.ok(res.moves.length >= 2);
  res.moves.forEach((m, i) => {
    assert.ok(m.chance >= 0 && m.chance <= 1, `chance ${m.chance}`);
    if (i > 0) assert.ok(res.moves[i - 1].chance >= m.chance, 'best first');
  });
  // search:1 plays the best move by the same search.
  assert.equal(res.strength, 'search:1');
  assert.equal(key(res.chosen_move), key(res.moves[0].move));
  // Exact values need a table this server has not loaded; a bad strength
  // is a field violation.
  await assert.rejects(call(client, 'SuggestMoves', { ...request, evaluation: { mode: 'EVALUATION_MODE_EXACT' } }),
    (err) => err.code === grpc.status.FAILED_PRECONDITION);
  await assert.rejects(call(client, 'SuggestMoves', { ...request, strength: 'grandmaster' }), (err) => {
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    assert.equal(fieldViolations(err)[0].field, 'strength');
    return true;
  });
});

test('scribed refuses to start with a table it cannot use', async () => {
  for (const table of ['/nonexistent/finkel.tbl', EXAMPLE_PATH]) {
    const proc = spawn(SCRIBED, ['--listen', '127.0.0.1:0', '--table', table], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (chunk) => { err += chunk; });
    const code = await new Promise((resolve) => proc.on('exit', resolve));
    assert.equal(code, 2, err);
    const lines = err.trim().split('\n');
    assert.equal(lines.length, 1, err);
    assert.ok(lines[0].includes(`ERROR scribed: --table ${table}: `), lines[0]);
  }
});

test('health checking says SERVING', async () => {
  const checker = new health.grpc.health.v1.Health(server.address, grpc.credentials.createInsecure());
  const res = await call(checker, 'Check', { service: '' });
  assert.equal(res.status, 'SERVING');
  checker.close();
});

test('reflection lists the service', async () => {
  const refl = new reflection.grpc.reflection.v1alpha.ServerReflection(server.address, grpc.credentials.createInsecure());
  const stream = refl.ServerReflectionInfo();
  const reply = new Promise((resolve, reject) => {
    stream.on('data', resolve);
    stream.on('error', reject);
  });
  stream.write({ list_services: '' });
  const res = await reply;
  stream.end();
  const names = res.list_services_response.service.map((s) => s.name);
  assert.ok(names.includes('scribe.v1.ScribeService'), names.join(','));
  refl.close();
});

test('SIGTERM: calls in flight finish, then the server exits 0', async () => {
  const own = await startServer(['--shutdown-grace-seconds', '20']);
  const c = new scribe.scribe.v1.ScribeService(own.address, grpc.credentials.createInsecure());
  const stream = c.ValidateRecords();
  const results = [];
  const done = new Promise((resolve, reject) => {
    stream.on('data', (r) => results.push(r));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const exited = new Promise((resolve) => own.proc.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 10; i++) stream.write({ id: `a${i}`, input: { text: EXAMPLE } });
  await new Promise((r) => setTimeout(r, 200));
  own.proc.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < 10; i++) stream.write({ id: `b${i}`, input: { text: EXAMPLE } });
  stream.end();
  await done;
  assert.equal(results.length, 20, 'every record sent on the accepted call was answered');
  assert.equal(await exited, 0);
  c.close();
});

test('SIGTERM with a health Watch open: the watcher hears NOT_SERVING, the watch ends, the server exits at once', async () => {
  const own = await startServer(['--shutdown-grace-seconds', '20']);
  const checker = new health.grpc.health.v1.Health(own.address, grpc.credentials.createInsecure());
  const statuses = [];
  const watch = checker.Watch({ service: '' });
  const serving = new Promise((resolve) => watch.on('data', (r) => {
    statuses.push(r.status);
    if (r.status === 'SERVING') resolve();
  }));
  const ended = new Promise((resolve) => {
    watch.on('error', (err) => resolve(err.code));
    watch.on('end', () => resolve('end'));
  });
  await serving;
  const exited = new Promise((resolve) => own.proc.on('exit', (code) => resolve(code)));
  const start = Date.now();
  own.proc.kill('SIGTERM');
  assert.equal(await ended, grpc.status.UNAVAILABLE, 'the watch ends with UNAVAILABLE');
  assert.deepEqual(statuses, ['SERVING', 'NOT_SERVING']);
  assert.equal(await exited, 0);
  const took = Date.now() - start;
  assert.ok(took < 3000, `exited ${took} ms after SIGTERM (grace 20 s, nothing in flight)`);
  checker.close();
});
