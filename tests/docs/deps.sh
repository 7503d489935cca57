#!/bin/sh
# deps.sh - run tools/check-deps.sh on the objects of this build: no new
# circle of calls between the C files of src/, sim/, scampaign/ or
# plugins/ (the known ones, tools/deps-allow.txt, are printed as warnings).
# It reads the objects the directories before this one built (make check
# builds src, scampaign, sim and plugins first); it skips when none is.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${srcdir:=.}" "${top_builddir:=../..}"
exec bash "$srcdir/../../tools/check-deps.sh" "$top_builddir" "$srcdir/../.."
