#!/usr/bin/env bash
# make bench: soundset against the scripts a user would otherwise write, on the same machine, in one run.
# Generates a pack of 230 raw takes held out from the demo pack and the tests (10 espeak-ng voices
# none of them uses, 23 words with 两, 角, 分, 整 and a two-word phrase, room tone, levels, mixed
# formats and rates), then times and measures on it:
#   soundset full build (with its report, and without: --no-report), no-op rebuild, rebuild after
#   changing one recording (with and without the report), and the report's size;
#   soundset on one core without the report or the cache (--jobs 1 --no-cache --no-report), against
#   the C floor over the same libraries (Tests/Scripts/baseline.c: libsndfile, the trim of issue
#   #28's floor ../shared/bench/limit.c with TRIM=1, libsamplerate SINC_FASTEST, libebur128's
#   integrated loudness and true peak, one gain), built with the system's C compiler
#   (bench-helpers.sh), and, where it is found, limit.c itself as a cross-check; run in turn
#   FLOOR_PAIRS times (default 5), the ratio being the median of the pairs' ratios;
#   the classic sox recipe (one process per clip: trim both ends, rate -v, norm), run on all cores;
#   ffmpeg-normalize (two-pass EBU R128), when it is installed;
#   one push as the app's extension handles it (soundset announce on the demo set): its decision and
#   composition time above a process that does nothing (soundset version), and its peak heap;
#   the longest time the group's lock is held, over 1,000 decisions and a fresh install of the demo
#   set (Tests/Scripts/LockHold.swift, compiled with the runtime's sources by bench-helpers.sh, which
#   make test runs too, so that it keeps compiling).
# Quality is measured with `soundset measure` (whole-clip loudness, true peak) on every tool's output.
# How the build scales with the pack is Tests/Scripts/bench-scale.sh's (make bench runs both).
# Usage: bash Tests/Scripts/bench.sh [SOUNDSET_BINARY]
#   BENCH_BUILD_ONLY=1 (make bench-build): soundset's builds and the C floor only, no sox,
#   ffmpeg-normalize, push or lock.
set -euo pipefail
soundset=$(realpath "${1:-.build/release/soundset}")
root=.build/bench
pack=$root/pack-230
cores=$(nproc)
mkdir -p "$root"

source Tests/Scripts/bench-lib.sh # timed, cpu_of, ratio, percent, median, aside, floor_source
build_only=${BENCH_BUILD_ONLY:-}
quality() { # label, files...: loudness spread and worst true peak, by soundset's own measure
  local label=$1; shift
  printf '%-22s %s\n' "$label" "$("$soundset" measure "$@" | tail -1)"
}

if [ ! -f "$pack/.complete" ]; then
  echo "generating the bench pack in $pack (once)"
  rm -rf "$pack"; mkdir -p "$pack"
  texts=(ling2 yi1 er4 san1 si4 wu3 liu4 qi1 ba1 jiu3 shi2 bai3 qian1 wan4 yi4 dian3 yuan2 "shou1 kuan3 dao4 zhang4"
    liang3 jiao3 fen1 zheng3 "dao4 zhang4")
  voices=(Andy annie david edward linda max paul grandpa klatt2 m8)
  formats=(wav aiff flac caf)
  rates=(22050 32000 44100 48000)
  n=0
  for v in "${voices[@]}"; do
    for t in "${texts[@]}"; do
      name="v${v}_$(echo "$t" | tr -d ' 0-9')$n"
      espeak-ng -v "cmn-latn-pinyin+$v" -s $((120 + n % 5 * 10)) -w "$root/voice.wav" "$t"
      rate=${rates[$(((n / 3) % 4))]}; fmt=${formats[$((n % 4))]}
      gain=$((-2 - (n * 11) % 17)); before=0.$((100 + (n * 41) % 200)); after=0.$((100 + (n * 59) % 200))
      sox "$root/voice.wav" -r "$rate" -c 1 -b 32 -e floating-point "$root/speech.wav" norm "$gain" pad "$before" "$after"
      sox -R -r "$rate" -c 1 -b 32 -e floating-point -n "$root/room.wav" synth "$(soxi -D "$root/speech.wav")" pinknoise \
        vol "$(awk "BEGIN { print 10^(($gain - 55) / 20) }")"
      # FLAC holds at most 24 bits: sox is told so, not left to warn.
      sox -m -v 1 "$root/speech.wav" -v 1 "$root/room.wav" -c $((1 + n % 2)) -b $([ "$fmt" = flac ] && echo 16 || echo $((16 + n % 2 * 8))) \
        $([ "$fmt" = flac ] || echo "-e signed-integer") "$pack/$name.$fmt"
      n=$((n + 1))
    done
  done
  touch "$pack/.complete"
