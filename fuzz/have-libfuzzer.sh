#!/bin/sh
# have-libfuzzer.sh CC - exit 0 when CC builds a libFuzzer target with
# ASan + UBSan (the fuzz targets skip cleanly otherwise).
# SPDX-License-Identifier: GPL-2.0-or-later
cc=${1:-clang}
command -v "$cc" >/dev/null 2>&1 || exit 1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cat > "$dir/t.c" <<'C'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
C
"$cc" -fsanitize=fuzzer,address,undefined -o "$dir/t" "$dir/t.c" >/dev/null 2>&1
