# Shared steps of the scripts that build one optional component into a cache of its own (kubernetes.sh,
# older-lws.sh, older-volcano.sh, kueue.sh); sourced, never run. Each caller hashes this file into its cache key
# with its own script, so an edit here rebuilds those components on next use (build.sh does not source it).

# cache_args USAGE SKIP VALUE OUT: exit 2 with USAGE when VALUE or OUT is empty, exit 0 when VALUE is SKIP
cache_args() {
  if [[ -z "$3" || -z "$4" ]]; then
    echo "usage: $1" >&2
    exit 2
  fi
  if [[ "$3" == "$2" ]]; then
    exit 0
  fi
}

# cache_module PREFIX VALUE WHAT LISTED PLACEHOLDER: set mod to $here/PREFIX-VALUE, or exit 2 naming the folders
# PREFIX-* there when it has no go.mod
cache_module() {
  mod="$here/$1-$2"
  if [[ ! -f "$mod/go.mod" ]]; then
    echo "topobridge: no $3 $2 to build: $4 $(cd "$here" && ls -d "$1"-* | sed "s/$1-//" | tr '\n' ' ')(src/test/go/$1-$5)" >&2
    exit 2
  fi
}

# cache_need_go PURPOSE: exit 1 unless go is on PATH; then pin the toolchain and the reproducible build flags
cache_need_go() {
  if ! command -v go >/dev/null 2>&1; then
    echo "topobridge: Go is needed to build $1 (see src/test/go/build.sh)" >&2
    exit 1
  fi
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false" GOWORK=off
}

# cache_dir ROOT PREFIX FILE...: set key (the Go version, this file and FILE... hashed), root and dir=ROOT/PREFIXkey
cache_dir() {
  root="$1"
  local prefix="$2"
  shift 2
  key="$({ go env GOVERSION; cat "$here/cache-lib.sh" "$@"; } | sha256sum | cut -c1-16)"
  dir="$root/$prefix$key"
}

# cache_versioned SCRIPT PREFIX WHAT LISTED PLACEHOLDER SKIP ROOT VALUE OUT: check SCRIPT's arguments (VALUE SKIP
# does nothing), find the module $here/PREFIX-VALUE and go, and set mod, key, root, dir=ROOT/VALUE-key and
# target=OUT/PREFIX-VALUE (created); the key hashes SCRIPT and the module's go.mod/go.sum
cache_versioned() {
  cache_args "$1 $5|$6 OUT" "$6" "$8" "$9"
  cache_module "$2" "$8" "$3" "$4" "$5"
  cache_need_go "$3 $8 for the real-cluster tier"
  cache_dir "$7" "$8-" "$here/$1" "$mod/go.mod" "$mod/go.sum"
  target="$9/$2-$8"
  mkdir -p "$target"
}

# cache_link_module MODDIR MODULE LINK: download MODULE as MODDIR's go.mod pins it and link its folder as LINK
cache_link_module() {
  (cd "$1" && go mod download "$2")
  ln -sfn "$(cd "$1" && go list -m -f '{{.Dir}}' "$2")" "$3"
}

# cache_reuse WHAT TARGET: when dir/bin is complete, say so, link it as TARGET/bin and exit 0
cache_reuse() {
  if [[ -f "$dir/bin/.complete" ]]; then
    echo "topobridge: $1 up to date in $dir/bin"
    ln -sfn "$dir/bin" "$2/bin"
    exit 0
  fi
}

# cache_start WHAT TAKES: announce the build, start its clock and empty dir/bin
cache_start() {
  echo "topobridge: building $1 into $dir/bin (a cold build takes $2)"
  started=$SECONDS
  rm -rf "$dir"
  mkdir -p "$dir/bin"
}

# cache_finish WHAT TARGET STALE: mark dir/bin complete, link it as TARGET/bin and remove the other folders of root
# named STALE (older builds of the same component; other components' folders and caches are left alone)
cache_finish() {
  touch "$dir/bin/.complete"
  echo "topobridge: $1 built in $((SECONDS - started)) s"
  ln -sfn "$dir/bin" "$2/bin"
  find "$root" -mindepth 1 -maxdepth 1 -type d -name "$3" ! -name "$(basename "$dir")" -exec rm -rf {} +
}
