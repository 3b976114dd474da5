#!/usr/bin/env bash
# The Temporal server and its SQL schema tool, built from the go.temporal.io/server version the Temporal CLI
# (devstack/temporal-cli.ts) requires, with that version's PostgreSQL schema beside them:
#   $cache/bin/temporal-server, $cache/bin/temporal-sql-tool, $cache/temporal-schema/<version>/postgresql/v12/…
# Skipped when both binaries already report that version. Needs Go (>= 1.25) and its module proxy.
set -euo pipefail
cd "$(dirname "$0")"

cache="${XDG_CACHE_HOME:-$HOME/.cache}/signalbox"
export PATH="/usr/local/go/bin:$PATH"

cli_module=$(sed -n "s/^export const TEMPORAL_CLI_MODULE = '\(.*\)';$/\1/p" temporal-cli.ts)
cli_version="${cli_module##*@}"
[ -n "$cli_version" ] || { echo "TEMPORAL_CLI_MODULE not found in devstack/temporal-cli.ts" >&2; exit 1; }

# Without the checksum database (no internet beyond the module proxy) the download is retried unverified, as .ci/run does.
download() { go mod download -json "$1" 2>/dev/null || GOSUMDB=off go mod download -json "$1"; }
json_field() { sed -n "s/^\t\"$1\": \"\(.*\)\",\?$/\1/p"; }

cli_go_mod=$(download "github.com/temporalio/cli@$cli_version" | json_field GoMod)
server_version=$(awk '$1 == "go.temporal.io/server" { print $2 }' "$cli_go_mod")
[ -n "$server_version" ] || { echo "go.temporal.io/server not required by $cli_go_mod" >&2; exit 1; }

schema="$cache/temporal-schema/$server_version"
reports() { [ -x "$cache/bin/$1" ] && [ "$("$cache/bin/$1" --version)" = "$2 version ${server_version#v}" ]; }
if reports temporal-server temporal && reports temporal-sql-tool temporal-sql-tool && [ -d "$schema/postgresql" ]; then
  exit 0
fi

echo "Building the Temporal server and SQL tool $server_version (first time only: several minutes)"
server_dir=$(download "go.temporal.io/server@$server_version" | json_field Dir)
build_dir=$(mktemp -d)
trap 'rm -rf "$build_dir"' EXIT
GOBIN="$build_dir" go install "go.temporal.io/server/cmd/server@$server_version" "go.temporal.io/server/cmd/tools/sql@$server_version" \
  || GOBIN="$build_dir" GOSUMDB=off go install "go.temporal.io/server/cmd/server@$server_version" "go.temporal.io/server/cmd/tools/sql@$server_version"
mkdir -p "$cache/bin" "$schema"
mv "$build_dir/server" "$cache/bin/temporal-server"
mv "$build_dir/sql" "$cache/bin/temporal-sql-tool"
# Module cache files are read-only; the copy is made writable so that a later run can replace it.
cp -R --no-preserve=mode "$server_dir/schema/postgresql" "$schema/"
echo "Built $cache/bin/temporal-server and $cache/bin/temporal-sql-tool; schema in $schema"
