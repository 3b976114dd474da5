#!/bin/sh
# Temporal on PostgreSQL in one container: its two databases made and brought to this server's schema (nothing to do
# when they are), the server with every service in one process, then the namespace, made once.
# Reads postgres.yaml's variables: POSTGRES_SEEDS, DB_PORT, POSTGRES_USER, POSTGRES_PWD, DBNAME, VISIBILITY_DBNAME, ...
set -eu
# POSTGRES_PASSWORD stands in for POSTGRES_PWD, so that one env file serves PostgreSQL's container and this one.
export POSTGRES_PWD="${POSTGRES_PWD:-${POSTGRES_PASSWORD:-}}"
: "${POSTGRES_SEEDS:?is required}" "${POSTGRES_USER:?is required}" "${POSTGRES_PWD:?is required}"
export DB_PORT="${DB_PORT:-5432}" DBNAME="${DBNAME:-temporal}" VISIBILITY_DBNAME="${VISIBILITY_DBNAME:-temporal_visibility}"
# The server binds and announces itself on the container's own address (membership needs an address, not 0.0.0.0).
export BIND_ON_IP="${BIND_ON_IP:-$(sed -n "s/^\([0-9.]*\)[[:space:]].*\b$(cat /etc/hostname)\b.*/\1/p" /etc/hosts | head -n 1)}"
export TEMPORAL_VERSION_CHECK_DISABLED=1
namespace="${TEMPORAL_NAMESPACE:-default}"
schema=/etc/temporal/schema/postgresql/v12
sql() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" --pw "$POSTGRES_PWD" "$@"; }

for pair in "$DBNAME:temporal" "$VISIBILITY_DBNAME:visibility"; do
  database="${pair%%:*}"
  until out=$(sql --db "$database" create-database 2>&1) || echo "$out" | grep -q 'already exists'; do
    echo "waiting for PostgreSQL at $POSTGRES_SEEDS:$DB_PORT"; sleep 2
  done
  # A database set up before keeps its schema: setup-schema refuses, update-schema brings it to this server's version.
  sql --db "$database" setup-schema -v 0.0 >/dev/null 2>&1 || true
  sql --db "$database" update-schema -d "$schema/${pair#*:}/versioned"
done

temporal-server --root /etc/temporal --config config --env postgres --allow-no-auth start &
server=$!
address="$BIND_ON_IP:${FRONTEND_GRPC_PORT:-7233}"
until temporal operator cluster health --address "$address" >/dev/null 2>&1; do
  kill -0 "$server" 2>/dev/null || exit 1
  sleep 1
done
temporal operator namespace describe --address "$address" --namespace "$namespace" >/dev/null 2>&1 \
  || temporal operator namespace create --address "$address" --namespace "$namespace" --retention "${TEMPORAL_RETENTION:-72h}"
echo "$address" > /tmp/temporal-ready
echo "Temporal is serving namespace $namespace at $address"
wait "$server"
