#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Regenerates the console's PNG icons with ImageMagick (the Qt here has no SVG
# icon engine, so the icons are drawn as PNGs; run this after changing one).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
CONVERT=${CONVERT:-/usr/bin/convert}
icon() { # NAME SIZE DRAW...
  local name=$1 size=$2
  shift 2
  "$CONVERT" -size "${size}x${size}" xc:none -strokewidth 0 "$@" "$name.png"
}
# The application: three stages joined by arrows.
icon pepsi-console 128 \
  -fill '#1f77b4' -draw 'roundrectangle 6,40 38,88 6,6' \
  -fill '#2ca02c' -draw 'roundrectangle 48,40 80,88 6,6' \
  -fill '#ff7f0e' -draw 'roundrectangle 90,40 122,88 6,6' \
  -stroke '#333333' -strokewidth 4 -draw 'line 38,64 48,64' -draw 'line 80,64 90,64' \
  -fill '#333333' -strokewidth 0 -draw 'polygon 44,58 50,64 44,70' -draw 'polygon 86,58 92,64 86,70'
# Drain: a pause sign.
icon drain 32 -fill '#6e6e6e' -draw 'roundrectangle 7,5 13,27 2,2' -draw 'roundrectangle 19,5 25,27 2,2'
# Resume: a play sign.
icon resume 32 -fill '#2e7d32' -draw 'polygon 8,4 27,16 8,28'
# Requeue: a U-turn arrow.
icon requeue 32 -fill none -stroke '#b26a00' -strokewidth 4 -draw 'arc 6,6 26,26 270,180' \
  -fill '#b26a00' -strokewidth 0 -draw 'polygon 2,14 10,14 6,22'
# Reload: a circular arrow.
icon reload 32 -fill none -stroke '#1f77b4' -strokewidth 4 -draw 'arc 5,5 27,27 30,320' \
  -fill '#1f77b4' -strokewidth 0 -draw 'polygon 20,2 30,10 20,14'
