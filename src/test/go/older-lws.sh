#!/usr/bin/env bash
# Builds the LeaderWorkerSet release before the pinned one, for the upgrade test of the real-cluster tier
# (LwsUpgradeE2E starts it, makes gangs, then replaces it by the pinned controller):
#
#   older-lws.sh VERSION OUT   build the lws-controller of the LeaderWorkerSet in lws-VERSION/ (its own
#                              go.mod/go.sum) into a cache outside the checkout and link, under OUT/lws-VERSION,
#                              that cache's bin folder (bin) and the fetched module (module: its CRDs and webhook
#                              configurations). VERSION "none" (-Dtopobridge.e2e.lwsPrevious=none) does nothing,
#                              and the upgrade test is skipped.
#
# Served versions: the module proxy serves sigs.k8s.io/lws v0.8.0 and v0.9.0 (pinned, lws/go.mod), and for v0.10.0
# only its .info and .mod: its zip is refused (403), so v0.10.0 can be neither pinned nor built.
#
# The cache is $TOPOBRIDGE_E2E_LWS_CACHE (default ~/.cache/topobridge-e2e-lws), one folder per version and hash of
# this script, the Go version and that version's go.mod/go.sum: a root of its own, which build.sh never sees.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version="${1:-}"
out="${2:-}"
if [[ -z "$version" || -z "$out" ]]; then
  echo "usage: older-lws.sh VERSION|none OUT" >&2
  exit 2
fi
if [[ "$version" == "none" ]]; then
  exit 0
fi
mod="$here/lws-$version"
if [[ ! -f "$mod/go.mod" ]]; then
  echo "topobridge: no LeaderWorkerSet $version to build: the older releases are $(cd "$here" && ls -d lws-* | sed 's/lws-//' | tr '\n' ' ')(src/test/go/lws-VERSION)" >&2
  exit 2
fi
if ! command -v go >/dev/null 2>&1; then
  echo "topobridge: Go is needed to build LeaderWorkerSet $version for the real-cluster tier (see src/test/go/build.sh)" >&2
  exit 1
fi
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false" GOWORK=off

key="$({ go env GOVERSION; cat "$here/older-lws.sh" "$mod/go.mod" "$mod/go.sum"; } | sha256sum | cut -c1-16)"
root="${TOPOBRIDGE_E2E_LWS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/topobridge-e2e-lws}"
dir="$root/$version-$key"
target="$out/lws-$version"
mkdir -p "$target"
(cd "$mod" && go mod download sigs.k8s.io/lws)
ln -sfn "$(cd "$mod" && go list -m -f '{{.Dir}}' sigs.k8s.io/lws)" "$target/module"

if [[ -f "$dir/bin/.complete" ]]; then
  echo "topobridge: LeaderWorkerSet $version up to date in $dir/bin"
  ln -sfn "$dir/bin" "$target/bin"
  exit 0
fi
echo "topobridge: building LeaderWorkerSet $version (lws-controller) into $dir/bin (a cold build takes minutes)"
started=$SECONDS
rm -rf "$dir"
mkdir -p "$dir/bin"
(cd "$mod" && go build -ldflags "-s -w" -o "$dir/bin/lws-controller" sigs.k8s.io/lws/cmd)
echo "sigs.k8s.io/lws=$(cd "$mod" && go list -m -f '{{.Version}}' sigs.k8s.io/lws)" > "$dir/bin/versions.properties"
touch "$dir/bin/.complete"
echo "topobridge: LeaderWorkerSet $version built in $((SECONDS - started)) s"
ln -sfn "$dir/bin" "$target/bin"
# older builds of this version are stale; other versions and build.sh's cache are left alone
find "$root" -mindepth 1 -maxdepth 1 -type d -name "$version-*" ! -name "$(basename "$dir")" -exec rm -rf {} +
