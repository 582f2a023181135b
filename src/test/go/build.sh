#!/usr/bin/env bash
# Builds the real components of the end-to-end test tier from their Go modules (nothing here is downloaded
# as a binary, and nothing fetched is ever written into the checkout):
#
#   build.sh modules OUT    download the pinned modules and link their folders (CRDs, samples) under OUT
#   build.sh binaries OUT   build every binary once per set of go.mod/go.sum files into a cache outside the
#                           checkout, then link that cache's bin folder as OUT/bin
#   build.sh validator OUT  build the OLM bundle validator (olm/) once per olm/go.mod, go.sum and main.go into a
#                           cache outside the checkout, then link it as OUT/validate-bundle (the unit tier runs it)
#
# Modules (each its own go.mod, because their Kubernetes minor versions differ):
#   cluster  etcd, kube-apiserver, kube-controller-manager (k8s.io/kubernetes at the version Volcano pins)
#            and Volcano's vc-scheduler and vc-controller-manager
#   lws      the LeaderWorkerSet controller (it also serves DisaggregatedSet)
#   aibrix   the AIBrix controller manager (StormService, RoleSet, PodSet)
#   olm      validate-bundle: operator-framework/api's bundle validators run on bundle/ (our main.go)
#
# The cache is $TOPOBRIDGE_E2E_CACHE (default ~/.cache/topobridge-e2e), one folder per hash of this script,
# the Go version and every go.mod/go.sum here. The validator's is a root of its own, $TOPOBRIDGE_OLM_CACHE (default
# ~/.cache/topobridge-olm), one folder per hash of this script, the Go version and olm/'s files, so that neither
# build removes the other's.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cmd="${1:-}"
out="${2:-}"
if [[ -z "$cmd" || -z "$out" ]]; then
  echo "usage: build.sh modules|binaries|validator OUT" >&2
  exit 2
fi

need_go() {
  if ! command -v go >/dev/null 2>&1; then
    cat >&2 <<'MSG'
topobridge: Go 1.26 or newer is needed to build the real-cluster test tier (kube-apiserver, etcd, Volcano,
LeaderWorkerSet and AIBrix are compiled from their Go modules) and to read those modules' CRDs.
Install Go from https://go.dev/dl/ (or your distribution's package) and make sure `go` is on PATH.
MSG
    exit 1
  fi
  local v
  v="$(go env GOVERSION)"
  v="${v#go}"
  local major="${v%%.*}" rest="${v#*.}"
  local minor="${rest%%.*}"
  if (( major < 1 || (major == 1 && minor < 26) )); then
    echo "topobridge: Go $v found, but LeaderWorkerSet's module needs Go 1.26 or newer (go.dev/dl)." >&2
    exit 1
  fi
}

need_go
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false"
mkdir -p "$out"

# Volcano v1.15.1 resolves volcano.sh/apis from its own repository (a nested module the proxy does not
# serve at v1.15.x). The served v1.14.0 (cluster/go.mod replaces it) has the same types but for one
# annotation key added in v1.15, so the build uses v1.14.0 plus that one constant, assembled in the cache
# (VOLCANO_APIS_GAP below).

module_dir() { # module@version, resolved through the cluster/lws/aibrix go.mod files
  (cd "$here/$1" && GOWORK=off go list -m -f '{{.Dir}}' "$2")
}

link_modules() {
  (cd "$here/cluster" && GOWORK=off go mod download volcano.sh/volcano)
  (cd "$here/lws" && GOWORK=off go mod download sigs.k8s.io/lws)
  (cd "$here/aibrix" && GOWORK=off go mod download github.com/vllm-project/aibrix)
  ln -sfn "$(module_dir cluster volcano.sh/volcano)" "$out/volcano"
  ln -sfn "$(module_dir lws sigs.k8s.io/lws)" "$out/lws"
  ln -sfn "$(module_dir aibrix github.com/vllm-project/aibrix)" "$out/aibrix"
}

cache_key() {
  {
    go env GOVERSION
    cat "$here/build.sh"
    for m in cluster lws aibrix; do cat "$here/$m/go.mod" "$here/$m/go.sum"; done
  } | sha256sum | cut -c1-16
}

VOLCANO_APIS_GAP='package v1beta1

// QueueAllocationGateKey is the one declaration Volcano v1.15 added to this package after v1.14.0.
const QueueAllocationGateKey = GroupName + "/queue-allocation-gate"
'

