// TLS and client certificates: Node's @grpc/grpc-js against the real scribed
// with the throw-away certificates tests/e2e/tls_test.sh made.
//
// Usage: SCRIBED=path/to/scribed CERTS=dir node --test tls_test.js
//   CERTS holds ca.crt, server.{crt,key}, client.{crt,key} (signed by ca),
//   other-ca.crt and other-client.{crt,key} (signed by other-ca).
'use strict';

const { test, describe, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const scribedProcess = require('./scribed_process');
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCRIBED = process.env.SCRIBED;
const CERTS = process.env.CERTS;
assert.ok(SCRIBED && CERTS, 'SCRIBED and CERTS must be set (tests/e2e/tls_test.sh sets them)');
const pem = (name) => fs.readFileSync(path.join(CERTS, name));
const file = (name) => path.join(CERTS, name);
const EXAMPLE = fs.readFileSync(path.join(ROOT, 'examples', 'finkel-game.json'));

const loadOptions = {
  keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [path.join(ROOT, 'proto'), '/usr/share/grpc-proto', '/usr/include'],
};
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/scribe_service.proto', loadOptions));
const health = grpc.loadPackageDefinition(protoLoader.loadSync('grpc/health/v1/health.proto', loadOptions));

// scribed on a free loopback port (scribed_process.js).
const startServer = (args) => scribedProcess.startServer(SCRIBED, args);
const { stopServer } = scribedProcess;

// The credentials of each kind of client.
const clients = {
  trusted: () => grpc.credentials.createSsl(pem('ca.crt'), pem('client.key'), pem('client.crt')),
  noCertificate: () => grpc.credentials.createSsl(pem('ca.crt')),
  plaintext: () => grpc.credentials.createInsecure(),
  distrustsServer: () => grpc.credentials.createSsl(pem('other-ca.crt'), pem('client.key'), pem('client.crt')),
  strangerCertificate: () => grpc.credentials.createSsl(pem('ca.crt'), pem('other-client.key'), pem('other-client.crt')),
};

// The server certificate names localhost (and 127.0.0.1): the client
// connects to 127.0.0.1 and checks the name localhost (Node warns against
// an IP address as the TLS server name).
const channelOptions = { 'grpc.ssl_target_name_override': 'localhost', 'grpc.default_authority': 'localhost' };

// Resolves once the server's log matches (it logs just after it prints
// its port).
async function logMatches(server, pattern) {
  for (let i = 0; i < 100 && !pattern.test(server.log()); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(server.log(), pattern);
}

// A real method: ValidateRecord of the example game. Resolves with the
// response, rejects with the gRPC error.
function validate(address, credentials) {
  const client = new scribe.scribe.v1.ScribeService(address, credentials, channelOptions);
  return new Promise((resolve, reject) => {
    client.ValidateRecord({ input: { text: EXAMPLE } }, new grpc.Metadata(),
      { deadline: new Date(Date.now() + 10000) }, (err, response) => {
        client.close();
        if (err) reject(err); else resolve(response);
      });
  });
}

function healthCheck(address, credentials) {
  const client = new health.grpc.health.v1.Health(address, credentials, channelOptions);
  return new Promise((resolve, reject) => {
    client.Check({ service: '' }, { deadline: new Date(Date.now() + 10000) }, (err, response) => {
      client.close();
      if (err) reject(err); else resolve(response);
    });
  });
}

async function succeeds(address, kind) {
  const response = await validate(address, clients[kind]());
  assert.equal(response.valid, true, `${kind}: the example game validates`);
  assert.equal(response.findings.length, 0);
  assert.equal((await healthCheck(address, clients[kind]())).status, 'SERVING');
}

// The call fails at the connection (UNAVAILABLE): the handshake, not the
// service, refused it.
async function refused(address, kind) {
  await assert.rejects(validate(address, clients[kind]()), (err) => {
    assert.equal(err.code, grpc.status.UNAVAILABLE, `${kind}: ${err.code} ${err.details}`);
    return true;
  }, `${kind}: the call must fail`);
}

describe('client certificates required (--tls-client-ca)', () => {
  let server;
  before(async () => {
    server = await startServer(['--tls-cert', file('server.crt'), '--tls-key', file('server.key'),
      '--tls-client-ca', file('ca.crt')]);
  });
  after(async () => { assert.equal(await stopServer(server), 0); });

  test('says so in its log', () => logMatches(server, /with TLS, client certificates required/));
  test('(a) a client with a certificate the CA signed succeeds', () => succeeds(server.address, 'trusted'));
  test('(b) a client without a certificate is refused', () => refused(server.address, 'noCertificate'));
  test('(c) a plaintext client fails', () => refused(server.address, 'plaintext'));
  test('(d) a client that does not trust the server\'s CA fails', () => refused(server.address, 'distrustsServer'));
  test('a client certificate another CA signed is refused', () => refused(server.address, 'strangerCertificate'));
  test('the server still serves a trusted client after the refusals', () => succeeds(server.address, 'trusted'));
});

describe('client certificates optional (--tls-client-auth optional)', () => {
  let server;
  before(async () => {
    server = await startServer(['--tls-cert', file('server.crt'), '--tls-key', file('server.key'),
      '--tls-client-ca', file('ca.crt'), '--tls-client-auth', 'optional']);
  });
  after(async () => { assert.equal(await stopServer(server), 0); });

  test('says so in its log', () => logMatches(server, /with TLS, client certificates verified when sent/));
  test('a client with a certificate the CA signed succeeds', () => succeeds(server.address, 'trusted'));
  test('a client without a certificate succeeds', () => succeeds(server.address, 'noCertificate'));
  test('a client certificate another CA signed is refused', () => refused(server.address, 'strangerCertificate'));
  test('a plaintext client fails', () => refused(server.address, 'plaintext'));
  test('a client that does not trust the server\'s CA fails', () => refused(server.address, 'distrustsServer'));
});

describe('TLS without client certificates', () => {
  let server;
  before(async () => {
    server = await startServer(['--tls-cert', file('server.crt'), '--tls-key', file('server.key')]);
  });
  after(async () => { assert.equal(await stopServer(server), 0); });

  test('a client without a certificate succeeds', () => succeeds(server.address, 'noCertificate'));
  test('a plaintext client fails', () => refused(server.address, 'plaintext'));
  test('a client that does not trust the server\'s CA fails', () => refused(server.address, 'distrustsServer'));
});

describe('TLS flags that would be ignored are refused at start', () => {
  const cases = [
    [['--tls-cert', file('server.crt')], /--tls-cert and --tls-key go together/],
    [['--tls-key', file('server.key')], /--tls-cert and --tls-key go together/],
    [['--tls-client-ca', file('ca.crt')], /need --tls-cert/],
    [['--tls-cert', file('server.crt'), '--tls-key', file('server.key'), '--tls-client-auth', 'optional'],
      /--tls-client-auth needs --tls-client-ca/],
    [['--tls-cert', file('server.crt'), '--tls-key', file('server.key'), '--tls-client-ca', file('ca.crt'),
      '--tls-client-auth', 'sometimes'], /tls-client-auth/],
    [['--tls-cert', file('missing.crt'), '--tls-key', file('server.key')], /cannot read --tls-cert/],
  ];
  for (const [args, message] of cases) {
    test(args.join(' ').replaceAll(CERTS + '/', ''), () => {
      const run = spawnSync(SCRIBED, ['--listen', '127.0.0.1:0', ...args], { timeout: 20000, encoding: 'utf8' });
      assert.equal(run.status, 2, `exit status ${run.status}; stderr: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stdout, /listening on port/);
    });
  }
});
