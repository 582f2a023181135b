#!/usr/bin/env bash
# Builds another Kubernetes minor's control plane for the real-cluster tier, so that the Kubernetes matrix
# (docs/compatibility.md) is measured rather than claimed:
#
#   kubernetes.sh MINOR OUT   build the commands of the k8s.io/kubernetes in kubernetes-MINOR/ (its own go.mod/go.sum;
#                             those of its tool block: kube-apiserver, kube-controller-manager, and kube-scheduler
#                             for the native topology-aware scheduling run) into a cache outside the checkout and link
#                             that cache's bin folder as OUT/kubernetes-MINOR/bin. MINOR "pinned" (the default of the
#                             Maven property topobridge.e2e.kubernetes) does nothing: the tier runs build.sh's pin.
#
# etcd, Volcano, LeaderWorkerSet and AIBrix stay those of build.sh. k8s.io/kubernetes requires its staging modules
# at v0.0.0, so each kubernetes-MINOR/go.mod replaces them with the v0.MINOR.PATCH the module proxy serves.
#
# The cache is $TOPOBRIDGE_E2E_KUBERNETES_CACHE (default ~/.cache/topobridge-e2e-kubernetes), one folder per minor and
# hash of this script (with cache-lib.sh), the Go version and that minor's go.mod/go.sum; a root of its own, so
# build.sh (which removes every other folder under its root) never sees it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/cache-lib.sh"
minor="${1:-}"
cache_versioned kubernetes.sh kubernetes Kubernetes "the matrix has" MINOR pinned \
  "${TOPOBRIDGE_E2E_KUBERNETES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/topobridge-e2e-kubernetes}" "$minor" "${2:-}"

cache_reuse "Kubernetes $minor binaries" "$target"
# the commands of the module's tool block: kube-apiserver and kube-controller-manager, and kube-scheduler where the
# native topology-aware scheduling run needs it (1.37)
cmds="$(cd "$mod" && go mod edit -json | grep -o '"k8s.io/kubernetes/cmd/[a-z-]*"' | tr -d '"' | sed 's|.*/||' | tr '\n' ' ')"
cache_start "Kubernetes $minor (${cmds% })" "many minutes"
kver="$(cd "$mod" && go list -m -f '{{.Version}}' k8s.io/kubernetes)"
stamp="-s -w -X k8s.io/component-base/version.gitVersion=$kver -X k8s.io/component-base/version.gitMajor=1"
stamp="$stamp -X k8s.io/component-base/version.gitMinor=${minor#1.} -X k8s.io/component-base/version.gitTreeState=clean"
for cmd in $cmds; do
  t=$SECONDS
  (cd "$mod" && go build -ldflags "$stamp" -o "$dir/bin/$cmd" "k8s.io/kubernetes/cmd/$cmd")
  echo "topobridge:   $cmd built in $((SECONDS - t)) s"
done
echo "kubernetes=$kver" > "$dir/bin/versions.properties"
cache_finish "Kubernetes $minor" "$target" "$minor-*"