build_binaries() {
  local root="${TOPOBRIDGE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/topobridge-e2e}"
  local dir="$root/$(cache_key)"
  if [[ -f "$dir/bin/.complete" ]]; then
    echo "topobridge: real-cluster binaries up to date in $dir/bin"
    ln -sfn "$dir/bin" "$out/bin"
    return
  fi
  echo "topobridge: building the real-cluster binaries into $dir/bin (a cold build takes several minutes)"
  local started=$SECONDS
  rm -rf "$dir"
  mkdir -p "$dir/bin" "$dir/src"

  (cd "$here/cluster" && GOWORK=off go mod download volcano.sh/apis)
  local apis
  apis="$(cd "$here/cluster" && GOWORK=off go list -m -f '{{.Dir}}' volcano.sh/apis)"
  cp -r "$apis" "$dir/src/volcano-apis"
  chmod -R u+w "$dir/src/volcano-apis"
  printf '%s' "$VOLCANO_APIS_GAP" > "$dir/src/volcano-apis/pkg/apis/scheduling/v1beta1/zz_queue_allocation_gate.go"
  cat > "$dir/src/go.work" <<EOF
go 1.25.0

use $here/cluster

replace volcano.sh/apis => $dir/src/volcano-apis
EOF

  local kver
  kver="$(cd "$here/cluster" && GOWORK=off go list -m -f '{{.Version}}' k8s.io/kubernetes)"
  local kminor="${kver#v1.}"
  kminor="${kminor%%.*}"
  local stamp="-s -w -X k8s.io/component-base/version.gitVersion=$kver -X k8s.io/component-base/version.gitMajor=1"
  stamp="$stamp -X k8s.io/component-base/version.gitMinor=$kminor -X k8s.io/component-base/version.gitTreeState=clean"

  build() { # module output package [ldflags] [tags]
    local t=$SECONDS
    (cd "$here/$1" && go build -ldflags "${4:--s -w}" ${5:+-tags "$5"} -o "$dir/bin/$2" "$3")
    echo "topobridge:   $2 built in $((SECONDS - t)) s"
  }
  export GOWORK="$dir/src/go.work"
  build cluster kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver "$stamp"
  build cluster kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager "$stamp"
  build cluster etcd go.etcd.io/etcd/server/v3
  build cluster vc-scheduler volcano.sh/volcano/cmd/scheduler
  build cluster vc-controller-manager volcano.sh/volcano/cmd/controller-manager
  export GOWORK=off
  build lws lws-controller sigs.k8s.io/lws/cmd
  build aibrix aibrix-controller-manager github.com/vllm-project/aibrix/cmd/controllers "-s -w" nozmq
  echo "kubernetes=$kver" > "$dir/bin/versions.properties"
  for m in cluster:volcano.sh/volcano lws:sigs.k8s.io/lws aibrix:github.com/vllm-project/aibrix; do
    echo "${m#*:}=$(cd "$here/${m%%:*}" && go list -m -f '{{.Version}}' "${m#*:}")" >> "$dir/bin/versions.properties"
  done
  touch "$dir/bin/.complete"
  echo "topobridge: real-cluster binaries built in $((SECONDS - started)) s"
  ln -sfn "$dir/bin" "$out/bin"
  # builds for other go.mod/go.sum sets are stale: keep the disk for this one
  find "$root" -mindepth 1 -maxdepth 1 -type d ! -name "$(basename "$dir")" -exec rm -rf {} +
}

validator_key() {
  { go env GOVERSION; cat "$here/build.sh" "$here/olm/go.mod" "$here/olm/go.sum" "$here/olm/main.go"; } \
    | sha256sum | cut -c1-16
}

build_validator() {
  local root="${TOPOBRIDGE_OLM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/topobridge-olm}"
  local dir="$root/$(validator_key)"
  if [[ -x "$dir/validate-bundle" ]]; then
    echo "topobridge: OLM bundle validator up to date in $dir"
  else
    echo "topobridge: building the OLM bundle validator into $dir (a cold build takes a few minutes)"
    local started=$SECONDS
    mkdir -p "$dir"
    # built under a temporary name and moved: a build running at the same time never sees half a binary
    (cd "$here/olm" && GOWORK=off go build -ldflags "-s -w" -o "$dir/validate-bundle.$$" .)
    mv -f "$dir/validate-bundle.$$" "$dir/validate-bundle"
    echo "topobridge: OLM bundle validator built in $((SECONDS - started)) s"
    find "$root" -mindepth 1 -maxdepth 1 -type d ! -name "$(basename "$dir")" -exec rm -rf {} +
  fi
  ln -sfn "$dir/validate-bundle" "$out/validate-bundle"
}

case "$cmd" in
  modules) link_modules ;;
  binaries) build_binaries ;;
  validator) build_validator ;;
  *) echo "usage: build.sh modules|binaries|validator OUT" >&2; exit 2 ;;
esac
