#!/bin/sh
# accounts-experiments.sh - §21 in the simulator: per-account campaign
# stretch on the public traces, flat (--hierarchy users) against nested
# (--hierarchy accounts, one account per SWF group), with fair-share and
# the Fair-Tree-like baseline, and a 1-user account against a 10-user
# account at equal shares.  Markdown on stdout.
#
#   SIM=path/to/ostrich-sim GEN=path/to/ostrich-gen TRACES=dir \
#	sh sim/accounts-experiments.sh
#
# A user's account in the tables is the group of its first job in the
# trace (the one the simulator makes its own account; a job of another
# group counts there, as with -A, but its campaigns are tallied with the
# user's).  Group -1 (unknown) is the account "none" (users at the root).
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=ostrich-sim}"
: "${GEN:=ostrich-gen}"
: "${TRACES:?set TRACES to the directory of the SWF traces}"
here=$(dirname "$0")
. "$here/traces.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

cat <<'EOF2'
### Per-account campaign stretch on the traces

EASY dispatch, the defaults of section 3 (`--grouping trace`, requested
estimates): OStrich flat (`--hierarchy users`) and nested (`--hierarchy
accounts`: one account per SWF group, field 13, all of share 1, under the
root), Slurm-style fair-share by user, and the Fair-Tree-like baseline
`fairtree` (the account's decayed usage first, then the user's).  Per account: the mean and the max of its
campaigns' stretch; the table gives, over the accounts, the mean and the
worst of the per-account means, the worst per-account max, and Jain's
index of the per-account means.  A user counts in the account of its
first job.

| trace | m | accounts | policy | mean of account means | worst account mean | worst account max | Jain (accounts) | mean stretch | max stretch |
|---|---|---|---|---|---|---|---|---|---|
EOF2
for spec in $TRACE_SPECS; do
	trace_spec "$spec"
	[ -r "$trace" ] || { echo "missing $trace" >&2; continue; }
	gzip -dc "$trace" | awk '!/^;/ && NF >= 13 && !($12 in g) {
		g[$12] = $13; print $12, $13 }' >"$tmp/$name.groups"
	for run in "ostrich users" "ostrich accounts" "fairshare users" \
		   "fairtree users"; do
		set -- $run
		"$SIM" --quiet --policy "$1" --dispatch easy --hierarchy "$2" \
			--campaigns-out "$tmp/$name-$1-$2.csv" "$trace" ||
			exit 1
	done
	python3 "$here/accounts-tables.py" traces "$name" "$m" \
		"$tmp/$name.groups" "$tmp/$name-ostrich-users.csv" \
		"$tmp/$name-ostrich-accounts.csv" \
		"$tmp/$name-fairshare-users.csv" \
		"$tmp/$name-fairtree-users.csv" || exit 1
done
for spec in HPC2N-2002-2.1-cln:HPC2N; do
	name=${spec#*:}
	[ -r "$tmp/$name-ostrich-users.csv" ] || continue
	python3 "$here/accounts-tables.py" detail "$name" - \
		"$tmp/$name.groups" "$tmp/$name-ostrich-users.csv" \
		"$tmp/$name-ostrich-accounts.csv" || exit 1
done

# A 1-user account against a 10-user account at equal shares: the OStrich
# paper's closed loop (ostrich-gen --experiment ostrich, every user short,
# think time 0, owners uniform) with user 1 alone in account 1 and users
# 2..11 in account 2.  While both accounts have a job waiting, each
# should get about half of the machine nested, the solo user 1/11 flat.
"$GEN" --experiment ostrich --users 11 --short-frac 1 --accounts 1,10 \
	-o "$tmp/solo.cwl" || exit 1
cat <<'EOF2'

### A 1-user account against a 10-user account

The OStrich paper's closed loop (`ostrich-gen --experiment ostrich --users
11 --short-frac 1 --accounts 1,10`: m = 64, 10,000 jobs of 1 CPU, runtimes
U{1..3600} s, a campaign opened with probability 0.02, owners uniform,
think time 0), with account 1 holding user 1 alone and account 2 users
2..11, equal shares.  Measured from the simulated schedule
(`--jobs-out`) over the time both accounts have a job waiting (the
column "both busy", summed over the run): the share of the CPU-seconds
each account received then, and its campaigns' mean stretch (all run).

| policy | hierarchy | both busy (s) | solo share | big share | solo mean stretch | big mean stretch |
|---|---|---|---|---|---|---|
EOF2
for run in "ostrich users" "ostrich accounts" "fairshare users" \
	   "fairtree users"; do
	set -- $run
	"$SIM" --quiet --policy "$1" --hierarchy "$2" \
		--jobs-out "$tmp/solo-$1-$2.csv" \
		--campaigns-out "$tmp/solo-c-$1-$2.csv" "$tmp/solo.cwl" ||
		exit 1
	python3 "$here/accounts-tables.py" solo "$1" "$2" \
		"$tmp/solo-$1-$2.csv" "$tmp/solo-c-$1-$2.csv" || exit 1
done
