// The server's peak memory under the largest requests it accepts: for each
// method, a fresh scribed with its default flags gets 8 calls at once of
// the largest record input that method accepts, and its peak resident set
// (VmHWM in /proc/PID/status) must stay under 1 GiB. Each input is a JSON
// array of games in the form the general JSON reader takes (a tag with an
// escape: the reader whose memory grows most with the text), filled up to
// the server's default limits (docs/api.md, "Limits"): 4 MiB of text,
// 10,000 records, 200,000 actions, and an answer that fits in 16 MiB at the
// bytes an action service/limits.cc bounds it by.
//
// Usage: node memory_test.js SCRIBED GAMES.jsonl
//   GAMES.jsonl: one JSON record a line (scribe play output), repeated as
//   needed. Prints a line per method: calls, codes, input, peak MiB, time.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const [scribed, gamesFile] = process.argv.slice(2);
const CALLS = 8;
const LIMIT_KB = 1 << 20;  // 1 GiB
const MIB = 1 << 20;
const DEFAULTS = { bytes: 4 * MIB, records: 10000, actions: 200000, message: 16 * MIB, margin: 64 << 10 };

const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/scribe_service.proto', {
  keepCase: true, longs: Number, enums: String, defaults: false, oneofs: true,
  includeDirs: [path.join(ROOT, 'proto'), '/usr/share/grpc-proto', '/usr/include'],
}));

const games = fs.readFileSync(gamesFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => {
  const text = l.trim();
  return { text, actions: JSON.parse(text).actions.length };
});

// The largest input an answer of this size accepts: games added while every
// default limit holds (service/limits.cc's estimate).
function largestInput(answer) {
  const parts = [];
  let bytes = 2;  // the array's brackets
  let actions = 0;
  for (let i = 0; ; i++) {
    let g = games[i % games.length].text;
    // The first record's tag escape sends the whole text to the general reader.
    if (i === 0) g = g.replace(/^\{/, '{"tags":{"Event":"Caf\\u00e9"},').replace(/,"tags":\{[^}]*\}/, '');
    const next = { bytes: bytes + g.length + 1, actions: actions + games[i % games.length].actions, records: i + 1 };
    const room = DEFAULTS.message - answer.copies * next.bytes - DEFAULTS.margin;
    if (next.bytes > DEFAULTS.bytes || next.records > DEFAULTS.records || next.actions > DEFAULTS.actions ||
        next.actions * answer.perAction + next.records * answer.perRecord > room) {
      return { text: Buffer.from(`[${parts.join(',')}]`), records: parts.length, actions };
    }
    parts.push(g);
    bytes = next.bytes;
    actions = next.actions;
  }
}

const CASES = [
  { method: 'ValidateRecord', answer: { perAction: 0, perRecord: 1000, copies: 0 } },
  { method: 'ValidateRecords', answer: { perAction: 0, perRecord: 1000, copies: 0 }, stream: 1 },
  { method: 'ReplayRecord', answer: { perAction: 200, perRecord: 200, copies: 0 } },
  { method: 'AnnotateRecord', answer: { perAction: 250, perRecord: 400, copies: 0 } },
  { method: 'AnnotateRecord', label: 'AnnotateRecord text_format=TSN', request: { text_format: 'RECORD_FORMAT_TSN' },
    answer: { perAction: 500, perRecord: 400, copies: 1 } },
  { method: 'ConvertRecord', label: 'ConvertRecord to=ROYALUR_JSON', request: { to: 'RECORD_FORMAT_ROYALUR_JSON' },
    answer: { perAction: 176, perRecord: 500, copies: 2 } },
  { method: 'ConvertRecord', label: 'ConvertRecord to=TSN', request: { to: 'RECORD_FORMAT_TSN' },
    answer: { perAction: 48, perRecord: 500, copies: 2 } },
];

function startServer() {
  return new Promise((resolve, reject) => {
    const proc = spawn(scribed, ['--listen', '127.0.0.1:0', '--metrics-interval-seconds', '0'],
      { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on port (\d+)/);
      if (m) resolve({ proc, address: `127.0.0.1:${m[1]}` });
    });
    proc.on('exit', (code) => reject(new Error(`scribed exited with ${code}`)));
  });
}

function peakKb(pid) {
  const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
  return m ? Number(m[1]) : 0;
}

function unary(client, c, text) {
  return new Promise((resolve) => {
    client[c.method]({ ...(c.request || {}), input: { text } }, (err) => resolve(err ? err.code : 0));
  });
}

function stream(client, c, text) {
  return new Promise((resolve) => {
    const s = client.ValidateRecords();
    let failed = null;
    s.on('data', (r) => { if (!r.valid) failed = grpc.status.INVALID_ARGUMENT; });
    s.on('error', (err) => resolve(err.code));
    s.on('end', () => resolve(failed || 0));
    for (let i = 0; i < c.stream; i++) s.write({ id: `${i}`, input: { text } });
    s.end();
  });
}

// One case: a fresh server, 8 calls at once, its peak; true when it passes.
async function runCase(c) {
  const input = largestInput(c.answer);
  const server = await startServer();
  const client = new scribe.scribe.v1.ScribeService(server.address, grpc.credentials.createInsecure(),
    { 'grpc.max_receive_message_length': 64 * MIB, 'grpc.max_send_message_length': 64 * MIB });
  const start = Date.now();
  const codes = await Promise.all(Array.from({ length: CALLS },
    () => (c.stream ? stream(client, c, input.text) : unary(client, c, input.text))));
  const seconds = (Date.now() - start) / 1000;
  const peak = peakKb(server.proc.pid);
  client.close();
  server.proc.removeAllListeners('exit');
  server.proc.kill('SIGKILL');
  const ok = codes.every((code) => code === 0) && peak < LIMIT_KB;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${c.label || c.method}${c.stream ? ` (${c.stream} record a stream)` : ''}: ` +
    `${CALLS} calls, codes ${[...new Set(codes)].join(',')}; input ${(input.text.length / MIB).toFixed(2)} MiB, ` +
    `${input.records} records, ${input.actions} actions; peak ${(peak / 1024).toFixed(0)} MiB; ${seconds.toFixed(1)} s`);
  return ok;
}

async function main() {
  let failures = 0;
  for (const c of CASES) {
    if (!(await runCase(c))) failures++;
  }
  console.log(`${CASES.length - failures} passed, ${failures} failed`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