fi
clips=$(find "$pack" -type f ! -name '.*' | wc -l)
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
echo "pack: $clips recordings, $(du -sh "$pack" | cut -f1)"
echo

# Files of earlier runs are moved aside and deleted when the bench ends, not before a timed run:
# ext4 without a journal (as on some cloud disks) skips the inodes of files deleted in the last
# minute when it creates files, so a build that follows a large deletion pays for the harness's
# cleanup (measured on this machine: 0.64-0.70 s instead of 0.56-0.57 s for the full build).
work=$root/run
trap 'rm -rf "$root/trash"' EXIT
aside "$work"; mkdir -p "$work"
cp -r "$pack" "$work/Assets"
rm -f "$work/Assets/.complete"

sync
# The quick runs are repeated and the median kept, so one stray hiccup of the machine does not decide a ratio.
RUNS=3 RESET="aside '$work/Output' '$work/.soundset-cache'; sync" \
  timed full "soundset full build" "$soundset" build --quiet --assets "$work/Assets" --output "$work/Output"
RUNS=3 timed noop "soundset no-op rebuild" "$soundset" build --quiet --assets "$work/Assets" --output "$work/Output"
# Each run follows a new change to the same recording (its level: 0.5, 0.6, then 0.7 of the original).
changed=$(find "$work/Assets" -type f -name '*.wav' | sort | head -1)
cp "$changed" "$root/original.wav"
change=4
RUNS=3 RESET='change=$((change + 1)); sox "$root/original.wav" "$root/changed.wav" vol 0.$change && mv "$root/changed.wav" "$changed"' \
  timed one "soundset one recording changed" "$soundset" build --quiet --assets "$work/Assets" --output "$work/Output"
# The same two builds without the report (--no-report), so the report's own cost shows.
RUNS=3 RESET="aside '$work/Bare' '$work/.soundset-cache'; sync" \
  timed bare "soundset full build, --no-report" "$soundset" build --quiet --no-report --assets "$work/Assets" --output "$work/Bare"
RUNS=3 RESET='change=$((change + 1)); sox "$root/original.wav" "$root/changed.wav" vol 0.$change && mv "$root/changed.wav" "$changed"' \
  timed onebare "soundset one changed, --no-report" "$soundset" build --quiet --no-report --assets "$work/Assets" --output "$work/Bare"
# The report beside the set (Output.report.html), or, from soundset 0.8, inside it.
report_file=$(ls "$work/Output.report.html" "$work/Output/report.html" 2>/dev/null | head -1 || true)
report_bytes=$([ -n "$report_file" ] && stat -c %s "$report_file" || echo 0)
printf '%-40s %s, %.1f MB\n' "the report" "${report_file#"$work"/}" "$(awk "BEGIN { print $report_bytes / 1048576 }")"

# One core, no report, no cache: soundset's CPU against the C floor over the same libraries
# (Tests/Scripts/baseline.c: trims like ../shared/bench/limit.c with TRIM=1, keeping no more than
# soundset keeps) and, where the issue's floor itself is found, limit.c with TRIM=1 and quality 2 as a
# cross-check. Paired: soundset and the floor run in turn, FLOOR_PAIRS times (default 5), and the
# ratio is the median of the pairs' ratios, so that the machine's drift over minutes cancels out.
bash Tests/Scripts/bench-helpers.sh build "$root" baseline
limit_c=$(floor_source)
if [ -n "$limit_c" ]; then
  cc -O2 -o "$root/limit" "$limit_c" $(pkg-config --cflags --libs sndfile samplerate libebur128) -lm
