#!/usr/bin/env bash
# Makes the demo's two voices in Assets/ with espeak-ng and sox: zh-CN (the default voice, in
# Assets/voices/zh-CN: the cmn voice, pinyin input) and en-US (Assets/voices/en-US: the en-us voice,
# with its soundset.json), and Assets/soundset.json naming the default. Each take is dressed up like
# a studio delivery: room tone before and after each word, levels 10+ dB apart; the zh-CN takes mix
# containers, sample rates (22.05-48 kHz), bit depths and mono/stereo, the en-US ones are small
# (mono, 22.05 kHz, 16-bit, mostly WAV). Run from the repository root:
#   bash Tests/Scripts/make-demo-pack.sh [DIR]
# Needs espeak-ng and sox (apt-get install espeak-ng sox). Real recordings replace these files.
set -euo pipefail
assets=${1:-Assets}
out=$assets/voices/zh-CN
english=$assets/voices/en-US
mkdir -p "$out" "$english"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Dresses up $work/voice.wav (espeak-ng's take) as a studio take: at `gain` dB, resampled to `rate`,
# `before` and `after` ms of room tone, written as `file` with `channels` channels of `bits` bits.
dress() {
  local file=$1 rate=$2 bits=$3 channels=$4 gain=$5 before=$6 after=$7 length
  # Speech at its level, resampled, padded with silence where the room tone will be.
  sox "$work/voice.wav" -r "$rate" -c 1 -b 32 -e floating-point "$work/speech.wav" \
    norm "$gain" pad "0.$(printf %03d "$before")" "0.$(printf %03d "$after")"
  length=$(soxi -D "$work/speech.wav")
  # Room tone: quiet pink noise with a little hum, about 55 dB under the speech peak.
  sox -R -r "$rate" -c 1 -b 32 -e floating-point -n "$work/room.wav" \
    synth "$length" pinknoise mix sine 50 vol "$(awk "BEGIN { print 10^(($gain - 55) / 20) }")"
  sox -m -v 1 "$work/speech.wav" -v 1 "$work/room.wav" -c "$channels" -b "$bits" -e signed-integer "$file"
}

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
  dress "$out/$name.$container" "$rate" "$bits" "$channels" "$gain" "$before" "$after"
done
echo "wrote ${#clips[@]} recordings to $out"

# en-US: every clip `soundset clips --locale en-US` lists as always needed, and the prefix phrase.
# name|text|container|gain dB|room tone before ms|after ms
english_clips=(
  "0|zero|wav|-6|90|120" "1|one|wav|-14|60|100" "2|two|wav|-3|120|80" "3|three|wav|-10|70|140"
  "4|four|wav|-16|100|90" "5|five|wav|-4|80|130" "6|six|wav|-12|140|70" "7|seven|flac|-8|90|110"
  "8|eight|wav|-15|60|120" "9|nine|wav|-5|110|100" "10|ten|wav|-11|80|90" "11|eleven|wav|-7|100|120"
  "12|twelve|wav|-13|70|80" "13|thirteen|flac|-4|130|100" "14|fourteen|wav|-9|60|140" "15|fifteen|wav|-6|90|70"
  "16|sixteen|wav|-14|110|90" "17|seventeen|wav|-5|70|120" "18|eighteen|wav|-10|100|80" "19|nineteen|wav|-8|80|110"
  "20|twenty|wav|-3|120|90" "30|thirty|wav|-12|60|100" "40|forty|flac|-7|90|130" "50|fifty|wav|-15|100|70"
  "60|sixty|wav|-6|70|110" "70|seventy|wav|-11|130|90" "80|eighty|wav|-4|80|120" "90|ninety|wav|-9|100|80"
  "hundred|hundred|wav|-13|90|100" "thousand|thousand|flac|-5|70|130" "million|million|wav|-8|110|90"
  "billion|billion|wav|-14|80|110" "dollar|dollar|wav|-6|100|80" "dollars|dollars|flac|-10|60|120"
  "and|and|wav|-4|120|70" "cent|cent|wav|-12|90|100" "cents|cents|wav|-7|70|110"
  "received|payment received|flac|-9|150|140"
)
for row in "${english_clips[@]}"; do
  IFS='|' read -r name text container gain before after <<<"$row"
  # espeak-ng's own silence (about 0.35 s) goes first, to keep the files small: the room tone replaces it.
  espeak-ng -v en-us -s 165 -w "$work/said.wav" "$text"
  sox "$work/said.wav" "$work/voice.wav" silence 1 0.01 0.1% reverse silence 1 0.01 0.1% reverse
  dress "$english/$name.$container" 22050 16 1 "$gain" "$before" "$after"
done
cat >"$english/soundset.json" <<'JSON'
{
  "locale": "en-US",
  "sampleRate": 22050,
  "announcement": { "prefix": "received", "maxWaitSeconds": 25 },
  "tempo": 0.8,
  "maxAmount": "9999.99"
}
JSON
echo "wrote ${#english_clips[@]} recordings to $english"
[ -f "$assets/soundset.json" ] || printf '{"defaultVoice": "zh-CN"}\n' >"$assets/soundset.json"
