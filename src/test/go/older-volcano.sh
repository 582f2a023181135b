#!/usr/bin/env bash
# Builds an older Volcano minor for the real-cluster tier, so that the compatibility matrix (docs/compatibility.md)
# is measured rather than claimed:
#
#   older-volcano.sh MINOR OUT   build vc-scheduler and vc-controller-manager of the Volcano in volcano-MINOR/
#                                (its own go.mod/go.sum) into a cache outside the checkout and link, under
#                                OUT/volcano-MINOR, that cache's bin folder (bin) and the fetched Volcano module
#                                (module: its CRDs and admission policies). MINOR "pinned" (the default of the
#                                Maven property topobridge.e2e.volcano) does nothing: the tier runs the pins of
#                                build.sh.
#
# Served versions: the module proxy serves volcano.sh/volcano v1.14.1 and v1.15.x but refuses every v1.12.x and
# v1.13.x tried (v1.12.0-4, v1.13.0-3) and v1.14.0, v1.14.2-4, so v1.14.1 is the older minor measured. volcano.sh/apis is a
# nested module of Volcano's repository, left out of the volcano.sh/volcano module zip; Volcano v1.14.1 resolves
# it from its own tree, which a requiring module cannot; the proxy serves v1.14.0 (not v1.14.1), and Volcano
# v1.14.1 builds against it unchanged, so volcano-1.14/go.mod replaces it with v1.14.0 (no source is patched).
#
# The cache is $TOPOBRIDGE_E2E_VOLCANO_CACHE (default ~/.cache/topobridge-e2e-volcano), one folder per minor and hash
# of this script (with cache-lib.sh), the Go version and that minor's go.mod/go.sum. It is a root of its own:
# build.sh, which removes every other folder under its root, never sees it, and this script leaves build.sh's cache
# alone.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/cache-lib.sh"
minor="${1:-}"
cache_versioned older-volcano.sh volcano Volcano "the older minors are" MINOR pinned \
  "${TOPOBRIDGE_E2E_VOLCANO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/topobridge-e2e-volcano}" "$minor" "${2:-}"
cache_link_module "$mod" volcano.sh/volcano "$target/module"

cache_reuse "Volcano $minor binaries" "$target"
cache_start "Volcano $minor (vc-scheduler, vc-controller-manager)" "several minutes"
for cmd in scheduler:vc-scheduler controller-manager:vc-controller-manager; do
  t=$SECONDS
  (cd "$mod" && go build -ldflags "-s -w" -o "$dir/bin/${cmd#*:}" "volcano.sh/volcano/cmd/${cmd%%:*}")
  echo "topobridge:   ${cmd#*:} built in $((SECONDS - t)) s"
done
{
  echo "volcano.sh/volcano=$(cd "$mod" && go list -m -f '{{.Version}}' volcano.sh/volcano)"
  echo "volcano.sh/apis=$(cd "$mod" && go list -m -f '{{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}' volcano.sh/apis)"
} > "$dir/bin/versions.properties"
cache_finish "Volcano $minor" "$target" "$minor-*"
