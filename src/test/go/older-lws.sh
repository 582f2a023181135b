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
# this script (with cache-lib.sh), the Go version and that version's go.mod/go.sum: a root of its own, which build.sh
# never sees.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/cache-lib.sh"
version="${1:-}"
cache_versioned older-lws.sh lws LeaderWorkerSet "the older releases are" VERSION none \
  "${TOPOBRIDGE_E2E_LWS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/topobridge-e2e-lws}" "$version" "${2:-}"
cache_link_module "$mod" sigs.k8s.io/lws "$target/module"

cache_reuse "LeaderWorkerSet $version" "$target"
cache_start "LeaderWorkerSet $version (lws-controller)" minutes
(cd "$mod" && go build -ldflags "-s -w" -o "$dir/bin/lws-controller" sigs.k8s.io/lws/cmd)
echo "sigs.k8s.io/lws=$(cd "$mod" && go list -m -f '{{.Version}}' sigs.k8s.io/lws)" > "$dir/bin/versions.properties"
cache_finish "LeaderWorkerSet $version" "$target" "$version-*"
