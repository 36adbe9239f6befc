#!/usr/bin/env bash
# Who may write to the game database (scribe.v1.GameDatabase) over TLS with
# client certificates, against the real scribed: makes throw-away
# certificates with the openssl command in a temporary folder (a CA; a
# server certificate for localhost and 127.0.0.1; client certificates the CA
# signed for a listed writer by its CN, a listed writer by its SAN URI, a
# listed writer by its whole subject, an unlisted reader and names close to
# the listed ones; and a second CA whose client certificate copies the
# writer's CN), a writers' list naming the writers, then runs the Node
# @grpc/grpc-js checks in node_client/database_tls_test.js, which start
# scribed with --db on a SQLite file in a temporary folder, on loopback
# ports.
#
#   tests/e2e/database_tls_test.sh SCRIBED [SCRIBE]
#   SCRIBE (the command line, for `scribe play`'s legal games): by default
#   the one built beside SCRIBED (build/cli/scribe).
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "database_tls_test.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
scribed="$(realpath "${1:?usage: database_tls_test.sh SCRIBED [SCRIBE]}")"
scribe="$(realpath "${2:-$(dirname "$scribed")/../cli/scribe}")"
here="$(cd "$(dirname "$0")" && pwd)"
command -v openssl >/dev/null || { echo "database_tls_test: the openssl command is missing (apt-get install openssl)" >&2; exit 1; }
[ -x "$scribe" ] || { echo "database_tls_test: no scribe command at $scribe (give it as the second argument)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
certs="$work/certs"
db="$work/db"
mkdir "$certs" "$db"
cd "$certs"

source "$here/certs_lib.sh"
client_ext="extendedKeyUsage=clientAuth
basicConstraints=CA:false"
ca ca
ca other-ca
leaf server ca /CN=localhost "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth
basicConstraints=CA:false"
# Listed by its CN.
leaf writer ca /CN=scribe-test-writer "$client_ext"
# Not listed.
leaf reader ca /CN=scribe-test-reader "$client_ext"
# Listed by its SAN URI only (its CN is not listed).
leaf san-writer ca /CN=scribe-test-san-client "subjectAltName=URI:spiffe://scribe.test/writer
$client_ext"
# Listed by its whole subject only (its CN alone is not listed).
leaf subject-writer ca "/O=Scribe Test/CN=scribe-test-subject" "$client_ext"
# Close to listed names, not equal to one: not writers.
leaf near-writer ca /CN=Scribe-Test-Writer "subjectAltName=URI:spiffe://scribe.test/writer/x,DNS:scribe-test-writer.example
$client_ext"
# A listed name as a name of another kind: the listed URI as its CN, the
# listed subject as its CN, the listed CN as a SAN DNS name. Not writers:
# an identity matches only a name of its kind.
leaf wrong-kind-uri ca '/CN=spiffe:\/\/scribe.test\/writer' "$client_ext"
leaf wrong-kind-subject ca "/CN=CN=scribe-test-subject,O=Scribe Test" "$client_ext"
leaf wrong-kind-cn ca /CN=nobody "subjectAltName=DNS:scribe-test-writer
$client_ext"
# The writer's CN on a certificate a CA the server does not trust signed.
leaf forged-writer other-ca /CN=scribe-test-writer "$client_ext"
openssl_quiet verify -CAfile ca.crt server.crt writer.crt reader.crt san-writer.crt subject-writer.crt near-writer.crt \
  wrong-kind-uri.crt wrong-kind-subject.crt wrong-kind-cn.crt
openssl_quiet verify -CAfile other-ca.crt forged-writer.crt

# The writers' list, each identity with its kind: comments, blank lines,
# spaces around identities and a leading byte-order mark (as some editors
# save) are allowed.
{
  printf '\xef\xbb\xbf'
  cat <<'LIST'
cn:scribe-test-writer   
# Clients that may import games (tests/e2e/database_tls_test.sh).

uri:spiffe://scribe.test/writer
   subject:CN=scribe-test-subject,O=Scribe Test
LIST
} >writers.txt
printf '# nothing but comments\n\n' >empty-writers.txt
# An identity without its kind: refused at start.
printf 'cn:scribe-test-writer\nscribe-test-reader\n' >untyped-writers.txt

"$here/node_client/install.sh"
cd "$here/node_client"
SCRIBED="$scribed" SCRIBE="$scribe" CERTS="$certs" DB_DIR="$db" node --test database_tls_test.js
