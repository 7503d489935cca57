#!/bin/sh
# refs.sh - run tools/check-refs.sh on the source tree of this build.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${srcdir:=.}"
exec bash "$srcdir/../../tools/check-refs.sh" "$srcdir/../.."
