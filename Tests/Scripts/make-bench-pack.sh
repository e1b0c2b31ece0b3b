#!/usr/bin/env bash
# make bench's scaling pack: N distinct raw takes generated with espeak-ng and sox into DIR, for the
# scaling table (Tests/Scripts/bench-scale.sh: 1,150 takes for 1x, 5,750 for 5x).
# Each take is one combination, never repeated, of
#   a word or short phrase: 25 in Mandarin pinyin (the cmn-latn-pinyin voice, as bench.sh's pack) and
#     25 in English (en-us);
#   one of 12 espeak-ng voice variants (none of those of bench.sh's 230-take pack), at 4 pitches (-p)
#     and 3 speeds (-s): 50 x 12 x 4 x 3 = 7,200 combinations, visited in a scrambled order (take i is
#     combination i x 7919 mod 7200), so that the first 1,150 already mix every word, voice, pitch
#     and speed; no two takes are the same recording (soundset would warn that they are);
# dressed like bench.sh's pack: normalised to a level between -2 and -18 dBFS, 0.1-0.3 s of pink room
# tone 55 dB below the speech before and after, mostly 16-bit mono WAV at 48 or 44.1 kHz, some at
# 22.05 or 32 kHz, some stereo, some 24-bit, one in ten FLAC or AIFF.
# File names are valid clip names (ASCII letters, digits and '_', at most 64 characters) and start
# with the take's index, e.g. t0042_zh_liang_f3_p45_s160.wav; the pack has no soundset.json (the
# defaults apply, as for bench.sh's pack).
# The takes are made on every core (xargs -P, in batches), each written under a hidden name and then
# renamed, so an interrupted run resumes where it stopped; DIR/.complete (holding N) marks a finished
# pack, and the script returns at once for it. Takes already in FROM (a smaller pack made by this
# script) are hard-linked instead of generated: take i is the same in every pack.
# Usage: bash Tests/Scripts/make-bench-pack.sh N DIR [FROM]
set -euo pipefail

texts=(ling2 yi1 er4 san1 si4 wu3 liu4 qi1 ba1 jiu3 shi2 bai3 qian1 wan4 yi4 dian3 yuan2 liang3 jiao3 fen1 zheng3
  "dao4 zhang4" "shou1 kuan3" "zhi1 fu4 bao3" "wei1 xin4"
  zero one two three four five six seven eight nine ten hundred thousand point dollars cents total balance
  "payment received" "thank you" "cash back" tip refund "order ready" welcome)
voices=(f1 f2 f3 f4 m1 m2 m3 m4 m5 m6 klatt4 benjamin)
pitches=(30 45 60 75)
speeds=(130 160 190)
zh=25 # the first 25 texts are pinyin
combinations=$((${#texts[@]} * ${#voices[@]} * ${#pitches[@]} * ${#speeds[@]}))

# Take I's file name (without the folder), and its espeak-ng and sox settings, into globals.
describe() {
  local i=$1 k t
  k=$(((i * 7919) % combinations))
  t=$((k % ${#texts[@]})); k=$((k / ${#texts[@]}))
  text=${texts[$t]}
  voice=${voices[$((k % ${#voices[@]}))]}; k=$((k / ${#voices[@]}))
  pitch=${pitches[$((k % ${#pitches[@]}))]}; k=$((k / ${#pitches[@]}))
  speed=${speeds[$k]}
  if [ "$t" -lt $zh ]; then lang=zh; espeak=cmn-latn-pinyin; else lang=en; espeak=en-us; fi
  case $((i % 10)) in 3) rate=22050;; 6) rate=32000;; 1 | 4 | 8) rate=44100;; *) rate=48000;; esac
  case $((i % 20)) in 7) fmt=flac;; 13) fmt=aiff;; *) fmt=wav;; esac
  channels=$((i % 7 == 0 ? 2 : 1))
  bits=$([ "$fmt" != flac ] && [ $((i % 5)) = 0 ] && echo 24 || echo 16)
  gain=$((-2 - (i * 11) % 17)); before=0.$((100 + (i * 41) % 200)); after=0.$((100 + (i * 59) % 200))
  name=$(printf 't%04d_%s_%s_%s_p%s_s%s.%s' "$i" "$lang" "$(echo "$text" | tr -d ' 0-9')" "$voice" "$pitch" "$speed" "$fmt")
}

# Worker: makes takes I... in DIR (FROM may be empty), skipping those already there.
if [ "${1:-}" = --takes ]; then
  dir=$2 from=$3; shift 3
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/soundset-bench-pack.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  # The room tone's volume for each level (-2 to -18 dBFS): 55 dB below it.
  read -r -a room < <(awk 'BEGIN { for (g = 0; g <= 18; g++) printf "%s ", 10^((-g - 55) / 20); print "" }')
  for i in "$@"; do
    describe "$i"
    [ -e "$dir/$name" ] && continue
    if [ -n "$from" ] && [ -e "$from/$name" ]; then ln "$from/$name" "$dir/$name" 2>/dev/null || cp "$from/$name" "$dir/$name"; continue; fi
    espeak-ng -v "$espeak+$voice" -p "$pitch" -s "$speed" -w "$tmp/voice.wav" "$text"
    sox "$tmp/voice.wav" -r "$rate" -c 1 -b 32 -e floating-point "$tmp/speech.wav" norm "$gain" pad "$before" "$after"
    # The room tone is as long as the padded speech; mixed in at the speech's level less 55 dB.
    # (FLAC is integer PCM already: sox is not told so, or it warns.)
    sox -m -v 1 "$tmp/speech.wav" -v "${room[$((-gain))]}" \
      "|sox -R -n -r $rate -c 1 -p synth $(soxi -D "$tmp/speech.wav") pinknoise" \
      -c "$channels" -b "$bits" $([ "$fmt" = flac ] || echo "-e signed-integer") "$tmp/take.$fmt"
    mv "$tmp/take.$fmt" "$dir/.$name"
    mv "$dir/.$name" "$dir/$name"
  done
  exit 0
fi

[ $# -ge 2 ] || { echo "usage: bash Tests/Scripts/make-bench-pack.sh N DIR [FROM]"; exit 64; }
count=$1 dir=$2 from=${3:-}
[ "$count" -le "$combinations" ] || { echo "make-bench-pack.sh: at most $combinations distinct takes"; exit 64; }
if [ -f "$dir/.complete" ] && [ "$(cat "$dir/.complete")" = "$count" ]; then exit 0; fi
for tool in espeak-ng sox soxi; do
  command -v $tool >/dev/null 2>&1 || { echo "make-bench-pack.sh needs $tool (apt-get install espeak-ng sox)"; exit 1; }
done
[ -n "$from" ] && { [ -f "$from/.complete" ] || from=; }
rm -f "$dir/.complete"
mkdir -p "$dir"
find "$dir" -maxdepth 1 -name '.t*' -delete # a take half written when a run was stopped
start=$EPOCHREALTIME
seq 0 $((count - 1)) | xargs -P "$(nproc)" -n 50 bash "$0" --takes "$dir" "$from"
made=$(find "$dir" -maxdepth 1 -type f ! -name '.*' | wc -l)
[ "$made" = "$count" ] || { echo "make-bench-pack.sh: $dir holds $made takes, not $count (remove it and run again)"; exit 1; }
echo "$count" > "$dir/.complete"
printf 'made the pack of %d takes in %s (%.1f s, %s)\n' "$count" "$dir" "$(awk "BEGIN { print $EPOCHREALTIME - $start }")" "$(du -sh "$dir" | cut -f1)"
