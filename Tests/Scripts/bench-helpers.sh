#!/usr/bin/env bash
# The programs make bench compiles besides soundset, each compiled one way, here:
#   lock-hold            Tests/Scripts/LockHold.swift with the runtime's sources, as one module
#                        (it watches the runtime's internals: GroupLock's holds), optimized;
#   baseline             Tests/Scripts/baseline.c, the plain C pipeline (libsndfile, libsamplerate,
#                        libebur128);
#   serve-bench-server   Tests/Scripts/serve-bench-server.c, the plain libmicrohttpd server;
#   serve-fairness-client  Tests/Scripts/serve-fairness-client.c, bench-serve.sh's client that
#                        counts each connection's answers and the worst wait for a first byte.
# `build DIR NAME...` builds them into DIR for make bench (bench.sh, bench-serve.sh). `check` is make
# test's: every helper compiled and nothing kept (LockHold.swift through the compiler's checks,
# warnings as errors, without optimizing or generating code: seconds; the C helpers built as make
# bench builds them, into a temporary folder), and any other .swift or .c file in Tests/Scripts
# fails it until it is added here, so no helper of make bench rots unseen between runs of make bench.
# Usage: bash Tests/Scripts/bench-helpers.sh build DIR NAME... | check
set -euo pipefail
helpers=(lock-hold baseline serve-bench-server serve-fairness-client)
swiftc=${SWIFTC:-swiftc}

# NAME, DIR, MODE (build or check)
compile() {
  local name=$1 dir=$2 mode=$3
  case $name in
    lock-hold)
      # The runtime's package declarations need the package's name, as SwiftPM gives it (-package-name).
      local flags=(-parse-as-library -module-name SoundsetRuntime -package-name soundset -wmo)
      if [ "$mode" = build ]; then flags+=(-O -o "$dir/lock-hold"); else flags+=(-Onone -emit-sil -warnings-as-errors -o /dev/null); fi
      "$swiftc" "${flags[@]}" $(find Sources/SoundsetRuntime -name '*.swift' | sort) Tests/Scripts/LockHold.swift;;
    baseline)
      cc -O2 -o "$dir/baseline" Tests/Scripts/baseline.c $(pkg-config --cflags --libs sndfile samplerate libebur128) -lm;;
    serve-bench-server)
      cc -O2 -pthread -o "$dir/serve-bench-server" Tests/Scripts/serve-bench-server.c $(pkg-config --cflags --libs libmicrohttpd);;
    serve-fairness-client)
      cc -O2 -Wall -Werror -o "$dir/serve-fairness-client" Tests/Scripts/serve-fairness-client.c;;
    *) echo "bench-helpers.sh: no helper named $name (helpers: ${helpers[*]})"; exit 64;;
  esac
}

case ${1:-} in
  build)
    [ $# -ge 3 ] || { echo "usage: bash Tests/Scripts/bench-helpers.sh build DIR NAME..."; exit 64; }
    dir=$2; shift 2
    mkdir -p "$dir"
    for name in "$@"; do compile "$name" "$dir" build; done;;
  check)
    known=" Tests/Scripts/LockHold.swift Tests/Scripts/baseline.c Tests/Scripts/serve-bench-server.c Tests/Scripts/serve-fairness-client.c "
    for file in $(find Tests/Scripts -maxdepth 1 \( -name '*.swift' -o -name '*.c' \) | sort); do
      case $known in *" $file "*) ;; *) echo "$file: a helper bench-helpers.sh does not compile (add it there, so make test compiles it)"; exit 1;; esac
    done
    dir=$(mktemp -d "${TMPDIR:-/tmp}/soundset-bench-helpers.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
    start=$SECONDS
    for name in "${helpers[@]}"; do
      compile "$name" "$dir" check || { echo "make bench's $name does not compile"; exit 1; }
    done
    echo "make bench's helpers compile: ${helpers[*]} ($((SECONDS - start)) s)";;
  *) echo "usage: bash Tests/Scripts/bench-helpers.sh build DIR NAME... | check"; exit 64;;
esac
