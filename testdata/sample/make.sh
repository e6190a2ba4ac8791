#!/usr/bin/env bash
# Regenerates the embedded sample corpus from src/*.ll: each module is
# assembled with llvm-as-19 and packed with airpipe's own MTLB writer.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
for f in "$here"/src/*.ll; do llvm-as-19 "$f" -o "$tmp/$(basename "$f" .ll).bc"; done
cd "$top"
go run ./cmd/airpipe pack -o "$here/compute.metallib" scale:kernel="$tmp/scale.bc" sum_sqrt:kernel="$tmp/sum_sqrt.bc"
go run ./cmd/airpipe pack -o "$here/render.metallib" --platform ios --target-os 0x82 --os-version 17.0 \
  pass_vertex:vertex="$tmp/pass_vert.bc" solid_fragment:fragment="$tmp/solid_frag.bc"
