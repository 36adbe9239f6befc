// Sends N calls of one method at once, each with the same record file as
// text, and prints one line per call: its status code, the code's name,
// the size of the answer and the first field violation of an error.
// For tests/e2e/memory_test.sh (the server's peak memory under the
// largest accepted requests) and for measuring by hand.
//
// Usage: node concurrent_calls.js ADDRESS METHOD FILE N [REQUEST_JSON]
//   METHOD: ValidateRecord, ReplayRecord, AnnotateRecord, ConvertRecord
//     (REQUEST_JSON adds fields: '{"to":"RECORD_FORMAT_TSN"}'), or
//     ValidateRecords (N streams, each sending the record STREAM_RECORDS
//     times, default 1).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const [address, method, file, count, extra] = process.argv.slice(2);
if (!address || !method || !file || !count) {
  console.error('usage: node concurrent_calls.js ADDRESS METHOD FILE N [REQUEST_JSON]');
  process.exit(2);
}
const text = fs.readFileSync(file);
const n = Number(count);
const streamRecords = Number(process.env.STREAM_RECORDS || 1);

const loadOptions = {
  keepCase: true, longs: Number, enums: String, defaults: false, oneofs: true,
  includeDirs: [path.join(ROOT, 'proto'), '/usr/share/grpc-proto', '/usr/include'],
};
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/scribe_service.proto', loadOptions));
const rpcRoot = new protobuf.Root().loadSync([path.join(ROOT, 'proto/google/rpc/status.proto'),
  path.join(ROOT, 'proto/google/rpc/error_details.proto')], { keepCase: true });

// The first google.rpc.BadRequest violation of an error, as "field: description".
function firstViolation(err) {
  const bin = err.metadata && err.metadata.get('grpc-status-details-bin')[0];
  if (!bin) return '';
  const status = rpcRoot.lookupType('google.rpc.Status').decode(bin);
  const detail = status.details.find((d) => d.type_url.endsWith('google.rpc.BadRequest'));
  if (!detail) return '';
  const v = rpcRoot.lookupType('google.rpc.BadRequest').decode(detail.value).field_violations[0];
  return v ? `${v.field}: ${v.description}` : '';
}

const codeName = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));
// Answers of up to 1 GiB are taken, so that the server's limit is what is tested.
const client = new scribe.scribe.v1.ScribeService(address, grpc.credentials.createInsecure(), {
  'grpc.max_receive_message_length': 1 << 30, 'grpc.max_send_message_length': 1 << 30,
});
// REQUEST_JSON's fields are added; its `input` fields beside the text.
const fields = extra ? JSON.parse(extra) : {};
const request = { ...fields, input: { ...(fields.input || {}), text } };

function report(err, bytes) {
  const code = err ? err.code : 0;
  const violation = err ? firstViolation(err) : '';
  console.log(`${code} ${codeName[code]} ${bytes} ${violation || (err ? err.details : '')}`.trimEnd());
}

function unary() {
  return new Promise((resolve) => {
    client[method](request, (err, response) => {
      report(err, response ? JSON.stringify(response).length : 0);
      resolve();
    });
  });
}

function stream() {
  return new Promise((resolve) => {
    const s = client.ValidateRecords();
    let bytes = 0;
    let failed = false;
    s.on('data', (r) => { bytes += JSON.stringify(r).length; });
    s.on('error', (err) => { failed = true; report(err, bytes); resolve(); });
    s.on('end', () => { if (!failed) report(null, bytes); resolve(); });
    for (let i = 0; i < streamRecords; i++) s.write({ id: `${i}`, input: { text } });
    s.end();
  });
}

Promise.all(Array.from({ length: n }, () => (method === 'ValidateRecords' ? stream() : unary())))
  .then(() => client.close());
