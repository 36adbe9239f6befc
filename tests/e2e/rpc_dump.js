// Calls every method of scribe.v1.ScribeService on a running scribed with
// good and bad inputs, and prints each answer as one line, in a fixed
// order: `CASE<TAB>JSON`, where JSON is {"response": ...} or {"error":
// {code, status, details, status_details}} (status_details: the decoded
// google.rpc.Status of the grpc-status-details-bin trailer). Two builds
// that answer alike print the same bytes; compare_builds.sh diffs them.
//
// Usage: node rpc_dump.js ADDRESS INPUTS_DIR
//   ADDRESS     host:port of scribed (loopback)
//   INPUTS_DIR  the record files compare_builds.sh lays out (examples/,
//               ref/, gen/, royalur/, bad/); scribed should have the
//               finkel(pieces=2) table loaded (--table).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');

const ROOT = path.resolve(__dirname, '..', '..');
// The npm packages live with the Node client tests, in either place.
const clientDir = [process.env.SCRIBE_NODE_CLIENT, path.join(__dirname, 'node_client'),
  path.join(ROOT, 'tests', 'node_client')]
  .find((d) => d && fs.existsSync(path.join(d, 'node_modules', '@grpc', 'grpc-js')));
if (!clientDir) throw new Error('no node_modules with @grpc/grpc-js: run the node client install.sh');
const req = createRequire(path.join(clientDir, 'package.json'));
const grpc = req('@grpc/grpc-js');
const protoLoader = req('@grpc/proto-loader');
const protobuf = req('protobufjs');

const [address, inputs] = process.argv.slice(2);
if (!address || !inputs) throw new Error('usage: node rpc_dump.js ADDRESS INPUTS_DIR');

// As client_test.js loads them, but responses show only the fields on the
// wire (no defaults filled in, no oneof names): what is sent is compared.
const loadOptions = {
  keepCase: true, longs: Number, enums: String, defaults: false, oneofs: false,
  includeDirs: [path.join(ROOT, 'proto'), '/usr/share/grpc-proto', '/usr/include'],
};
const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(
  ['scribe/v1/scribe_service.proto', 'google/rpc/status.proto', 'google/rpc/error_details.proto'], loadOptions));
const healthPkg = grpc.loadPackageDefinition(protoLoader.loadSync('grpc/health/v1/health.proto', loadOptions));
const rpcRoot = new protobuf.Root().loadSync([path.join(ROOT, 'proto/google/rpc/status.proto'),
  path.join(ROOT, 'proto/google/rpc/error_details.proto')], { keepCase: true });
const toObject = { longs: Number, enums: String };

// The google.rpc.Status in an error's trailer, its Any details decoded
// where the type is known.
function statusDetails(err) {
  const bin = err.metadata && err.metadata.get('grpc-status-details-bin')[0];
  if (!bin) return null;
  const Status = rpcRoot.lookupType('google.rpc.Status');
  const status = Status.decode(bin);
  const out = { code: status.code, message: status.message, details: [] };
  for (const d of status.details) {
    const name = d.type_url.slice(d.type_url.lastIndexOf('/') + 1);
    let type = null;
    try { type = rpcRoot.lookupType(name); } catch (e) { /* not a type we know */ }
    out.details.push(type ? { type_url: d.type_url, value: type.toObject(type.decode(d.value), toObject) }
      : { type_url: d.type_url, bytes: Buffer.from(d.value).toString('base64') });
  }
  return out;
}

function errorOf(err) {
  const name = Object.keys(grpc.status).find((k) => grpc.status[k] === err.code) || String(err.code);
  return { code: err.code, status: name, details: err.details, status_details: statusDetails(err) };
}

// A map's entries come in no fixed order (protobuf serializes maps as it
// likes), so the record tags are printed sorted.
function sortedMaps(key, value) {
  if (key !== 'tags' || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]]));
}

function print(name, value) {
  process.stdout.write(`${name}\t${JSON.stringify(value, sortedMaps)}\n`);
}

const deadline = () => ({ deadline: Date.now() + 60000 });
const client = new pkg.scribe.v1.ScribeService(address, grpc.credentials.createInsecure());

function call(method, request) {
  return new Promise((resolve) => {
    client[method](request, new grpc.Metadata(), deadline(),
      (err, response) => resolve(err ? { error: errorOf(err) } : { response }));
  });
}

// Calls, prints, and gives the answer back.
async function dump(name, method, request) {
  const answer = await call(method, request);
  print(`${method} ${name}`, answer);
  return answer;
}

