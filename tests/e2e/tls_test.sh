#!/usr/bin/env bash
# TLS and client certificates against the real scribed: makes throw-away
# certificates with the openssl command in a temporary folder (a CA, a
# server certificate for localhost and 127.0.0.1, a client certificate the
# CA signed, and a second CA with its own client certificate), then runs the
# Node @grpc/grpc-js checks in node_client/tls_test.js, which start scribed
# with TLS on loopback ports.
#
#   tests/e2e/tls_test.sh SCRIBED
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "tls_test.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
scribed="$(realpath "${1:?usage: tls_test.sh SCRIBED}")"
here="$(cd "$(dirname "$0")" && pwd)"
command -v openssl >/dev/null || { echo "tls_test: the openssl command is missing (apt-get install openssl)" >&2; exit 1; }

certs="$(mktemp -d)"
trap 'rm -rf "$certs"' EXIT
cd "$certs"

# openssl_quiet ARGS...: openssl with its output to a log, shown when it
# fails (a failing certificate step must say why).
openssl_quiet() {
  if ! openssl "$@" >"$certs/openssl.log" 2>&1; then
    echo "tls_test: openssl $1 failed:" >&2
    cat "$certs/openssl.log" >&2
    return 1
  fi
}
# ca NAME: a self-signed CA.
ca() {
  openssl_quiet req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=Scribe test $1" -keyout "$1.key" -out "$1.crt" \
    -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign"
}
# leaf NAME CA CN EXTENSIONS: a key and a certificate CA signed.
leaf() {
  openssl_quiet req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$3" \
    -keyout "$1.key" -out "$1.csr"
  printf '%s\n' "$4" >"$1.ext"
  openssl_quiet x509 -req -in "$1.csr" -CA "$2.crt" -CAkey "$2.key" -CAcreateserial -days 2 \
    -extfile "$1.ext" -out "$1.crt"
}
ca ca
ca other-ca
leaf server ca localhost "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth
basicConstraints=CA:false"
leaf client ca scribe-test-client "extendedKeyUsage=clientAuth
basicConstraints=CA:false"
leaf other-client other-ca scribe-test-stranger "extendedKeyUsage=clientAuth
basicConstraints=CA:false"
openssl_quiet verify -CAfile ca.crt server.crt client.crt
openssl_quiet verify -CAfile other-ca.crt other-client.crt

"$here/node_client/install.sh"
cd "$here/node_client"
SCRIBED="$scribed" CERTS="$certs" node --test tls_test.js
