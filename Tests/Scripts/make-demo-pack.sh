#!/usr/bin/env bash
# Makes the zh-CN demo voice pack in Assets/ with espeak-ng (cmn voice, pinyin input) and sox, dressed up like a
# studio delivery: room tone before and after each word, levels 10+ dB apart, a mix of containers,
# sample rates (22.05-48 kHz), bit depths and mono/stereo. Run from the repository root:
#   bash Tests/Scripts/make-demo-pack.sh [DIR]
# Needs espeak-ng and sox (apt-get install espeak-ng sox). Real recordings replace these files.
set -euo pipefail
out=${1:-Assets}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|text|pinyin|container|rate|bits|channels|gain dB|room tone before ms|after ms
clips=(
  "0|零|ling2|wav|44100|16|1|-6|120|200"
  "1|一|yi1|aiff|48000|24|1|-14|80|150"
  "2|二|er4|flac|22050|16|1|-3|200|90"
  "3|三|san1|caf|32000|16|2|-10|60|260"
  "4|四|si4|wav|48000|24|2|-16|150|120"
  "5|五|wu3|aiff|44100|16|1|-4|90|300"
  "6|六|liu4|wav|22050|16|2|-12|250|80"
  "7|七|qi1|flac|48000|24|1|-8|110|180"
  "8|八|ba1|caf|44100|16|1|-15|70|140"
  "9|九|jiu3|wav|32000|16|1|-5|180|220"
  "ten|十|shi2|aiff|22050|16|2|-11|130|100"
  "hundred|百|bai3|wav|48000|16|1|-2|100|250"
  "thousand|千|qian1|flac|44100|24|2|-13|220|130"
  "ten_thousand|万|wan4|caf|48000|16|1|-7|90|170"
  "hundred_million|亿|yi4|wav|44100|24|1|-17|160|110"
  "point|点|dian3|aiff|32000|16|1|-9|140|200"
  "yuan|元|yuan2|wav|22050|16|1|-4|70|160"
  "received|收款到账|shou1 kuan3 dao4 zhang4|flac|48000|16|2|-12|300|240"
)
for row in "${clips[@]}"; do
  IFS='|' read -r name text pinyin container rate bits channels gain before after <<<"$row"
  # The cmn voice reads bare characters it lacks as pinyin with English tone numbers
  # ("ling two"), so it is given tone-numbered pinyin through its pinyin variant.
  espeak-ng -v cmn-latn-pinyin -s 140 -w "$work/voice.wav" "$pinyin"
  # Speech at its level, resampled, padded with silence where the room tone will be.
  sox "$work/voice.wav" -r "$rate" -c 1 -b 32 -e floating-point "$work/speech.wav" \
    norm "$gain" pad "0.$(printf %03d "$before")" "0.$(printf %03d "$after")"
  length=$(soxi -D "$work/speech.wav")
  # Room tone: quiet pink noise with a little hum, about 55 dB under the speech peak.
  sox -R -r "$rate" -c 1 -b 32 -e floating-point -n "$work/room.wav" \
    synth "$length" pinknoise mix sine 50 vol "$(awk "BEGIN { print 10^(($gain - 55) / 20) }")"
  sox -m -v 1 "$work/speech.wav" -v 1 "$work/room.wav" -c "$channels" -b "$bits" -e signed-integer "$out/$name.$container"
done
echo "wrote ${#clips[@]} recordings to $out"
