#!/usr/bin/env bash
# make bench (serve): soundset serve under load, with wrk at 64 connections, against two references
# on the same machine in the same run:
#   the ceiling: a do-nothing libmicrohttpd server sending the same WAV bytes for every request;
#   the baseline a team would script: one `soundset render` process per request, behind the same
#   libmicrohttpd (serve-bench-server.c, built here).
# Figures: requests per second and p50/p99 latency for (a) distinct amounts never composed before,
# (b) repeated amounts from the cache; MP3 beside WAV; (c) the small responses (304 revalidation,
# HEAD, cached MP3) against the ceiling's same responses; (d) how soon a new client is answered
# with the connection limit full of idle keep-alive connections; (e) distinct MP3 beside distinct
# WAV at 16 connections (goal: at least a quarter of WAV's throughput, p99 within 100 ms), and (f)
# fairness: 256 connections asking distinct MP3s for 15 s (serve-fairness-client.c: every
# connection answered, no first byte later than 2 s, /healthz asked every 50 ms answered within 10 ms).
# Usage: bash Tests/Scripts/bench-serve.sh [SOUNDSET_BINARY] [SET_FOLDER]
set -euo pipefail
soundset=$(realpath "${1:-.build/release/soundset}")
set_folder=$(realpath "${2:-Output}")
# An output of several voices (the demo's): its default voice's set, one set as the figures are of one.
if [ -f "$set_folder/voices.json" ]; then
  voice=$(sed -n 's/.*"defaultVoice" *: *"\([^"]*\)".*/\1/p' "$set_folder/voices.json")
  [ -n "$voice" ] || { echo "$set_folder/voices.json names no defaultVoice: pass a set folder (Output/voices/NAME)"; exit 1; }
  set_folder=$set_folder/voices/$voice
fi
root=.build/bench-serve
seconds=${SERVE_BENCH_SECONDS:-10}
connections=64
mkdir -p "$root"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk (or brew install wrk)"; exit 1; }

bash Tests/Scripts/bench-helpers.sh build "$root" serve-bench-server serve-fairness-client

# Lua for wrk: distinct amounts (10000.00 to 99999.99, every request another), or 20 repeated ones.
cat > "$root/distinct.lua" <<'LUA'
local threads = 0
function setup(thread) thread:set("id", threads); threads = threads + 1 end
local counter = 0
function request()
  counter = counter + 1
  local n = id * 4000000 + counter
  local amount = string.format("%d.%02d", 10000 + math.floor(n / 100) % 90000, n % 100)
  return wrk.format("GET", prefix .. amount .. "." .. format)
end
LUA
cat > "$root/repeated.lua" <<'LUA'
local counter = 0
function request()
  counter = counter + 1
  return wrk.format("GET", prefix .. string.format("%d.%02d", 12000 + counter % 20 * 3001, counter % 20 * 7 % 100) .. "." .. format)
end
LUA

started_pid=
server_cpu() { awk '{ print $14 + $15 }' "/proc/$started_pid/stat" 2>/dev/null || echo 0; }  # clock ticks
start() { # command...: starts a server that prints "listening on http://127.0.0.1:PORT"; sets PORT
  "$@" > "$root/server.out" 2> "$root/server.err" &
  started_pid=$!
  for _ in $(seq 1 500); do grep -q "listening on" "$root/server.out" 2>/dev/null && break; sleep 0.02; done
  PORT=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$root/server.out" | head -1)
  [ -n "$PORT" ] || { echo "server did not start: $(cat "$root/server.err")"; exit 1; }
}
stop() { kill -TERM "$started_pid"; wait "$started_pid" || true; }

