// One HTTP/2 request as a gRPC client sends it (POST, content-type
// application/grpc, te: trailers, BYTES bytes of body), with Node's own
// http2 module, so that how the server framed its answer shows,
// and one line that says how the answer was framed:
//   status=200 end_stream=1 content_type=application/grpc grpc_status=14 data_bytes=0 trailers=0 message=TEXT
// end_stream=1: the HEADERS frame ended the stream (a gRPC "trailers-only"
// answer, which clients read as the call's status, not as the start of an
// answer); data_bytes: the body that followed; trailers=1 when trailers
// came after it. For tests/e2e/failover_test.sh: what nginx answers itself.
// With AUTHORITY, the request's :authority is that (e.g. ".." for a request
// nginx refuses as bad).
//
// Usage: node proxy_answer.js ADDRESS PATH BYTES [AUTHORITY]
'use strict';

const http2 = require('node:http2');

const [address, path, bytes, authority] = process.argv.slice(2);
if (!address || !path || !(Number(bytes) >= 0)) {
  console.error('usage: node proxy_answer.js ADDRESS PATH BYTES [AUTHORITY]');
  process.exit(2);
}
const session = http2.connect(`http://${address}`);
session.on('error', (e) => { console.error(`connection: ${e.message}`); process.exit(1); });
const headers = { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' };
if (authority) headers[':authority'] = authority;
const request = session.request(headers);
let answer = null;
let endStream = 0;
let dataBytes = 0;
let trailers = 0;
function report() {
  console.log(`status=${answer[':status']} end_stream=${endStream} content_type=${answer['content-type']}` +
              ` grpc_status=${answer['grpc-status']} data_bytes=${dataBytes} trailers=${trailers}` +
              ` message=${answer['grpc-message']}`);
  process.exit(0);
}
request.on('response', (h, flags) => {
  answer = h;
  endStream = flags & http2.constants.NGHTTP2_FLAG_END_STREAM ? 1 : 0;
  // The stream ended with these headers: the whole answer, whatever the
  // server does with the rest of the body.
  if (endStream) report();
});
request.on('data', (chunk) => { dataBytes += chunk.length; });
request.on('trailers', () => { trailers = 1; });
request.on('error', () => {});
request.on('close', () => {
  if (!answer) {
    console.log(`no answer (stream reset with code ${request.rstCode})`);
    process.exit(1);
  }
  report();
});
request.end(Buffer.alloc(Number(bytes)));
