#!/bin/sh
# whatif.sh - tools/whatif.sh offline: sacct and scontrol on PATH are fakes
# that print the captured dump data/cluster.sacct (whatever the period:
# every day's call lists every row, which the tool must keep once) and
# data/cluster.partinfo, with PriorityDecayHalfLife = 01:00:00.  Checks:
# the dump is the fixture, the half-life is read, the per-account tables
# are those of sacct.sh's goldens (same replay), the per-user tables and
# the report are printed; then --sacct-file with --procs and no sacct at
# all.  Plots are checked when gnuplot is installed; a gnuplot that fails
# makes the tool say so and exit 1.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${DATA:=data}" "${srcdir:=.}"
: "${WHATIF:=$srcdir/../../tools/whatif.sh}"
TZ=UTC
export TZ
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
bad() { echo "FAIL $*"; fail=1; }
command -v bash > /dev/null || { echo "SKIP: no bash"; exit 77; }
case $SIM in /*) ;; *) SIM=$PWD/$SIM ;; esac
case $DATA in /*) ;; *) DATA=$PWD/$DATA ;; esac

mkdir "$tmp/bin"
cat > "$tmp/bin/sacct" <<EOS
#!/bin/sh
for a; do [ "\$a" = --noheader ] && exec tail -n +2 "$DATA/cluster.sacct"; done
exec cat "$DATA/cluster.sacct"
EOS
cat > "$tmp/bin/scontrol" <<EOS
#!/bin/sh
case "\$*" in
"show config") printf 'Configuration data as of now\nPriorityDecayHalfLife   = 01:00:00\nPriorityType            = priority/multifactor\n' ;;
"show partition -o") cat "$DATA/cluster.partinfo" ;;
*) exit 1 ;;
esac
EOS
chmod +x "$tmp/bin/sacct" "$tmp/bin/scontrol"

PATH=$tmp/bin:$PATH OSTRICH_SIM=$SIM bash "$WHATIF" --days 3 --out "$tmp/out" \
	> "$tmp/stdout" 2> "$tmp/stderr" || { bad "whatif --days 3: exit status"; cat "$tmp/stderr"; }
cmp -s "$tmp/out/sacct.txt" "$DATA/cluster.sacct" && ok "the 3 days' dumps make the fixture, each row once" ||
	bad "dump differs from the fixture"
grep -q 'sacct day 3/3' "$tmp/stderr" && ok "progress line" || bad "no progress line: $(cat "$tmp/stderr")"
grep -q 'fairshare half-life 01:00:00 (3600 s)' "$tmp/stderr" && ok "half-life from scontrol show config" ||
	bad "half-life: $(cat "$tmp/stderr")"
for p in ostrich fairshare fcfs; do
	cmp -s "$tmp/out/account-$p.csv" "$DATA/cluster-$p-accounts.csv" && ok "per-account table $p" ||
		{ bad "per-account table $p"; diff "$DATA/cluster-$p-accounts.csv" "$tmp/out/account-$p.csv"; }
	[ "$(wc -l < "$tmp/out/user-$p.csv")" -ge 3 ] && ok "per-user table $p" || bad "per-user table $p"
done
for t in 'per account: mean stretch' 'per account: mean wait (s)' 'per user: max stretch' \
	'per user: stretch > 20 (%)' 'largest changes of mean stretch'; do
	grep -qF "$t" "$tmp/stdout" && ok "printed: $t" || bad "not printed: $t"
done
if command -v gnuplot > /dev/null; then
	for f in account-stretch user-stretch account-wait user-wait; do
		[ -s "$tmp/out/$f.png" ] && ok "plot $f.png" || bad "no plot $f.png: $(cat "$tmp/stderr")"
	done
else
	echo "# no gnuplot: plots not checked"
fi

# a gnuplot that fails (as on a missing terminal) is reported, not taken
# for plots written, and the exit status says so
mkdir "$tmp/badgp"
printf '#!/bin/sh\ncat > /dev/null\necho "gnuplot: unknown or ambiguous terminal type" >&2\nexit 1\n' \
	> "$tmp/badgp/gnuplot"
chmod +x "$tmp/badgp/gnuplot"
if PATH=$tmp/badgp:/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --out "$tmp/out3" > /dev/null 2> "$tmp/stderr3"; then
	bad "failed plots: exit status 0"
elif grep -q 'whatif: plots ' "$tmp/stderr3" || ls "$tmp/out3"/*.png > /dev/null 2>&1 ||
	! grep -q 'not written: account-stretch.png' "$tmp/stderr3"; then
	bad "failed plots: $(cat "$tmp/stderr3")"
else
	ok "a failed plot is reported, not written, exit status 1"
fi

PATH=/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --out "$tmp/out2" > "$tmp/stdout2" 2> "$tmp/stderr2" ||
	{ bad "whatif --sacct-file: exit status"; cat "$tmp/stderr2"; }
cmp -s "$tmp/out2/account-ostrich.csv" "$DATA/cluster-ostrich-accounts.csv" &&
	ok "--sacct-file --procs 16 replays the same" || bad "--sacct-file --procs 16"
exit $fail
