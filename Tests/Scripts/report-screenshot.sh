#!/usr/bin/env bash
# make report-screenshot: a PNG of the whole report page, Chinese drawn in a CJK font, by headless
# Chromium. Installs Chromium and a CJK font when they are missing (apt-get as root, or says the
# command); measures the page's height in a first headless run, then captures that height.
# Usage: bash Tests/Scripts/report-screenshot.sh REPORT.html OUT.png
set -euo pipefail
report=$(realpath "$1")
out=$2
width=1200
# Chromium's software compositor draws at most this many pixels a side.
tallest=16384

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    echo "run as root: $*"; exit 1; fi
}

browser=
for candidate in chromium chromium-browser google-chrome "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" \
  "/Applications/Chromium.app/Contents/MacOS/Chromium"; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [ -z "$browser" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "installing chromium with apt-get"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    browser=chromium
  else
    echo "make report-screenshot needs Chromium or Google Chrome: brew install --cask chromium"; exit 1
  fi
fi
# macOS has CJK fonts (PingFang); a bare Debian has none, and Chinese is drawn as boxes.
if [ "$(uname -s)" != Darwin ] && command -v fc-list >/dev/null 2>&1 && ! fc-list :lang=zh family | grep -q .; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "installing a CJK font (fonts-wqy-zenhei) with apt-get"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-zenhei >/dev/null
  else
    echo "warning: no CJK font is installed: Chinese will be drawn as boxes (install Noto Sans CJK or WenQuanYi Zen Hei)"
  fi
fi

run() { "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars "$@" 2>/dev/null; }
# The page's height, at the screenshot's width: a copy of the page that writes it into its DOM.
measure=$(dirname "$out")/report-measure.html
{ cat "$report"; echo '<script>document.body.dataset.pageHeight = document.documentElement.scrollHeight</script>'; } >"$measure"
height=$(run --window-size=$width,1000 --dump-dom "file://$(realpath "$measure")" | grep -o 'data-page-height="[0-9]*"' | grep -o '[0-9]*' || true)
rm -f "$measure"
if [ -z "$height" ]; then
  echo "could not measure the page's height: capturing $tallest px"; height=$tallest
fi
captured=$((height < tallest ? height : tallest))
run --window-size=$width,$captured --screenshot="$(realpath "$(dirname "$out")")/$(basename "$out")" "file://$report" >/dev/null
if [ "$captured" -lt "$height" ]; then
  echo "wrote $out: the top $captured px of a $height px page (Chromium draws at most $tallest)"
else
  echo "wrote $out: the whole page, $width x $height px"
fi
