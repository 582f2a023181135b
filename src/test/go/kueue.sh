#!/usr/bin/env bash
# Builds the Kueue peer of the placement benchmark (docs/benchmarks.md) only when a run asks for it, so that the
# default build never pays for it (a cold build takes 10 to 20 minutes on two cores):
#
#   kueue.sh OUT   build the Kueue controller manager of kueue/ (sigs.k8s.io/kueue, its own go.mod/go.sum) and
#                  kube-scheduler of the tier's pinned Kubernetes (the k8s.io/kubernetes of cluster/, which binds the
#                  pods Kueue admits) into a cache outside the checkout; link that cache's bin folder as
#                  OUT/kueue/bin and Kueue's module (CRDs, webhook manifests) as OUT/kueue/module
#
# The cache is $TOPOBRIDGE_E2E_KUEUE_CACHE (default ~/.cache/topobridge-e2e-kueue), one folder per hash of this
# script, the Go version and the go.mod/go.sum files of kueue/ and cluster/; a root of its own, so build.sh (which
# removes every other folder under its root) never sees it, and no edit here rebuilds the tier's other binaries.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-}"
if [[ -z "$out" ]]; then
  echo "usage: kueue.sh OUT" >&2
  exit 2
fi
if ! command -v go >/dev/null 2>&1; then
  echo "topobridge: Go is needed to build Kueue and kube-scheduler for the placement benchmark (see src/test/go/build.sh)" >&2
  exit 1
fi
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false" GOWORK=off

key="$({ go env GOVERSION; cat "$here/kueue.sh"; for m in kueue cluster; do cat "$here/$m/go.mod" "$here/$m/go.sum"; done; } | sha256sum | cut -c1-16)"
root="${TOPOBRIDGE_E2E_KUEUE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/topobridge-e2e-kueue}"
dir="$root/$key"
target="$out/kueue"
mkdir -p "$target"
(cd "$here/kueue" && go mod download sigs.k8s.io/kueue)
ln -sfn "$(cd "$here/kueue" && go list -m -f '{{.Dir}}' sigs.k8s.io/kueue)" "$target/module"

if [[ -f "$dir/bin/.complete" ]]; then
  echo "topobridge: Kueue and kube-scheduler up to date in $dir/bin"
  ln -sfn "$dir/bin" "$target/bin"
  exit 0
fi
echo "topobridge: building Kueue and kube-scheduler into $dir/bin (a cold build takes 10 to 20 minutes)"
started=$SECONDS
rm -rf "$dir"
mkdir -p "$dir/bin"
kueue="$(cd "$here/kueue" && go list -m -f '{{.Version}}' sigs.k8s.io/kueue)"
(cd "$here/kueue" && go build -ldflags "-s -w -X sigs.k8s.io/kueue/pkg/version.GitVersion=$kueue" \
  -o "$dir/bin/kueue" sigs.k8s.io/kueue/cmd/kueue)
kver="$(cd "$here/cluster" && go list -m -f '{{.Version}}' k8s.io/kubernetes)"
minor="$(echo "$kver" | cut -d. -f2)"
(cd "$here/cluster" && go build -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$kver \
  -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor \
  -X k8s.io/component-base/version.gitTreeState=clean" -o "$dir/bin/kube-scheduler" k8s.io/kubernetes/cmd/kube-scheduler)
printf 'kueue=%s\nkubernetes=%s\n' "$kueue" "$kver" > "$dir/bin/versions.properties"
touch "$dir/bin/.complete"
# older keys' folders go: one build per set of inputs is kept
find "$root" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
ln -sfn "$dir/bin" "$target/bin"
echo "topobridge: Kueue and kube-scheduler built in $((SECONDS - started)) s"
