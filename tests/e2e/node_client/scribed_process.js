// scribed as a child process, for the Node tests that start their own
// server (tls_test.js, database_tls_test.js): on a free loopback port, its
// log kept.
'use strict';

const { spawn } = require('node:child_process');

// Starts `scribed` with `args` on a free loopback port; resolves with
// { proc, address, log } once it prints its port, rejects if it exits or
// has not started within 20 s.
function startServer(scribed, args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(scribed, ['--listen', '127.0.0.1:0', '--metrics-interval-seconds', '0', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let log = '';
    const timer = setTimeout(() => reject(new Error('scribed did not start: ' + log)), 20000);
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on port (\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, address: `127.0.0.1:${m[1]}`, log: () => log });
      }
    });
    proc.stderr.on('data', (chunk) => { log += chunk; });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`scribed exited with ${code}: ${log}`)); });
  });
}

// Stops it with SIGTERM; resolves with its exit code.
function stopServer(server) {
  return new Promise((resolve) => {
    if (server.proc.exitCode !== null) { resolve(server.proc.exitCode); return; }
    server.proc.removeAllListeners('exit');
    server.proc.on('exit', (code) => resolve(code));
    server.proc.kill('SIGTERM');
  });
}

module.exports = { startServer, stopServer };
