# Throw-away certificates for the TLS tests (tls_test.sh,
# database_tls_test.sh, database_deploy_test.sh), made with the openssl
# command in the folder $certs (the sourcing script sets it). Each function
# returns 1 after printing openssl's output when a step fails.
#
#   ca NAME                          a self-signed CA: $certs/NAME.crt, .key
#   leaf NAME CA SUBJECT EXTENSIONS  a key and a certificate CA signed
#                                    (SUBJECT as "/CN=name/O=org";
#                                    EXTENSIONS an openssl extfile's lines)

# openssl_quiet ARGS...: openssl with its output to a log, shown when it
# fails (a failing certificate step must say why).
openssl_quiet() {
  if ! openssl "$@" >"$certs/openssl.log" 2>&1; then
    echo "openssl $1 failed:" >&2
    cat "$certs/openssl.log" >&2
    return 1
  fi
}
ca() {
  openssl_quiet req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=Scribe test $1" -keyout "$certs/$1.key" -out "$certs/$1.crt" \
    -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign"
}
leaf() {
  openssl_quiet req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "$3" \
    -keyout "$certs/$1.key" -out "$certs/$1.csr" || return 1
  printf '%s\n' "$4" >"$certs/$1.ext"
  openssl_quiet x509 -req -in "$certs/$1.csr" -CA "$certs/$2.crt" -CAkey "$certs/$2.key" -CAcreateserial -days 2 \
    -extfile "$certs/$1.ext" -out "$certs/$1.crt"
}