fi
takes=$(find "$work/Assets" -type f ! -name '.*' | sort)
pairs=${FLOOR_PAIRS:-5}
: > "$root/floor.txt"
for ((pair = 0; pair < pairs; pair++)); do
  aside "$work/One" "$work/c" "$work/limit"; mkdir -p "$work/c" "$work/limit"; sync
  core=$(cpu_of "$soundset" build --quiet --no-report --no-cache --jobs 1 --assets "$work/Assets" --output "$work/One")
  floor=$(cpu_of "$root/baseline" "$work/c" $takes)
  limit=-
  if [ -n "$limit_c" ]; then limit=$(TRIM=1 cpu_of "$root/limit" 2 "$work/limit" $takes); fi
  echo "$core $floor $limit" >> "$root/floor.txt"
done
CPU[core]=$(awk '{ print $1 }' "$root/floor.txt" | median)
CPU[cbase]=$(awk '{ print $2 }' "$root/floor.txt" | median)
floor_ratio=$(awk '{ print $1 / $2 }' "$root/floor.txt" | median)
printf '%-40s cpu %7.2f s   (median of %d, in turn with the floor)\n' "soundset on one core, no report or cache" "${CPU[core]}" "$pairs"
printf '%-40s cpu %7.2f s   (median of %d)\n' "C floor (baseline.c, one core)" "${CPU[cbase]}" "$pairs"
if [ -n "$limit_c" ]; then
  CPU[limit]=$(awk '{ print $3 }' "$root/floor.txt" | median)
  limit_ratio=$(awk '{ print $1 / $3 }' "$root/floor.txt" | median)
  printf '%-40s cpu %7.2f s   (median of %d; a cross-check: %s)\n' "limit.c, TRIM=1, quality 2" "${CPU[limit]}" "$pairs" "$limit_c"
fi

ffn=0
if [ -z "$build_only" ]; then
  # The classic recipe, one sox process per clip: trim both ends, rate -v, norm. Run as a user's
  # script runs it (a loop, one clip after another), and once on every core for comparison.
  cat > "$root/sox-recipe.sh" <<'RECIPE'
sox "$1" -c 1 "$2/$(basename "${1%.*}").wav" silence 1 0.02 -50d reverse silence 1 0.02 -50d reverse rate -v 44100 norm -1
RECIPE
  mkdir -p "$work/sox" "$work/sox-parallel"
  RUNS=3 timed sox "sox recipe (a loop, one per clip)" bash -c \
    "find '$pack' -type f ! -name '.*' -print0 | xargs -0 -I{} bash '$root/sox-recipe.sh' {} '$work/sox'"
  RUNS=3 timed soxp "sox recipe ($cores at once)" bash -c \
    "find '$pack' -type f ! -name '.*' -print0 | xargs -0 -P $cores -I{} bash '$root/sox-recipe.sh' {} '$work/sox-parallel'"

  if command -v ffmpeg-normalize >/dev/null 2>&1 && command -v ffmpeg >/dev/null 2>&1; then
    ffn=1
    mkdir -p "$work/ffn"
    timed ffn "ffmpeg-normalize (EBU R128, 2 pass)" bash -c \
      "find '$pack' -type f ! -name '.*' -print0 | xargs -0 ffmpeg-normalize -f -q -nt ebu -t -16 -tp -1 -ar 44100 -c:a pcm_s16le -ext wav -of '$work/ffn'"
  else
    echo "ffmpeg-normalize: not installed (pip install ffmpeg-normalize, and ffmpeg) - skipped"
  fi
fi

echo
echo "ratios (wall time, unless said):"
if [ -z "$build_only" ]; then
  echo "  sox recipe loop / soundset full build     $(ratio "${WALL[sox]}" "${WALL[full]}")x   (target: at least 4x)"
  echo "  sox recipe on $cores cores / soundset          $(ratio "${WALL[soxp]}" "${WALL[full]}")x"