// Waits until the server's health check says SERVING (20 s at most).
async function waitHealthy() {
  const checker = new healthPkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  const until = Date.now() + 20000;
  for (;;) {
    const res = await new Promise((resolve) => checker.Check({ service: '' }, new grpc.Metadata(),
      { deadline: Date.now() + 2000 }, (err, r) => resolve(err ? { error: errorOf(err) } : { response: r })));
    if (res.response && res.response.status === 'SERVING') {
      print('Health.Check', res);
      checker.close();
      return;
    }
    if (Date.now() > until) throw new Error(`scribed at ${address} is not healthy: ${JSON.stringify(res)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// Every record file under the inputs, sorted, with the ruleset an RGN
// file needs (from its name: finkel-3.rgn is finkel).
function records() {
  const out = [];
  for (const dir of ['examples', 'ref', 'gen', 'royalur', 'bad']) {
    const full = path.join(inputs, dir);
    if (!fs.existsSync(full)) continue;
    for (const f of fs.readdirSync(full).sort()) {
      if (f.endsWith('.textproto') || f.endsWith('.md')) continue;
      const input = { text: fs.readFileSync(path.join(full, f)) };
      if (f.endsWith('.rgn')) input.ruleset = { reference: f.replace(/-\d+\.rgn$/, '') };
      out.push({ name: `${dir}/${f}`, input });
    }
  }
  return out;
}

const FORMATS = ['RECORD_FORMAT_UNSPECIFIED', 'RECORD_FORMAT_TSN', 'RECORD_FORMAT_JSON', 'RECORD_FORMAT_RGN',
  'RECORD_FORMAT_ROYALUR_JSON'];

async function recordCalls(all) {
  for (const { name, input } of all) {
    await dump(name, 'ValidateRecord', { input });
    await dump(name, 'ReplayRecord', { input });
    await dump(name, 'AnnotateRecord', { input, text_format: 'RECORD_FORMAT_TSN' });
    for (const to of FORMATS) await dump(`${name} to ${to}`, 'ConvertRecord', { input, to });
    await dump(`${name} tiles`, 'ConvertRecord', { input, to: 'RECORD_FORMAT_TSN', tile_names: true });
  }
  // Winning chances: a search, the loaded table, and the refusals.
  const example = { text: fs.readFileSync(path.join(inputs, 'examples', 'finkel-game.json')) };
  const p2 = { text: fs.readFileSync(path.join(inputs, 'gen', 'p2-1.json')) };
  const chances = [
    ['example depth 1', example, { depth: 1 }], ['example depth 0', example, { depth: 0 }],
    ['example search', example, { mode: 'EVALUATION_MODE_SEARCH', depth: 1 }],
    ['example exact', example, { mode: 'EVALUATION_MODE_EXACT' }], ['example depth 9', example, { depth: 9 }],
    ['p2 default', p2, {}], ['p2 exact', p2, { mode: 'EVALUATION_MODE_EXACT' }],
    ['p2 search', p2, { mode: 'EVALUATION_MODE_SEARCH', depth: 1 }],
  ];
  for (const f of fs.readdirSync(path.join(inputs, 'ref')).sort().filter((f) => f.endsWith('-1.json'))) {
    chances.push([`ref/${f} depth 1`, { text: fs.readFileSync(path.join(inputs, 'ref', f)) }, { depth: 1 }]);
  }
  for (const [name, input, winning_chances] of chances) {
    await dump(`chances ${name}`, 'AnnotateRecord', { input, winning_chances });
    await dump(`chances ${name} tsn`, 'AnnotateRecord', { input, winning_chances, text_format: 'RECORD_FORMAT_TSN' });
  }
  // Structured input: the example as a GameRecord, as ConvertRecord gives it.
  const conv = await call('ConvertRecord', { input: example, to: 'RECORD_FORMAT_JSON' });
  const record = conv.response.records[0];
  await dump('structured', 'ValidateRecord', { input: { record } });
  await dump('structured', 'ReplayRecord', { input: { record } });
  await dump('structured', 'AnnotateRecord', { input: { record }, text_format: 'RECORD_FORMAT_TSN' });
  await dump('structured', 'ConvertRecord', { input: { record }, to: 'RECORD_FORMAT_RGN' });
  const bad = { ...record, actions: [...record.actions] };
  bad.actions[3] = { ...bad.actions[3], to: bad.actions[3].to + 1 };
  await dump('structured illegal', 'ValidateRecord', { input: { record: bad } });
  await dump('structured illegal', 'ReplayRecord', { input: { record: bad } });
  await dump('structured too long', 'ValidateRecord',
    { input: { record: { ...record, actions: Array(6000).fill(record.actions[0]) } } });
  // Bad requests.
  const odd = [
    ['empty input', {}], ['garbage', { text: Buffer.from([0, 255, 1, 2]) }],
    ['bad reference', { ...example, ruleset: { reference: '../../etc/passwd' } }],
    ['unknown reference', { ...example, ruleset: { reference: 'no-such-rules' } }],
    ['bad override', { ...example, ruleset: { reference: 'finkel(pieces=0,foo=1)' } }],
    ['inline ruleset', { ...example, ruleset: { text: 'base: "finkel"\npieces: 7\n' } }],
    ['bad inline ruleset', { ...example, ruleset: { text: 'pieces: 0\nfoo: 1\n' } }],
    ['wrong format', { ...example, format: 'RECORD_FORMAT_RGN' }],
    ['rgn without ruleset', { text: fs.readFileSync(path.join(inputs, 'royalur', 'finkel-1.rgn')) }],
    ['too big', { text: Buffer.alloc(300000, 32) }],
  ];
  for (const [name, input] of odd) {
    await dump(name, 'ValidateRecord', { input });
    await dump(name, 'ReplayRecord', { input });
    await dump(name, 'AnnotateRecord', { input });
    await dump(name, 'ConvertRecord', { input, to: 'RECORD_FORMAT_TSN' });
  }
}

// One stream: every record with an id, then the stream's end or error.
function validateStream(name, items) {
  return new Promise((resolve) => {
    const stream = client.ValidateRecords(new grpc.Metadata(), deadline());
    let i = 0;
    stream.on('data', (r) => print(`ValidateRecords ${name} #${i++}`, { response: r }));
    stream.on('error', (err) => { print(`ValidateRecords ${name} end`, { error: errorOf(err) }); resolve(); });
    stream.on('end', () => { print(`ValidateRecords ${name} end`, { response: 'end' }); resolve(); });
    for (const item of items) stream.write(item);
    stream.end();
  });
}

