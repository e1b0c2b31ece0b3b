# make bench's shared shell functions, sourced by bench.sh and bench-scale.sh (not run alone).
# The sourcing script sets `root` (the bench's folder under .build) before calling them.
#   timed KEY LABEL COMMAND...   runs COMMAND under GNU time RUNS times (default 1; RESET is eval'd
#                                before each run when set), prints the median run's wall, CPU
#                                (user+sys) and peak memory, and keeps them in WALL, CPU and RSS[KEY];
#                                a run that fails stops the bench, unless its error output matches
#                                the grep pattern REFUSED: then it counts, and REFUSE[KEY] is set
#   cpu_of COMMAND...            runs COMMAND once under GNU time, prints its CPU seconds (user+sys)
#   ratio A B, percent A B       A/B as 1.23, and as 12.3%
#   median                       the median of the numbers on standard input, one a line
#   aside PATH...                moves PATHs into $root/trash (deleted when the bench ends), not
#                                deleting them before a timed run: ext4 without a journal, as on some
#                                cloud disks, skips the inodes of files deleted in the last minute when
#                                it creates files, so a build after a large deletion pays for it
#   floor_source                 the path of ../shared/bench/limit.c (the floor of issue #28's goal)
#                                beside this checkout or beside the main checkout of a worktree, or
#                                $LIMIT_C; nothing when there is none
declare -A WALL=() CPU=() RSS=() REFUSE=()

timed() {
  local key=$1 label=$2; shift 2
  local runs=${RUNS:-1} i start end wall user sys rss
  : > "$root/times.txt"
  for ((i = 0; i < runs; i++)); do
    if [ -n "${RESET:-}" ]; then eval "$RESET"; fi
    start=$EPOCHREALTIME
    if ! /usr/bin/time -f "%U %S %M" -o "$root/time.txt" "$@" >/dev/null 2>"$root/stderr.txt"; then
      if [ -n "${REFUSED:-}" ] && grep -q -- "$REFUSED" "$root/stderr.txt"; then REFUSE[$key]=1; else
        echo "$label failed:"; tail -5 "$root/stderr.txt"; exit 1; fi
      sed -i '/^Command exited/d' "$root/time.txt" # GNU time's line for a failed command
    fi
    end=$EPOCHREALTIME
    echo "$(awk "BEGIN { print $end - $start }") $(cat "$root/time.txt")" >> "$root/times.txt"
  done
  read -r wall user sys rss < <(sort -n "$root/times.txt" | sed -n "$(((runs + 1) / 2))p")
  WALL[$key]=$wall; CPU[$key]=$(awk "BEGIN { print $user + $sys }"); RSS[$key]=$(awk "BEGIN { print $rss / 1024 }")
  local note=""; [ "$runs" -gt 1 ] && note="   (median of $runs)"; [ -n "${REFUSE[$key]:-}" ] && note+="   (refused: nothing written)"
  printf '%-40s wall %7.3f s   cpu %7.2f s   peak memory %6.1f MB%s\n' "$label" "$wall" "${CPU[$key]}" "${RSS[$key]}" "$note"
}

cpu_of() {
  /usr/bin/time -f "%U %S" -o "$root/time.txt" "$@" >/dev/null 2>"$root/stderr.txt" || {
    echo "$* failed:" >&2; tail -5 "$root/stderr.txt" >&2; exit 1; }
  awk '{ print $1 + $2 }' "$root/time.txt"
}

ratio() { awk "BEGIN { if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }
percent() { awk "BEGIN { if ($2 > 0) printf \"%.1f%%\", 100 * $1 / $2; else print \"-\" }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

aside() {
  mkdir -p "$root/trash"
  for path in "$@"; do if [ -e "$path" ]; then mv "$path" "$(mktemp -d "$root/trash/XXXXXX")/"; fi; done
}

floor_source() {
  local common candidate
  common=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
  for candidate in "${LIMIT_C:-}" ../shared/bench/limit.c ${common:+"$(dirname "$common")/../shared/bench/limit.c"}; do
    if [ -n "$candidate" ] && [ -f "$candidate" ]; then realpath "$candidate"; return; fi
  done
}