fi
[ $ffn = 1 ] && echo "  ffmpeg-normalize / soundset full build    $(ratio "${WALL[ffn]}" "${WALL[full]}")x   (target: at least 100x)"
echo "  full build / full build --no-report       $(ratio "${WALL[full]}" "${WALL[bare]}")x   (target: at most 1.10x)"
echo "  no-op rebuild / full build                $(percent "${WALL[noop]}" "${WALL[full]}")   (target: at most 3%)"
echo "  one changed / full build                  $(percent "${WALL[one]}" "${WALL[full]}")   (target: at most 15%, the report included)"
echo "  one core, CPU: soundset / C floor         $(printf %.2f "$floor_ratio")x   (target: at most 1.0x; median of $pairs paired ratios)"
[ -n "$limit_c" ] && echo "  one core, CPU: soundset / limit.c         $(printf %.2f "$limit_ratio")x   (the issue's floor itself, a cross-check)"
echo "  peak memory of the full build             ${RSS[full]} MB   (target: under 100 MB)"
echo "  the report's share: full build            $(percent "$(awk "BEGIN { print ${WALL[full]} - ${WALL[bare]} }")" "${WALL[full]}")   one changed  $(percent "$(awk "BEGIN { print ${WALL[one]} - ${WALL[onebare]} }")" "${WALL[one]}")"
echo
echo "quality (soundset measure: whole-clip loudness, true peak):"
quality "soundset" $(find "$work/Output/Sounds" -type f ! -name '*Copy.*' | sort)
[ -z "$build_only" ] && quality "sox recipe" "$work"/sox/*.wav
[ $ffn = 1 ] && quality "ffmpeg-normalize" "$work"/ffn/*.wav

# make bench-build stops here: the build's figures only.
[ -z "$build_only" ] || exit 0

# One push: the demo set built and installed once, then an amount announced, each run with an empty
# queue so that every run composes (a queued push would wait, not compose). Time is measured above a
# process that does nothing. Memory is the heap's peak (valgrind's massif): a process's resident
# memory is mostly the code it touches, and says little about what the composer holds.
echo
echo "one push (the extension's work: decide, check and compose the clips, write the file):"
"$soundset" build --quiet --assets Assets/voices/zh-CN --output "$work/demo"
demo_report=$(ls "$work/demo.report.html" "$work/demo/report.html" 2>/dev/null | head -1 || true)
printf '  the demo set'"'"'s report: %.0f KB; its clips (Sounds): %.0f KB\n' \
  "$(awk "BEGIN { print $([ -n "$demo_report" ] && stat -c %s "$demo_report" || echo 0) / 1024 }")" "$(du -sk "$work/demo/Sounds" | cut -f1)"
group=$work/group
"$soundset" announce 1 --group "$group" --output "$work/demo" --now 1000 >/dev/null
clear_queue='rm -f "$group"/soundset/queue.json "$group"/Library/Sounds/soundset-*'
RUNS=5 timed base "soundset version (a process alone)" "$soundset" version
RUNS=5 RESET=$clear_queue timed push "soundset announce 99999999.99" "$soundset" announce 99999999.99 --group "$group" --output "$work/demo" --now 2000
echo "  decision and composition (above a process alone)   $(awk "BEGIN { printf \"%.1f ms\", 1000 * (${WALL[push]} - ${WALL[base]}) }")   (target: under 10 ms)"
if command -v valgrind >/dev/null 2>&1; then
  eval "$clear_queue"
  valgrind --tool=massif --massif-out-file="$root/massif.out" "$soundset" announce 99999999.99 --group "$group" --output "$work/demo" --now 2000 \
    >/dev/null 2>"$root/valgrind.txt"
  heap=$(sed -n 's/^mem_heap_B=//p' "$root/massif.out" | sort -n | tail -1)
  composed=$(find "$group/Library/Sounds" -name 'soundset-*' -exec stat -c %s {} \; | head -1)
  echo "  peak heap of the push                              $(awk "BEGIN { printf \"%.2f MB for a composed file of %.2f MB: %.2fx\", $heap / 1048576, $composed / 1048576, $heap / $composed }")   (target: under 2x the composed file)"
else
  echo "  peak heap of the push: valgrind is not installed - skipped"
fi

# The group's lock: iOS kills a process suspended while it holds a lock in a shared container, so it
# is held only for a decision (read the queue, decide, write it) and an install's renames.
echo
echo "the group's lock (the runtime's own clock around each hold; 1,000 pushes 6 s apart, each with an id):"
bash Tests/Scripts/bench-helpers.sh build "$root" lock-hold
aside "$work/lock-group"
"$root/lock-hold" "$work/demo" "$work/lock-group" | sed 's/^/  /'
echo "  (targets: under 5 ms for a decision, under 10 ms for an install)"
exit 0
