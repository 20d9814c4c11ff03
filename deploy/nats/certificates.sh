#!/bin/sh
# The broker's TLS certificates for docker compose, which cannot run cert-manager: made by the
# nats-certs service (on the mongo image, whose ca-certificates package brings openssl) before
# NATS starts, on every `docker compose up`. The first start makes a certificate authority and
# a server certificate it signs; a later start keeps both while the server certificate has 30
# days left, else signs a new one with the same authority (the services, which trust the
# authority, need no change). Nothing here is ever copied out of the two volumes:
#   $NATS_TLS_DIR (the nats service alone): the authority's key, the server's key and certificate;
#   $NATS_CA_DIR (every service, read-only): the authority's certificate, ca.crt.
set -eu
tls=${NATS_TLS_DIR:-/tls}
ca=${NATS_CA_DIR:-/ca}
# The names the services reach the broker by (NATS_URL=nats://nats:4222), and the host's.
names=${NATS_TLS_NAMES:-DNS:nats,DNS:localhost,IP:127.0.0.1}
renew_seconds=$((30 * 24 * 3600))
umask 077

valid() { [ -s "$1" ] && openssl x509 -checkend "$renew_seconds" -noout -in "$1" >/dev/null; }

if ! valid "$ca/ca.crt" || [ ! -s "$tls/ca.key" ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
    -subj '/CN=debate compose NATS CA' -keyout "$tls/ca.key" -out "$tls/ca.crt.new" \
    -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign'
  mv "$tls/ca.crt.new" "$ca/ca.crt"
  rm -f "$tls/server.crt"
  echo 'nats-certs: made a new certificate authority'
fi
chmod 0644 "$ca/ca.crt"

if valid "$tls/server.crt" && openssl verify -CAfile "$ca/ca.crt" "$tls/server.crt" >/dev/null; then
  echo 'nats-certs: the server certificate is valid'
  exit 0
fi
extensions="$tls/server.ext"
printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature' \
  'extendedKeyUsage=serverAuth' "subjectAltName=$names" >"$extensions"
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '/CN=nats' \
  -keyout "$tls/server.key" -out "$tls/server.csr"
openssl x509 -req -in "$tls/server.csr" -CA "$ca/ca.crt" -CAkey "$tls/ca.key" \
  -CAcreateserial -CAserial "$tls/ca.srl" -days 825 -extfile "$extensions" -out "$tls/server.crt"
rm -f "$tls/server.csr" "$extensions"
echo "nats-certs: signed a server certificate for $names"
