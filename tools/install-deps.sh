#!/usr/bin/env bash
# install-deps.sh - install the Debian packages ostrich needs to build and
# test (bookworm).  Run as root; a no-op for packages already present.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

PKGS=(build-essential autoconf automake libtool pkg-config check zlib1g-dev
      gnuplot-nox valgrind dpkg-dev clang libclang-rt-14-dev
      munge libmunge-dev libslurm-dev slurmctld slurmd slurm-client
      slurmdbd mariadb-server libmariadb-dev
      debhelper lintian chrpath rpm	# tools/package.sh: .deb and .rpm
      prometheus	# promtool: tests check scampaign --metrics with it
      jq	# s21: scampaign --report --json read against sacct
      python3)	# tests/docs/one-ci.sh runs bench/shake-table.py
# slurmdbd + mariadb-server: the live accounting scenario (s12), which
# starts both itself, in its scratch directory (tools/cluster.sh);
# libmariadb-dev: tools/build-slurm.sh builds the tarball releases'
# slurmdbd and accounting_storage/mysql with it

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "install-deps: all packages present"; exit 0; }

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}" >&2
	echo "install-deps: run as root (or: sudo apt-get install ${missing[*]})" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A container without an init system refuses service starts; the daemons are
# started by hand by the tests, never by the package scripts.
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
	chmod +x /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1 || apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}" ||
	{ apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; }