async function rulesetCalls() {
  for (const size of [0, 1, 3, 4, 1000]) {
    let token = '';
    let page = 0;
    do {
      const res = await dump(`size ${size} page ${page++}`, 'ListRulesets', { page_size: size, page_token: token });
      token = (res.response && res.response.next_page_token) || '';
    } while (token && page < 20);
  }
  for (const [name, r] of [['size -1', { page_size: -1 }], ['size 1001', { page_size: 1001 }],
    ['bad token', { page_token: 'garbage' }], ['token 99', { page_token: '99' }], ['token 10', { page_token: '10' }]]) {
    await dump(name, 'ListRulesets', r);
  }
  const refs = ['finkel', 'finkel-blank4', 'masters', 'blitz', 'sawah', 'sawah-tablet', 'sawah-marks', 'turnover',
    'murray', 'skiriuk', 'aseb', 'finkel(pieces=5)', 'finkel(pieces=2)', 'finkel(pieces=5,capture_extra_roll=true)',
    'tablet-betting', 'no-such-rules', 'finkel(pieces=0,foo=1)', '../../etc/passwd', '', 'finkel(', 'FINKEL'];
  for (const reference of refs) await dump(`reference ${JSON.stringify(reference)}`, 'GetRuleset', { ruleset: { reference } });
  const five = fs.readFileSync(path.join(inputs, 'examples', 'five-piece-tournament.textproto'), 'utf8');
  for (const [name, text] of [['five-piece file', five], ['bad text', 'pieces: 0\nfoo: 1\n'], ['empty text', ''],
    ['base only', 'base: "masters"\n'], ['syntax error', 'pieces: {\n']]) {
    await dump(`text ${name}`, 'GetRuleset', { ruleset: { text } });
  }
  await dump('no selector', 'GetRuleset', {});
}

