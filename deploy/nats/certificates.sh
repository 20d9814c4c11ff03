#!/bin/sh
# The NATS servers' TLS certificates for docker compose, which cannot run cert-manager: made by
# the nats-certs service (on the mongo image, whose ca-certificates package brings openssl)
# before NATS starts, on every `docker compose up`. The first start makes a certificate authority
# and a certificate it signs, which the three servers share: it names every server
# ($NATS_TLS_NAMES, which compose sets), and is a server's and a client's, since both ends of a
# route between two servers present it. A later start keeps both while the certificate has 30
# days left and was signed for the same names, else signs a new one with the same authority (the
# services, which trust the authority, need no change). Nothing here is ever copied out of the
# two volumes:
#   $NATS_TLS_DIR (the NATS servers alone): the authority's key, the servers' key and certificate;
#   $NATS_CA_DIR (the servers and every service, read-only): the authority's certificate, ca.crt.
set -eu
tls=${NATS_TLS_DIR:-/tls}
ca=${NATS_CA_DIR:-/ca}
# The names the services reach the servers by (their NATS_URL), and the routes.
names=${NATS_TLS_NAMES:?set NATS_TLS_NAMES to the names of the servers (DNS:nats-1,...)}
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

# What the certificate is signed for, kept beside it: a change (new names) signs a new one.
extensions="$tls/server.ext"
printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature' \
  'extendedKeyUsage=serverAuth,clientAuth' "subjectAltName=$names" >"$extensions.new"
if valid "$tls/server.crt" && openssl verify -CAfile "$ca/ca.crt" "$tls/server.crt" >/dev/null &&
  cmp -s "$extensions.new" "$extensions"; then
  rm -f "$extensions.new"
  echo 'nats-certs: the server certificate is valid'
  exit 0
fi
mv "$extensions.new" "$extensions"
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '/CN=nats' \
  -keyout "$tls/server.key" -out "$tls/server.csr"
openssl x509 -req -in "$tls/server.csr" -CA "$ca/ca.crt" -CAkey "$tls/ca.key" \
  -CAcreateserial -CAserial "$tls/ca.srl" -days 825 -extfile "$extensions" -out "$tls/server.crt"
rm -f "$tls/server.csr"
echo "nats-certs: signed a server certificate for $names"
