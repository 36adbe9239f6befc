// A client of a deployed scribed (tests/e2e/database_deploy_test.sh): one
// call a run, its outcome on one line.
//
//   node database_deploy.js health ADDRESS [TLS]
//     grpc.health.v1 Check: prints "health: SERVING" (exit 0) or
//     "health-error: CODE message" (exit 1).
//   node database_deploy.js import ADDRESS GAMES SOURCE [TLS]
//     ImportGames of GAMES (a JSON array of records, `scribe play --games`),
//     20 records a message, message k with the source SOURCE/k: prints
//     "import code=OK records=N added=N new_sources=N known_sources=N
//     duplicates=N rejected=N [first_rejection=...]" or
//     "import code=CODE message=..." (exit 0 either way: the caller judges).
//   node database_deploy.js total ADDRESS [TLS]
//     ListGames: prints "total=N" (ListGames' total_size).
// TLS: --ca FILE (TLS, the server verified against FILE), and with it
// --cert FILE --key FILE (a client certificate); without --ca, plaintext.
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
const db = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/game_database.proto', loadOptions));
const health = grpc.loadPackageDefinition(protoLoader.loadSync('grpc/health/v1/health.proto', loadOptions));

const [command, address, ...rest] = process.argv.slice(2);
const option = (name) => {
  const i = rest.indexOf(name);
  if (i < 0) return undefined;
  const value = rest[i + 1];
  rest.splice(i, 2);
  return value;
};
const ca = option('--ca'), cert = option('--cert'), key = option('--key');
const credentials = ca
  ? grpc.credentials.createSsl(fs.readFileSync(ca), key ? fs.readFileSync(key) : null, cert ? fs.readFileSync(cert) : null)
  : grpc.credentials.createInsecure();
// The server's certificate names localhost and 127.0.0.1; TLS's server name
// is a host name, never an address (RFC 6066).
const channelOptions = ca ? { 'grpc.ssl_target_name_override': 'localhost', 'grpc.default_authority': 'localhost' } : {};
const deadline = () => Date.now() + 20000;
const codeName = (code) => Object.keys(grpc.status).find((k) => grpc.status[k] === code) || String(code);

function healthCheck() {
  const client = new health.grpc.health.v1.Health(address, credentials, channelOptions);
  client.Check({ service: '' }, { deadline: deadline() }, (e, r) => {
    if (e) {
      console.log(`health-error: ${codeName(e.code)} ${e.details}`);
      process.exit(1);
    }
    console.log(`health: ${r.status}`);
    process.exit(r.status === 'SERVING' ? 0 : 1);
  });
}

function importGames(file, source) {
  const games = JSON.parse(fs.readFileSync(file, 'utf8'));
  const client = new db.scribe.v1.GameDatabase(address, credentials, channelOptions);
  const call = client.ImportGames({ deadline: deadline() }, (e, r) => {
    if (e) console.log(`import code=${codeName(e.code)} message=${JSON.stringify(e.details)}`);
    else {
      const j = r.rejections && r.rejections[0];
      const first = j ? ` first_rejection=${JSON.stringify([...j.violations, ...j.findings.map((f) => f.message)].join('; '))}` : '';
      console.log(`import code=OK records=${r.records} added=${r.added} new_sources=${r.new_sources}` +
        ` known_sources=${r.known_sources} duplicates=${r.duplicates} rejected=${r.rejected}${first}`);
    }
    process.exit(0);
  });
  for (let k = 0; k * 20 < games.length; ++k) {
    const text = Buffer.from(JSON.stringify(games.slice(k * 20, k * 20 + 20)));
    call.write({ input: { text }, source: `${source}/${k}` });
  }
  call.end();
}

function total() {
  const client = new db.scribe.v1.GameDatabase(address, credentials, channelOptions);
  client.ListGames({ page_size: 1 }, { deadline: deadline() }, (e, r) => {
    if (e) {
      console.log(`total-error: ${codeName(e.code)} ${e.details}`);
      process.exit(1);
    }
    console.log(`total=${r.total_size}`);
    process.exit(0);
  });
}

if (command === 'health') healthCheck();
else if (command === 'import') importGames(rest[0], rest[1]);
else if (command === 'total') total();
else {
  console.error('usage: database_deploy.js health|import|total ADDRESS ...');
  process.exit(2);
}
