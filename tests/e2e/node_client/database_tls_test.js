// Who may write to the game database (scribe.v1.GameDatabase): Node's
// @grpc/grpc-js against the real scribed with --db, over TLS with the
// throw-away client certificates tests/e2e/database_tls_test.sh made, and
// without TLS. Writes (ImportGames) need a client certificate whose CN,
// subject or SAN the --db-writers list names, or --db-open-writes; reads
// are open to every client that may connect (service/writers.h).
//
// Usage: SCRIBED=path/to/scribed SCRIBE=path/to/scribe CERTS=dir DB_DIR=dir \
//          node --test database_tls_test.js
//   CERTS holds ca.crt, server.{crt,key}, and, signed by ca: writer (CN
//   scribe-test-writer, listed), san-writer (listed by its SAN URI only),
//   subject-writer (listed by its whole subject only), reader (not
//   listed), near-writer (names close to listed ones); forged-writer
//   (CN scribe-test-writer, signed by other-ca); writers.txt (the list)
//   and empty-writers.txt (a list of comments only). DB_DIR: an empty
//   folder for the SQLite files.
'use strict';

const { test, describe, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const scribedProcess = require('./scribed_process');
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { SCRIBED, SCRIBE, CERTS, DB_DIR } = process.env;
assert.ok(SCRIBED && SCRIBE && CERTS && DB_DIR,
  'SCRIBED, SCRIBE, CERTS and DB_DIR must be set (tests/e2e/database_tls_test.sh sets them)');
const pem = (name) => fs.readFileSync(path.join(CERTS, name));
const file = (name) => path.join(CERTS, name);
const WRITERS = file('writers.txt');

const loadOptions = {
  keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [path.join(ROOT, 'proto'), '/usr/share/grpc-proto', '/usr/include'],
};
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/game_database.proto', loadOptions));
const GameDatabase = scribe.scribe.v1.GameDatabase;

// The google.rpc.ErrorInfo reason in an error's trailer.
const rpcRoot = new protobuf.Root().loadSync([path.join(ROOT, 'proto/google/rpc/status.proto'),
  path.join(ROOT, 'proto/google/rpc/error_details.proto')], { keepCase: true });
function errorReason(err) {
  const bin = err.metadata && err.metadata.get('grpc-status-details-bin')[0];
  assert.ok(bin, `the error carries google.rpc.Status details: ${err.code} ${err.details}`);
  const status = rpcRoot.lookupType('google.rpc.Status').decode(bin);
  assert.equal(status.code, err.code, 'the details\' code is the call\'s');
  const detail = status.details.find((d) => d.type_url.endsWith('google.rpc.ErrorInfo'));
  assert.ok(detail, 'an ErrorInfo among the details');
  return rpcRoot.lookupType('google.rpc.ErrorInfo').decode(detail.value).reason;
}

// A legal game of seed `seed` (scribe play), its players renamed, as the
// JSON record's text.
function game(seed, light, dark) {
  const run = spawnSync(SCRIBE, ['play', '--ruleset', 'finkel', '--seed', String(seed)],
    { encoding: 'utf8', timeout: 20000 });
  assert.equal(run.status, 0, `scribe play --seed ${seed}: ${run.stderr}`);
  const record = JSON.parse(run.stdout);
  assert.equal(record.tags.Seed, String(seed));
  record.tags.Light = light;
  record.tags.Dark = dark;
  return Buffer.from(JSON.stringify(record));
}
// ImportGames messages: one game a message, each its own source (a
// message's records are its source's records 0, 1, ...).
function messages(prefix, seeds, light, dark) {
  return seeds.map((seed) => ({ input: { text: game(seed, light, dark) }, source: `${prefix}/seed-${seed}` }));
}

// scribed on a free loopback port (scribed_process.js).
const startServer = (args) => scribedProcess.startServer(SCRIBED, args);
const { stopServer } = scribedProcess;

// Resolves once the server's log matches (it logs the database's line
// before it prints its port, the serving line just after).
async function logMatches(server, pattern) {
  for (let i = 0; i < 100 && !pattern.test(server.log()); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(server.log(), pattern);
}

// The credentials of each kind of client (new ones for every call: no
// connection is shared between kinds).
const withCertificate = (name) => () => grpc.credentials.createSsl(pem('ca.crt'), pem(`${name}.key`), pem(`${name}.crt`));
const clients = {
  writer: withCertificate('writer'),
  sanWriter: withCertificate('san-writer'),
  subjectWriter: withCertificate('subject-writer'),
  reader: withCertificate('reader'),
  nearWriter: withCertificate('near-writer'),
  wrongKindUri: withCertificate('wrong-kind-uri'),
  wrongKindSubject: withCertificate('wrong-kind-subject'),
  wrongKindCn: withCertificate('wrong-kind-cn'),
  forgedWriter: withCertificate('forged-writer'),
  noCertificate: () => grpc.credentials.createSsl(pem('ca.crt')),
  plaintext: () => grpc.credentials.createInsecure(),
};

// The server certificate names localhost (and 127.0.0.1): the client
// connects to 127.0.0.1 and checks the name localhost.
const channelOptions = { 'grpc.ssl_target_name_override': 'localhost', 'grpc.default_authority': 'localhost' };
const deadline = () => ({ deadline: new Date(Date.now() + 15000) });

// ImportGames of these messages as this kind of client: resolves with the
// answer, rejects with the gRPC error.
function importGames(address, kind, requests, metadata = new grpc.Metadata()) {
  const client = new GameDatabase(address, clients[kind](), channelOptions);
  return new Promise((resolve, reject) => {
    const call = client.ImportGames(metadata, deadline(), (err, response) => {
      client.close();
      if (err) reject(err); else resolve(response);
    });
    for (const request of requests) call.write(request);
    call.end();
  });
}

// A unary method as this kind of client.
function unary(address, kind, method, request) {
  const client = new GameDatabase(address, clients[kind](), channelOptions);
  return new Promise((resolve, reject) => {
    client[method](request, new grpc.Metadata(), deadline(), (err, response) => {
      client.close();
      if (err) reject(err); else resolve(response);
    });
  });
}

// Stored games, as the reader sees them.
async function total(address, kind = 'reader') {
  return (await unary(address, kind, 'ListGames', { page_size: 1000 })).total_size;
}

// The import stored every message's game, nothing else.
function assertImported(response, count) {
  assert.equal(response.records, count, `records: ${JSON.stringify(response)}`);
  assert.equal(response.added, count, `added: ${JSON.stringify(response)}`);
  assert.equal(response.rejected, 0, `rejected: ${JSON.stringify(response.rejections)}`);
  assert.equal(response.known_sources + response.new_sources + response.duplicates, 0);
}

// A message for people: a sentence of words, not a code or an internal
// error.
function assertSentence(message) {
  assert.equal(typeof message, 'string');
  assert.ok(message.split(/\s+/).filter((w) => /[a-z]/.test(w)).length >= 8, `a sentence: "${message}"`);
  assert.match(message, /^[a-z]/, `starts as a sentence: "${message}"`);
  assert.doesNotMatch(message, /PERMISSION_DENIED|WRITE_NOT_ALLOWED|StatusCode|absl|grpc::|\bnull\b|undefined/,
    `no code or internal name: "${message}"`);
}

// The import is refused with PERMISSION_DENIED (reason
// WRITE_NOT_ALLOWED), its message a sentence matching `pattern`.
async function denied(promise, pattern, what) {
  await assert.rejects(promise, (err) => {
    assert.equal(err.code, grpc.status.PERMISSION_DENIED, `${what}: ${err.code} ${err.details}`);
    assertSentence(err.details);
    assert.match(err.details, pattern, what);
    assert.equal(errorReason(err), 'WRITE_NOT_ALLOWED');
    return true;
  }, `${what}: the import must fail`);
}

// The call fails at the connection (UNAVAILABLE): the handshake, not the
// service, refused it.
async function refusedAtConnection(promise, what) {
  await assert.rejects(promise, (err) => {
    assert.equal(err.code, grpc.status.UNAVAILABLE, `${what}: ${err.code} ${err.details}`);
    return true;
  }, `${what}: the call must fail`);
}

describe('writers listed by certificate (--db-writers, --tls-client-auth optional)', () => {
  const db = path.join(DB_DIR, 'games.db');
  // The games each client sends: the writers' are stored, the others' not.
  const byWriter = messages('writer', [1, 2, 3], 'Ada', 'Bea');
  const bySanWriter = messages('san-writer', [11, 12], 'Ada', 'Cy');
  const bySubjectWriter = messages('subject-writer', [21], 'Ada', 'Di');
  const byReader = messages('reader', [31, 32], 'Ada', 'Eve');
  const byNearWriter = messages('near-writer', [41], 'Ada', 'Eve');
  const byWrongKind = messages('wrong-kind', [71], 'Ada', 'Eve');
  const byNoCertificate = messages('no-certificate', [51, 52], 'Ada', 'Eve');
  const byForgedWriter = messages('forged-writer', [61], 'Ada', 'Eve');
  const stored = 3 + 2 + 1;
  let server;
  let address;
  before(async () => {
    server = await startServer(['--db', db, '--db-writers', WRITERS, '--db-players-seconds', '0',
      '--tls-cert', file('server.crt'), '--tls-key', file('server.key'),
      '--tls-client-ca', file('ca.crt'), '--tls-client-auth', 'optional']);
    address = server.address;
  });
  after(async () => { assert.equal(await stopServer(server), 0, server.log()); });

  test('says so in its log', async () => {
    await logMatches(server, /writes by 3 listed identities/);
    await logMatches(server, /with TLS, client certificates verified when sent/);
  });

  test('the database starts empty', async () => {
    assert.equal(await total(address), 0);
  });

  test('the client whose certificate\'s CN is listed imports', async () => {
    assertImported(await importGames(address, 'writer', byWriter), 3);
    assert.equal(await total(address), 3);
  });

  test('a client listed only by a SAN (URI) of its certificate imports', async () => {
    assertImported(await importGames(address, 'sanWriter', bySanWriter), 2);
    assert.equal(await total(address), 5);
  });

  test('a client listed only by its certificate\'s whole subject imports', async () => {
    assertImported(await importGames(address, 'subjectWriter', bySubjectWriter), 1);
    assert.equal(await total(address), stored);
  });

  // Each refused call below stores nothing: the total before it is the
  // total after (the reads' test checks it is still the writers' games).
  async function storesNothing(refusal) {
    const before = await total(address);
    await refusal();
    assert.equal(await total(address), before, 'the refused call stored nothing');
  }

  test('an unlisted client certificate the CA signed: PERMISSION_DENIED, nothing stored', () => storesNothing(() =>
    denied(importGames(address, 'reader', byReader),
      /^this client \(cn:scribe-test-reader, subject:CN=scribe-test-reader\) is not among the identities/,
      'an unlisted certificate')));

  test('names close to listed ones (case, a longer URI, a DNS name) are not listed', () => storesNothing(() =>
    denied(importGames(address, 'nearWriter', byNearWriter),
      /^(?=.*cn:Scribe-Test-Writer)(?=.*uri:spiffe:\/\/scribe\.test\/writer\/x)(?=.*dns:scribe-test-writer\.example)/,
      'a near-miss certificate')));

  test('a listed name as a name of another kind is not listed', () => storesNothing(async () => {
    await denied(importGames(address, 'wrongKindUri', byWrongKind), /cn:spiffe:\/\/scribe\.test\/writer/,
      'the listed URI as a CN');
    await denied(importGames(address, 'wrongKindSubject', byWrongKind), /cn:CN=scribe-test-subject/,
      'the listed subject as a CN');
    await denied(importGames(address, 'wrongKindCn', byWrongKind), /dns:scribe-test-writer/,
      'the listed CN as a DNS name');
  }));

  test('a TLS client without a certificate: PERMISSION_DENIED, nothing stored', () => storesNothing(() =>
    denied(importGames(address, 'noCertificate', byNoCertificate),
      /needs a client certificate.*this client sent none/, 'no certificate')));

  test('identities in request metadata are not credentials', () => storesNothing(async () => {
    const metadata = new grpc.Metadata();
    metadata.set('x509_common_name', 'scribe-test-writer');
    metadata.set('x509_subject_alternative_name', 'spiffe://scribe.test/writer');
    metadata.set('x-client-identity', 'scribe-test-writer');
    await denied(importGames(address, 'noCertificate', byNoCertificate, metadata), /sent none/,
      'no certificate, identities in metadata');
    await denied(importGames(address, 'reader', byReader, metadata), /scribe-test-reader/,
      'an unlisted certificate, identities in metadata');
  }));

  test('the writer\'s CN on a certificate an untrusted CA signed is refused at the handshake', () =>
    storesNothing(async () => {
      await refusedAtConnection(importGames(address, 'forgedWriter', byForgedWriter), 'a forged writer certificate');
      await refusedAtConnection(importGames(address, 'plaintext', byForgedWriter), 'a plaintext client');
    }));

  for (const kind of ['reader', 'noCertificate']) {
    test(`reads are open: ${kind}`, async () => {
      const list = await unary(address, kind, 'ListGames', { page_size: 1000 });
      assert.equal(list.total_size, stored);
      assert.equal(list.games.length, stored);
      assert.deepEqual(list.games.map((g) => g.id), [1, 2, 3, 4, 5, 6], 'the writers\' games, in the order imported');
      assert.ok(list.games.every((g) => g.light === 'Ada' && ['Bea', 'Cy', 'Di'].includes(g.dark)),
        `only the writers' games: ${JSON.stringify(list.games.map((g) => [g.light, g.dark]))}`);

      const one = await unary(address, kind, 'GetGame', { id: 1, format: 'RECORD_FORMAT_TSN' });
      assert.equal(one.game.id, 1);
      assert.equal(one.game.light, 'Ada');
      assert.equal(one.game.dark, 'Bea');
      assert.match(one.text, /^\[TSN "1"\]\n/, 'the record as TSN');
      assert.match(one.text, /\[Seed "1"\]/, 'the writer\'s first game');
      assert.deepEqual(one.sources.map((s) => [s.source, s.record]), [['writer/seed-1', 0]]);

      const explored = await unary(address, kind, 'ExplorePosition', { position: '' });
      assert.equal(explored.games, stored, 'every stored game passed through the start');
      assert.ok(explored.moves.length > 0, 'the moves played from the start');
      assert.equal(explored.moves.reduce((n, m) => n + m.games, 0), stored, 'each game made one first move');

      const ada = await unary(address, kind, 'GetPlayer', { name: 'Ada' });
      assert.equal(ada.games, stored);
      assert.equal(ada.as_light, stored);
      assert.equal((await unary(address, kind, 'GetPlayer', { name: 'Cy' })).games, 2);
      await assert.rejects(unary(address, kind, 'GetPlayer', { name: 'Eve' }), (err) => {
        assert.equal(err.code, grpc.status.NOT_FOUND, `Eve (only in refused imports): ${err.code} ${err.details}`);
        return true;
      });
    });
  }

  test('the refused games were not stored: the writer imports them as new', async () => {
    const refused = [...byReader, ...byNearWriter, ...byWrongKind, ...byNoCertificate];
    assertImported(await importGames(address, 'writer', refused), refused.length);
    assert.equal(await total(address), stored + refused.length);
    const again = await importGames(address, 'writer', byWriter);
    assert.equal(again.added, 0, 'sent again, nothing is added');
    assert.equal(again.known_sources, byWriter.length);
  });
});

describe('flags that would leave writes unchecked are refused at start', () => {
  const tls = ['--tls-cert', file('server.crt'), '--tls-key', file('server.key')];
  const clientCa = ['--tls-client-ca', file('ca.crt'), '--tls-client-auth', 'optional'];
  const cases = [
    ['--db-writers without --tls-client-ca (TLS)', ['--db-writers', WRITERS, ...tls],
      /--db-writers needs --tls-client-ca/],
    ['--db-writers without --tls-client-ca (no TLS)', ['--db-writers', WRITERS],
      /--db-writers needs --tls-client-ca/],
    ['--db-writers and --db-open-writes', ['--db-writers', WRITERS, '--db-open-writes', ...tls, ...clientCa],
      /--db-writers or --db-open-writes: not both/],
    ['--db-writers of a list with no identity', ['--db-writers', file('empty-writers.txt'), ...tls, ...clientCa],
      /empty-writers\.txt lists no identity/],
    ['--db-writers of a list with an identity without its kind', ['--db-writers', file('untyped-writers.txt'), ...tls, ...clientCa],
      /untyped-writers\.txt:2: say which name of the client certificate this is: cn:, subject:, dns:, uri:, email: or ip:/],
    ['--db-writers of a missing file', ['--db-writers', file('missing.txt'), ...tls, ...clientCa],
      /cannot read the writers' list .*missing\.txt/],
  ];
  cases.forEach(([name, args, message], i) => {
    test(name, () => {
      const db = path.join(DB_DIR, `refused-${i}.db`);
      const run = spawnSync(SCRIBED, ['--listen', '127.0.0.1:0', '--db', db, ...args],
        { timeout: 20000, encoding: 'utf8' });
      assert.equal(run.status, 2, `exit status ${run.status}; stderr: ${run.stderr}`);
      assert.match(run.stderr, /ERROR/);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stdout, /listening on port/);
      assert.equal(fs.existsSync(db), false, 'no database file is made');
    });
  });
  for (const flag of [['--db-writers', WRITERS], ['--db-open-writes']]) {
    test(`${flag[0]} without --db`, () => {
      const run = spawnSync(SCRIBED, ['--listen', '127.0.0.1:0', ...flag, ...tls, ...clientCa],
        { timeout: 20000, encoding: 'utf8' });
      assert.equal(run.status, 2, `exit status ${run.status}; stderr: ${run.stderr}`);
      assert.match(run.stderr, /--db-writers and --db-open-writes need --db/);
      assert.doesNotMatch(run.stdout, /listening on port/);
    });
  }
});

describe('no TLS: --db-open-writes lets every client write; without it writes are off', () => {
  const db = path.join(DB_DIR, 'open.db');
  const byAnyone = messages('anyone', [71, 72], 'Fay', 'Gus');

  test('--db-open-writes: a plaintext client imports', async () => {
    const server = await startServer(['--db', db, '--db-open-writes', '--db-players-seconds', '0']);
    try {
      await logMatches(server, /writes open to every client/);
      assertImported(await importGames(server.address, 'plaintext', byAnyone), 2);
      assert.equal(await total(server.address, 'plaintext'), 2);
      assert.equal((await unary(server.address, 'plaintext', 'GetPlayer', { name: 'Fay' })).games, 2);
    } finally {
      assert.equal(await stopServer(server), 0, server.log());
    }
  });

  test('neither flag: PERMISSION_DENIED naming --db-writers, nothing stored, reads open', async () => {
    const server = await startServer(['--db', db, '--db-players-seconds', '0']);
    try {
      await logMatches(server, /writes off/);
      await denied(importGames(server.address, 'plaintext', messages('anyone', [73], 'Fay', 'Gus')),
        /writes are off on this server.*--db-writers.*--db-open-writes/, 'writes off');
      await denied(importGames(server.address, 'plaintext', []), /--db-writers/, 'writes off, an empty stream');
      assert.equal(await total(server.address, 'plaintext'), 2, 'the games the open server stored, no more');
      const one = await unary(server.address, 'plaintext', 'GetGame', { id: 1, format: 'RECORD_FORMAT_TSN' });
      assert.match(one.text, /\[Seed "71"\]/);
      assert.equal((await unary(server.address, 'plaintext', 'ExplorePosition', { position: '' })).games, 2);
      assert.equal((await unary(server.address, 'plaintext', 'GetPlayer', { name: 'Gus' })).games, 2);
    } finally {
      assert.equal(await stopServer(server), 0, server.log());
    }
  });
});
