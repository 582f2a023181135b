#!/usr/bin/env bash
# Builds the Kueue peer of the placement benchmark (docs/benchmarks.md) when the real-cluster tier first starts it
# (about 2 minutes on two cores after build.sh, whose compiled packages kueue/go.mod shares):
#
#   kueue.sh OUT   build the Kueue controller manager of kueue/ (sigs.k8s.io/kueue, its own go.mod/go.sum) and
#                  kube-scheduler of the tier's pinned Kubernetes (the k8s.io/kubernetes of cluster/, which binds the
#                  pods Kueue admits) into a cache outside the checkout; link that cache's bin folder as
#                  OUT/kueue/bin and Kueue's module (CRDs, webhook manifests) as OUT/kueue/module
#
# The cache is $TOPOBRIDGE_E2E_KUEUE_CACHE (default ~/.cache/topobridge-e2e-kueue), one folder per hash of this script
# (with cache-lib.sh), the Go version and the go.mod/go.sum files of kueue/ and cluster/; a root of its own, so
# build.sh (which removes every other folder under its root) never sees it, and no edit here rebuilds the tier's other
# binaries.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/cache-lib.sh"
out="${1:-}"
cache_args "kueue.sh OUT" "" kueue "$out"
cache_need_go "Kueue and kube-scheduler for the placement benchmark"

root="${TOPOBRIDGE_E2E_KUEUE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/topobridge-e2e-kueue}"
cache_dir "$root" "" "$here/kueue.sh" "$here"/{kueue,cluster}/go.{mod,sum}
target="$out/kueue"
mkdir -p "$target"
cache_link_module "$here/kueue" sigs.k8s.io/kueue "$target/module"

# the real-cluster tier's forks may ask at once: one builds, the others wait for it and reuse its build
mkdir -p "$root"
exec 9>"$root/.lock"
flock 9
cache_reuse "Kueue and kube-scheduler" "$target"
cache_start "Kueue and kube-scheduler" "about 2 minutes once the cluster's is built"
kueue="$(cd "$here/kueue" && go list -m -f '{{.Version}}' sigs.k8s.io/kueue)"
(cd "$here/kueue" && go build -ldflags "-s -w -X sigs.k8s.io/kueue/pkg/version.GitVersion=$kueue" \
  -o "$dir/bin/kueue" sigs.k8s.io/kueue/cmd/kueue)
kver="$(cd "$here/cluster" && go list -m -f '{{.Version}}' k8s.io/kubernetes)"
minor="$(echo "$kver" | cut -d. -f2)"
(cd "$here/cluster" && go build -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$kver \
  -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor \
  -X k8s.io/component-base/version.gitTreeState=clean" -o "$dir/bin/kube-scheduler" k8s.io/kubernetes/cmd/kube-scheduler)
printf 'kueue=%s\nkubernetes=%s\n' "$kueue" "$kver" > "$dir/bin/versions.properties"
# older keys' folders go: one build per set of inputs is kept
cache_finish "Kueue and kube-scheduler" "$target" "*"