declare -A RPS P50 P99 CPU_US
ms() { # wrk's latency (1.23ms, 456.00us, 1.20s) in ms
  awk -v v="$1" 'BEGIN { if (v ~ /us$/) print v / 1000; else if (v ~ /ms$/) print v + 0; else if (v ~ /s$/) print v * 1000; else print v }'
}
load() { # key, label, lua script, url prefix, format[, seconds]
  local key=$1 label=$2 script=$3 prefix=$4 format=$5 duration=${6:-$seconds}
  sed "1i prefix = \"$prefix\"; format = \"$format\"" "$root/$script.lua" > "$root/run.lua"
  CPU_BEFORE=$(server_cpu)
  wrk -t2 -c$connections -d"${duration}s" --latency -s "$root/run.lua" "http://127.0.0.1:$PORT" > "$root/wrk-$key.txt"
  figures "$key" "$label"
}
# The small responses, HEAD and 304, through serve-bench-server's own client: wrk reads a body of the
# response's Content-Length after a HEAD or a 304 too, and waits for it for ever.
load_small() { # key, label, method, path[, header]
  local key=$1 label=$2
  CPU_BEFORE=$(server_cpu)
  "$root/serve-bench-server" load "$PORT" "$connections" "$seconds" "$3" "$4" ${5:+"$5"} > "$root/wrk-$key.txt"
  figures "$key" "$label"
}
figures() { # key, label: from $root/wrk-KEY.txt, wrk's figures; the server's CPU time a request
  local key=$1 label=$2 ticks=$(( $(server_cpu) - CPU_BEFORE ))
  local requests; requests=$(awk '/requests in/ { print $1 }' "$root/wrk-$key.txt")
  CPU_US[$key]=$(awk -v t="$ticks" -v n="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (n > 0 ? t * 1e6 / hz / n : 0) }')
  RPS[$key]=$(awk '/^Requests\/sec/ { print $2 }' "$root/wrk-$key.txt")
  P50[$key]=$(ms "$(awk '$1 == "50%" { print $2 }' "$root/wrk-$key.txt")")
  P99[$key]=$(ms "$(awk '$1 == "99%" { print $2 }' "$root/wrk-$key.txt")")
  local errors; errors=$(grep -E "Non-2xx|Socket errors" "$root/wrk-$key.txt" || true)
  printf '%-44s %9.1f req/s   p50 %8.2f ms   p99 %8.2f ms   CPU %6.1f us/request%s\n' "$label" "${RPS[$key]}" "${P50[$key]}" "${P99[$key]}" "${CPU_US[$key]}" \
    "${errors:+   ($(echo "$errors" | tr -s ' ' | tr '\n' ' '))}"
}

echo "machine: $(nproc) cores; set: $set_folder; wrk: $connections connections, ${seconds} s each"
start "$soundset" serve --output "$set_folder" --listen 127.0.0.1:0 --quiet
id=$(sed -n 's/.*(set \(.*\))/\1/p' "$root/server.out")
[ -n "$id" ] || { echo "soundset serve found no set in $set_folder"; stop; exit 1; }
curl -sf -o "$root/sample.wav" "http://127.0.0.1:$PORT/v1/announcements/54321.87.wav"
curl -sf -o "$root/sample.mp3" "http://127.0.0.1:$PORT/v1/announcements/54321.87.mp3"
echo "response sizes (54321.87): wav $(stat -c %s "$root/sample.wav") bytes, mp3 $(stat -c %s "$root/sample.mp3") bytes"
load distinct "serve (a) distinct amounts, wav" distinct /v1/announcements/ wav
load distinct_mp3 "serve (a) distinct amounts, mp3" distinct /v1/announcements/ mp3
for format in wav mp3; do  # warm the cache with the 20 amounts
  for i in $(seq 0 19); do
    url="http://127.0.0.1:$PORT/v1/announcements/$((12000 + i * 3001)).$(printf %02d $((i * 7 % 100))).$format"
    status=$(curl -s -o /dev/null -w '%{http_code}' "$url") || true
    [ "$status" = 200 ] || { echo "warming the cache: $url answered $status"; stop; exit 1; }
  done
done
load cached "serve (b) cached amounts, wav" repeated /v1/announcements/ wav
load cached_mp3 "serve (b) cached amounts, mp3" repeated /v1/announcements/ mp3
etag=$(curl -sf -D - -o /dev/null "http://127.0.0.1:$PORT/v1/announcements/54321.87.mp3" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')
[ -n "$etag" ] || { echo "no ETag on /v1/announcements/54321.87.mp3"; stop; exit 1; }
load_small notmod_mp3 "serve (c) 304 revalidation, mp3" GET /v1/announcements/54321.87.mp3 "If-None-Match: $etag"
load_small head_mp3 "serve (c) HEAD of a cached amount, mp3" HEAD /v1/announcements/54321.87.mp3
stop

# (d) The connection limit full of idle keep-alive connections, then a new client.
idle_probe() { # connections, idle ones
  start "$soundset" serve --output "$set_folder" --listen 127.0.0.1:0 --quiet --connections "$1"
  local answer
  answer=$( (ulimit -n 4096 2>/dev/null; "$root/serve-bench-server" idle "$PORT" "$2") || true)
  printf '%-44s %s\n' "serve (d) --connections $1, $2 idle" \
    "a new client answered $(echo "$answer" | awk '{ printf "%s in %s ms (%s of the %s idle ones answered first)", $1, $2, $3, '"$2"' }')"
  IDLE_MS[$1]=$(echo "$answer" | awk '{ print ($1 == 200 ? $2 : 1e9) }')
  stop
}
declare -A IDLE_MS
idle_probe 100 150
idle_probe 1000 1000

start "$root/serve-bench-server" ceiling "$root/sample.wav"
load ceiling "ceiling: libmicrohttpd, the same wav bytes" repeated /x/ wav
stop
start "$root/serve-bench-server" ceiling "$root/sample.mp3"
load ceiling_mp3 "ceiling: libmicrohttpd, the same mp3 bytes" repeated /x/ mp3
load_small ceiling_notmod "ceiling: libmicrohttpd, 304" GET /x/54321.87.mp3 "If-None-Match: $etag"
load_small ceiling_head "ceiling: libmicrohttpd, HEAD" HEAD /x/54321.87.mp3
stop
start "$root/serve-bench-server" render "$soundset" "$set_folder"
load baseline "baseline: soundset render per request (caf)" distinct /x/ caf
stop

# (e) MP3 at 16 connections, beside WAV, each on a server started afresh (nothing cached).
connections=16
start "$soundset" serve --output "$set_folder" --listen 127.0.0.1:0 --quiet
load distinct16 "serve (e) distinct amounts, wav, 16 conn." distinct /v1/announcements/ wav
stop
start "$soundset" serve --output "$set_folder" --listen 127.0.0.1:0 --quiet
load distinct16_mp3 "serve (e) distinct amounts, mp3, 16 conn." distinct /v1/announcements/ mp3
stop
connections=64

# (f) Fairness: 256 connections of distinct MP3s for 15 s, and /healthz beside them.
fair_connections=${SERVE_BENCH_FAIR_CONNECTIONS:-256}
fair_seconds=${SERVE_BENCH_FAIR_SECONDS:-15}
start "$soundset" serve --output "$set_folder" --listen 127.0.0.1:0 --quiet
fair=$("$root/serve-fairness-client" "$PORT" "$fair_connections" "$fair_seconds" mp3)
stop
figure() { echo "$fair" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

ratio() { awk "BEGIN { if ($2 > 0) printf \"%.3g\", $1 / $2; else print \"-\" }"; }
echo
echo "(a) distinct: $(ratio "${RPS[distinct]}" "${RPS[baseline]}")x the baseline's throughput, $(ratio "${RPS[distinct]}" "${RPS[ceiling]}")x the ceiling's"
goal_a=$(awk -v b="${RPS[baseline]}" -v c="${RPS[ceiling]}" 'BEGIN { x = 100 * b; y = c / 5; printf "%.1f", (x < y ? x : y) }')
echo "    goal: at least $goal_a req/s (100x the baseline or a fifth of the ceiling, the lower): $(awk -v a="${RPS[distinct]}" -v g="$goal_a" 'BEGIN { print (a >= g ? "met" : "NOT met") }')"
goal_b=$(awk -v c="${P99[ceiling]}" 'BEGIN { x = 2 * c; printf "%.2f", (x > 10 ? x : 10) }')
echo "(b) cached: p99 $(printf %.2f "${P99[cached]}") ms against the ceiling's $(printf %.2f "${P99[ceiling]}") ms; goal: within $goal_b ms (twice the ceiling's or 10 ms, the higher): $(awk -v p="${P99[cached]}" -v g="$goal_b" 'BEGIN { print (p <= g ? "met" : "NOT met") }')"
echo "    throughput $(ratio "${RPS[cached]}" "${RPS[ceiling]}")x the ceiling's; mp3 $(ratio "${RPS[cached_mp3]}" "${RPS[ceiling_mp3]}")x its ceiling's"
small_met=$(awk -v a="${RPS[notmod_mp3]}" -v b="${RPS[ceiling_notmod]}" -v c="${RPS[head_mp3]}" -v d="${RPS[ceiling_head]}" \
  -v e="${RPS[cached_mp3]}" -v f="${RPS[ceiling_mp3]}" 'BEGIN { print (a >= 0.6 * b && c >= 0.6 * d && e >= 0.6 * f ? "met" : "NOT met") }')
echo "(c) small responses against the ceiling's: 304 $(ratio "${RPS[notmod_mp3]}" "${RPS[ceiling_notmod]}")x, HEAD $(ratio "${RPS[head_mp3]}" "${RPS[ceiling_head]}")x, cached mp3 $(ratio "${RPS[cached_mp3]}" "${RPS[ceiling_mp3]}")x; goal: 0.6x each: $small_met"
echo "    the ceiling's CPU time a request over serve's (steadier than throughput on a shared machine): 304 $(ratio "${CPU_US[ceiling_notmod]}" "${CPU_US[notmod_mp3]}")x, HEAD $(ratio "${CPU_US[ceiling_head]}" "${CPU_US[head_mp3]}")x, cached mp3 $(ratio "${CPU_US[ceiling_mp3]}" "${CPU_US[cached_mp3]}")x"
echo "(d) idle connections at the limit: a new client answered in ${IDLE_MS[100]} ms (100 allowed, 150 idle), ${IDLE_MS[1000]} ms (1000 allowed, 1000 idle); goal: within 100 ms: $(awk -v a="${IDLE_MS[100]}" -v b="${IDLE_MS[1000]}" 'BEGIN { print (a <= 100 && b <= 100 ? "met" : "NOT met") }')"
mp3_ratio=$(ratio "${RPS[distinct16_mp3]}" "${RPS[distinct16]}")
echo "(e) distinct mp3 at 16 connections: $(printf %.1f "${RPS[distinct16_mp3]}") req/s, $mp3_ratio x distinct wav's; goal at least 0.25x: \
$(awk -v r="$mp3_ratio" 'BEGIN { print (r >= 0.25 ? "met" : "NOT met") }'); p99 $(printf %.2f "${P99[distinct16_mp3]}") ms, goal within 100 ms: \
$(awk -v p="${P99[distinct16_mp3]}" 'BEGIN { print (p <= 100 ? "met" : "NOT met") }')"
echo "(f) fairness, $fair_connections connections of distinct mp3 for $fair_seconds s: $(figure answers) answers ($(figure rps) req/s), \
$(figure never_answered) connections never answered (each got $(figure least) to $(figure most)), $(figure errors) connection errors"
echo "    first byte: p50 $(figure first_byte_p50_ms) ms, p99 $(figure first_byte_p99_ms) ms, worst $(figure first_byte_max_ms) ms (unanswered at the end counted with their wait); \
goal no client waits over 2 s: $(awk -v w="$(figure first_byte_max_ms)" -v n="$(figure never_answered)" 'BEGIN { print (w <= 2000 && n == 0 ? "met" : "NOT met") }')"
echo "    /healthz every 50 ms meanwhile: $(figure health_count) answered, p50 $(figure health_p50_ms) ms, p99 $(figure health_p99_ms) ms, worst $(figure health_max_ms) ms; \
goal within 10 ms: $(awk -v w="$(figure health_max_ms)" 'BEGIN { print (w <= 10 ? "met" : "NOT met") }')"

# Operators' figures: what the access log costs a cached request (the server's CPU time over the
# requests wrk counted: steadier than req/s on a shared machine), and memory against --cache-mb.
warm() { # format: the 20 repeated amounts, composed once
  for i in $(seq 0 19); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/announcements/$((12000 + i * 3001)).$(printf %02d $((i * 7 % 100))).$1" || true
  done
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
declare -A CPU
echo
for log in quiet text json; do
  case $log in
    quiet) start "$soundset" serve --output "$set_folder" --listen 127.0.0.1:0 --quiet ;;
    *) rm -f "$root/access.log"; start "$soundset" serve --output "$set_folder" --listen 127.0.0.1:0 --log-format "$log" --access-log "$root/access.log" ;;
  esac
  warm mp3
  before=$(cpu_ticks "$started_pid")
  load "log_$log" "serve (b) cached mp3, access log: $log" repeated /v1/announcements/ mp3 5
  requests=$(awk '/requests in/ { print $1 }' "$root/wrk-log_$log.txt")
  CPU[$log]=$(awk -v a="$before" -v b="$(cpu_ticks "$started_pid")" -v n="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz * 1e6 / n }')
  stop
done
echo "access log: server CPU per cached request ${CPU[quiet]} us quiet, ${CPU[text]} us with text lines, ${CPU[json]} us with JSON lines"

rss_mb() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
for cache_mb in 0 64; do
  start "$soundset" serve --output "$set_folder" --listen 127.0.0.1:0 --quiet --cache-mb "$cache_mb"
  idle=$(rss_mb "$started_pid")
  load "memory_wav_$cache_mb" "memory: distinct wav, --cache-mb $cache_mb" distinct /v1/announcements/ wav 4
  load "memory_mp3_$cache_mb" "memory: distinct mp3, --cache-mb $cache_mb" distinct /v1/announcements/ mp3 4
  loaded=$(rss_mb "$started_pid")
  sleep 3  # the allocator's free pages go back every 2 s
  held=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '$1 == "soundset_cache_bytes" { printf "%.1f", $2 / 1048576 }')
  echo "    --cache-mb $cache_mb: RSS $idle MB idle, $loaded MB right after the load, $(rss_mb "$started_pid") MB 3 s later; the cache holds $held MB"
  stop
done
