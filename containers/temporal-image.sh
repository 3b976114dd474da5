#!/usr/bin/env bash
# Builds localhost/signalbox-temporal:<server version> from the server devstack/build-temporal-server.sh builds (it
# builds it first when needed: Go and its module proxy), on BASE_IMAGE (default the local Debian base).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/signalbox"
"$here/../devstack/build-temporal-server.sh"
version=$("$cache/bin/temporal-server" --version | sed -n 's/^temporal version \(.*\)$/\1/p')
image="localhost/signalbox-temporal:$version"
if podman --runtime /usr/sbin/runc image exists "$image"; then echo "$image"; exit 0; fi
cli=$(command -v temporal || echo "$cache/bin/temporal")
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
mkdir -p "$context/bin" "$context/schema" "$context/config"
cp "$cache/bin/temporal-server" "$cache/bin/temporal-sql-tool" "$cli" "$context/bin/"
cp -R "$cache/temporal-schema/v$version/postgresql" "$context/schema/"
cp "$here/../devstack/temporal-server/postgres.yaml" "$context/config/"
cp "$here/temporal/start.sh" "$context/"
podman --runtime /usr/sbin/runc build --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 --format docker \
  --build-arg "BASE_IMAGE=${BASE_IMAGE:-localhost/debian:bookworm}" -f "$here/temporal/Containerfile" -t "$image" "$context" >&2
echo "$image"