// A walk through a game: legal moves, one of them made, the next throw.
async function refereeCalls() {
  for (const reference of ['finkel', 'masters', 'blitz', 'sawah', 'turnover', 'murray', 'finkel-blank4']) {
    const ruleset = { reference };
    for (let roll = -1; roll <= 6; roll++) await dump(`${reference} start roll ${roll}`, 'ListLegalMoves', { ruleset, roll });
    let position = '';
    let seed = 12345;
    for (let step = 0; step < 80; step++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const roll = seed % 5;
      const legal = await dump(`${reference} walk ${step}`, 'ListLegalMoves', { ruleset, position, roll });
      if (legal.error) continue;  // a throw these dice cannot make: the next one
      const moves = legal.response.moves || [];  // absent when the throw passes
      const move = moves.length ? moves[(seed >> 8) % moves.length] : undefined;
      const made = await dump(`${reference} walk ${step}`, 'MakeMove', { ruleset, position, roll, move });
      if (made.error) break;
      position = made.response.position;
      if (made.response.winner) break;
      if (step % 10 === 0) {
        await dump(`${reference} walk ${step}`, 'SuggestMoves', { ruleset, position, roll: 2, evaluation: { depth: 1 } });
      }
    }
  }
  const finkel = { reference: 'finkel' };
  const mid = '5:...1...1......:0/6:......1.......:0 D';
  const bad = [['bad position', { ruleset: finkel, position: 'nonsense', roll: 2 }],
    ['roll 9', { ruleset: finkel, roll: 9 }], ['no ruleset', { roll: 2 }],
    ['illegal move', { ruleset: finkel, position: mid, roll: 2, move: { from: 4, to: 7 } }],
    ['pass with a move', { ruleset: finkel, roll: 2 }], ['move on a 0', { ruleset: finkel, roll: 0, move: { from: 0, to: 1 } }],
    ['finished', { ruleset: finkel, position: '0:..............:7/6:......1.......:0 D', roll: 2 }]];
  for (const [name, r] of bad) {
    await dump(name, 'ListLegalMoves', r);
    await dump(name, 'MakeMove', r);
    await dump(name, 'SuggestMoves', r);
  }
}

async function suggestCalls() {
  const p2 = { reference: 'finkel(pieces=2)' };
  const finkel = { reference: 'finkel' };
  const mid = '5:...1...1......:0/6:......1.......:0 D';
  const cases = [];
  for (let roll = 0; roll <= 4; roll++) {
    cases.push([`p2 start roll ${roll}`, { ruleset: p2, roll }]);
    cases.push([`p2 start roll ${roll} exact perfect`, { ruleset: p2, roll, evaluation: { mode: 'EVALUATION_MODE_EXACT' }, strength: 'perfect' }]);
    cases.push([`finkel mid roll ${roll} depth 1`, { ruleset: finkel, position: mid, roll, evaluation: { depth: 1 } }]);
  }
  for (const strength of ['perfect', 'search:0', 'search:1', 'search:4', 'heuristic', 'random', 'grandmaster', 'search:x']) {
    cases.push([`p2 ${strength}`, { ruleset: p2, roll: 2, strength }]);
    cases.push([`finkel ${strength}`, { ruleset: finkel, position: mid, roll: 3, evaluation: { depth: 1 }, strength }]);
  }
  for (const seed of [1, 2, 7, 123456789]) {
    cases.push([`random seed ${seed}`, { ruleset: finkel, position: mid, roll: 3, evaluation: { depth: 0 }, strength: 'random', seed }]);
  }
  cases.push(['finkel default', { ruleset: finkel, position: mid, roll: 3 }],
    ['finkel exact', { ruleset: finkel, position: mid, roll: 3, evaluation: { mode: 'EVALUATION_MODE_EXACT' } }],
    ['p2 search depth 2', { ruleset: p2, roll: 3, evaluation: { mode: 'EVALUATION_MODE_SEARCH', depth: 2 } }],
    ['depth 4 over the cap', { ruleset: finkel, roll: 3, evaluation: { depth: 4 } }],
    ['depth -1', { ruleset: finkel, roll: 3, evaluation: { depth: -1 } }],
    ['masters depth 1', { ruleset: { reference: 'masters' }, roll: 2, evaluation: { depth: 1 } }]);
  for (const [name, r] of cases) await dump(name, 'SuggestMoves', r);
}

async function main() {
  await waitHealthy();
  const all = records();
  await recordCalls(all);
  await validateStream('all', all.map(({ name, input }) => ({ id: name, input })));
  await validateStream('empty', []);
  await validateStream('odd', [{ id: 'no input' }, { id: 'garbage', input: { text: Buffer.from('not a record') } },
    { id: 'bad ruleset', input: { text: Buffer.from('{}'), ruleset: { reference: 'no-such-rules' } } }]);
  await rulesetCalls();
  await refereeCalls();
  await suggestCalls();
  client.close();
}

main().catch((err) => {
  process.stderr.write(`rpc_dump: ${err.stack || err}\n`);
  process.exit(1);
});
