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

source "$here/certs_lib.sh"
ca ca
ca other-ca
leaf server ca /CN=localhost "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth
basicConstraints=CA:false"
leaf client ca /CN=scribe-test-client "extendedKeyUsage=clientAuth
basicConstraints=CA:false"
leaf other-client other-ca /CN=scribe-test-stranger "extendedKeyUsage=clientAuth
basicConstraints=CA:false"
openssl_quiet verify -CAfile ca.crt server.crt client.crt
openssl_quiet verify -CAfile other-ca.crt other-client.crt

"$here/node_client/install.sh"
cd "$here/node_client"
SCRIBED="$scribed" CERTS="$certs" node --test tls_test.js
