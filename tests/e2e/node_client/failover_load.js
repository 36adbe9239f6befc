// A closed loop of ValidateRecord calls through a balancer, as a grpc-js
// application would make them: CONCURRENCY calls outstanding on one
// channel, each answer starting the next call, for SECONDS from the first
// call (SECONDS 0: one call, whatever it answers); every call has a 10 s
// deadline. With SERVICE_CONFIG (a file, e.g.
// docker/service-config.json) the channel has that service config, so
// grpc-js retries what its retry policy names, below the application.
// For tests/e2e/failover_test.sh (a replica frozen, then killed, mid-run).
//
// Prints, like bench/loadgen's report:
//   started                       once the first call has answered OK
//   result completed=N failed=M   every call made, and those that failed
//   (a call fails when it ends with an error or its record is not valid)
//       failed: CODE: message (n)   one line per distinct failure
// Exits 0 when the run itself worked (it does not judge the failures), 2 on
// bad usage.
//
// Usage: node failover_load.js ADDRESS RECORD SECONDS CONCURRENCY [SERVICE_CONFIG]
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const [address, record, seconds, concurrency, serviceConfig] = process.argv.slice(2);
if (!address || !record || !(Number(seconds) >= 0) || !(Number(concurrency) > 0)) {
  console.error('usage: node failover_load.js ADDRESS RECORD SECONDS CONCURRENCY [SERVICE_CONFIG]');
  process.exit(2);
}
const loadOptions = {
  keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [path.join(ROOT, 'proto'), '/usr/share/grpc-proto', '/usr/include'],
};
const scribe = grpc.loadPackageDefinition(protoLoader.loadSync('scribe/v1/scribe_service.proto', loadOptions));
const options = serviceConfig ? { 'grpc.service_config': fs.readFileSync(serviceConfig, 'utf8') } : {};
const client = new scribe.scribe.v1.ScribeService(address, grpc.credentials.createInsecure(), options);
const text = fs.readFileSync(record);
const codeName = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));

let completed = 0;
let failed = 0;
let endAt = 0;  // set when the first call answers OK
const errors = new Map();

function call() {
  return new Promise((resolve) => {
    client.ValidateRecord({ input: { text } }, { deadline: Date.now() + 10000 }, (err, response) => {
      completed++;
      let failure = '';
      if (err) failure = `${codeName[err.code] || err.code}: ${err.details}`;
      else if (!response.valid) failure = 'OK but the record is not valid';
      if (failure) {
        failed++;
        errors.set(failure, (errors.get(failure) || 0) + 1);
      } else if (endAt === 0) {
        endAt = Date.now() + Number(seconds) * 1000;
        console.log('started');
      }
      resolve();
    });
  });
}

async function worker() {
  if (Number(seconds) === 0) return call();
  // Until the first answer, a worker sends one call at a time; give up
  // after 20 s without any (the balancer never answered).
  const giveUp = Date.now() + 20000;
  while (endAt === 0 ? Date.now() < giveUp : Date.now() < endAt) await call();
}

Promise.all(Array.from({ length: Number(concurrency) }, worker)).then(() => {
  console.log(`result completed=${completed} failed=${failed}`);
  for (const [what, n] of errors) console.log(`    failed: ${what} (${n})`);
  client.close();
  process.exit(endAt === 0 && Number(seconds) > 0 ? 1 : 0);
});
