#!/bin/sh
# whatif.sh - tools/whatif.sh offline: sacct and scontrol on PATH are fakes
# that print the captured dump data/cluster.sacct (whatever the period:
# every day's call lists every row, which the tool must keep once) and
# data/cluster.partinfo, with PriorityDecayHalfLife = 01:00:00.  Checks:
# the dump is the fixture, the half-life is read, the per-account tables
# are those of sacct.sh's goldens (same replay), the per-user tables and
# the report are printed; then --sacct-file with --procs and no sacct at
# all.  Plots are checked when gnuplot is installed; a gnuplot that fails
# makes the tool say so and exit 1.  Then: each sacct call
# covers one calendar day and is labelled with it (the last one today, not
# one day behind); the "actual" column (ostrich-sim --policy actual) is
# written and printed; an option without its value, and --days 0, are
# usage errors (exit 2, the usage on stderr); --help exits 0 with the
# usage on stdout.  --shares assoc|FILE gives fairshare the association
# shares (sshare -a -P, saved; or a capture).
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
# the period of each call, for the day labels' check
prev=
for a; do case \$prev in -S) s=\$a ;; -E) e=\$a ;; esac; prev=\$a; done
echo "\$s \$e" >> "$tmp/sacct-calls"
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
# one call per calendar day: the first from 3 days ago, the last today,
# each within one date, and each labelled with that date
calls=$(wc -l < "$tmp/sacct-calls")
labels=$(sed -n 's/^whatif: sacct day [0-9]*\/[0-9]* (\([0-9-]*\)).*/\1/p' "$tmp/stderr")
[ "$(printf '%s\n' "$labels" | grep -c .)" = "$calls" ] && grep -q "sacct day $calls/$calls" "$tmp/stderr" &&
	ok "progress line per call ($calls)" || bad "progress lines: $(cat "$tmp/stderr")"
[ "$(printf '%s\n' "$labels" | tail -1)" = "$(date +%F)" ] &&
	[ "$(printf '%s\n' "$labels" | head -1)" = "$(date -d '-3 days' +%F)" ] &&
	ok "day labels: the first 3 days ago, the last today" || bad "day labels: $labels"
if awk '{ s = substr($1, 1, 10); e = $2
	nd = ""; cmd = "date -d \"" s " + 1 day\" +%F"; cmd | getline nd; close(cmd)
	if (!(substr(e, 1, 10) == s || e == nd "T00:00:00")) exit 1 }' "$tmp/sacct-calls" &&
	[ "$(cut -c1-10 "$tmp/sacct-calls" | tr '\n' ' ')" = "$(printf '%s\n' "$labels" | tr '\n' ' ')" ]; then
	ok "each sacct call covers the one date of its label"
else
	bad "sacct periods: $(cat "$tmp/sacct-calls") labels $labels"
fi
grep -q 'fairshare half-life 01:00:00 (3600 s)' "$tmp/stderr" && ok "half-life from scontrol show config" ||
	bad "half-life: $(cat "$tmp/stderr")"
[ -s "$tmp/out/account-actual.csv" ] && [ -s "$tmp/out/user-actual.csv" ] &&
	ok "actual column: per-account and per-user tables" || bad "no actual tables"
# phys's campaign waited for bob's requeued job (data/cluster.sacct):
# what the site delivered is far from the replays
grep -q '^account,phys,1,4,10.82' "$tmp/out/account-actual.csv" &&
	ok "actual: phys's recorded stretch 10.82" || bad "actual: $(cat "$tmp/out/account-actual.csv")"
awk '$1 == "phys" && NF == 18 { exit !($15 > 10.8 && $15 < 10.9) } END { if (NR == 0) exit 1 }' \
	"$tmp/out/account.dat" && ok "account.dat: four policies, actual last" || bad "account.dat: $(cat "$tmp/out/account.dat")"
grep -qF 'largest changes of mean stretch, actual' "$tmp/stdout" && ok "printed: actual -> ostrich" ||
	bad "no actual -> ostrich list"
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
# installed: ostrich-whatif beside ostrich-sim, no OSTRICH_SIM, no source
# tree, no ostrich-sim on PATH, run from elsewhere
mkdir "$tmp/inst"
cp "$WHATIF" "$tmp/inst/ostrich-whatif"
cp "$SIM" "$tmp/inst/ostrich-sim"
if (cd / && PATH=/usr/bin:/bin "$tmp/inst/ostrich-whatif" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --out "$tmp/out4" > /dev/null 2>&1) &&
	cmp -s "$tmp/out4/account-ostrich.csv" "$DATA/cluster-ostrich-accounts.csv"; then
	ok "installed layout: ostrich-whatif runs the ostrich-sim beside it"
else
	bad "installed layout: ostrich-whatif did not find ostrich-sim beside it"
fi

# --shares: assoc runs sshare (a fake here, printing data/shares-skewed)
# and saves its output; FILE is read as given; both reach the simulator
printf '#!/bin/sh\nexec cat "%s/shares-skewed.sshare"\n' "$DATA" > "$tmp/bin/sshare"
chmod +x "$tmp/bin/sshare"
PATH=$tmp/bin:$PATH OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --shares assoc --out "$tmp/out5" > /dev/null 2> "$tmp/stderr5" &&
	cmp -s "$tmp/out5/sshare.txt" "$DATA/shares-skewed.sshare" &&
	grep -q 'association shares of sshare -a -P' "$tmp/stderr5" &&
	grep -q -- '--shares: .* not in' "$tmp/stderr5" &&
	ok "--shares assoc: sshare -a -P saved and given to the simulator" ||
	bad "--shares assoc: $(cat "$tmp/stderr5")"
PATH=/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/shares.sacct" \
	--procs 2 --half-life 3600 --shares "$DATA/shares-skewed.sshare" --out "$tmp/out6" \
	> /dev/null 2> "$tmp/stderr6" &&
	grep -q "association shares of $DATA/shares-skewed.sshare" "$tmp/stderr6" &&
	ok "--shares FILE" || bad "--shares FILE: $(cat "$tmp/stderr6")"
PATH=/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --shares "$tmp/none" --out "$tmp/out7" > /dev/null 2> "$tmp/stderr7"
[ $? = 1 ] && grep -q 'cannot read --shares' "$tmp/stderr7" && ok "--shares of no file: exit 1, said" ||
	bad "--shares of no file: $(cat "$tmp/stderr7")"

# --age-weight: site reads multifactor's weights and PriorityMaxAge from
# scontrol show config (a fake); a number is given as is
mkdir -p "$tmp/agebin"
cat > "$tmp/agebin/scontrol" <<'EOS'
#!/bin/sh
[ "$*" = "show config" ] || exit 1
printf 'PriorityType            = priority/multifactor\nPriorityWeightAge       = 50000\nPriorityWeightFairshare = 1000\nPriorityMaxAge          = 0-00:10:00\n'
EOS
chmod +x "$tmp/agebin/scontrol"
PATH=$tmp/agebin:$PATH OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --age-weight site --out "$tmp/out8" > /dev/null 2> "$tmp/stderr8" &&
	grep -q 'PriorityWeightAge 50000 / PriorityWeightFairshare 1000 = 50, PriorityMaxAge 0-00:10:00 (600 s)' "$tmp/stderr8" &&
	ok "--age-weight site: the weights and max age of scontrol show config" ||
	bad "--age-weight site: $(cat "$tmp/stderr8")"
PATH=/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --age-weight 50 --max-age 600 --out "$tmp/out9" > /dev/null 2> "$tmp/stderr9" &&
	cmp -s "$tmp/out8/user-fairshare.csv" "$tmp/out9/user-fairshare.csv" &&
	ok "--age-weight 50 --max-age 600: the same replay as site's" ||
	bad "--age-weight 50 --max-age 600: $(cat "$tmp/stderr9")"
# the simulator gets them (a wrapper keeps its arguments), for both
# replays (account, user); the hand-worked order is golden.cases'
# fairshare-age.swf
printf '#!/bin/sh\necho "$*" >> "%s/sim-args"\nexec "%s" "$@"\n' "$tmp" "$SIM" > "$tmp/simwrap"
chmod +x "$tmp/simwrap"
PATH=$tmp/agebin:$PATH OSTRICH_SIM=$tmp/simwrap bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --age-weight site --out "$tmp/out10" > /dev/null 2>&1 &&
	[ "$(grep -c -- '--age-weight 50 --max-age 600 ' "$tmp/sim-args")" = 2 ] &&
	ok "--age-weight site: both replays get --age-weight 50 --max-age 600" ||
	bad "--age-weight site: the simulator got $(cat "$tmp/sim-args")"
cat > "$tmp/agebin/scontrol" <<'EOS'
#!/bin/sh
[ "$*" = "show config" ] || exit 1
printf 'PriorityType            = priority/basic\nPriorityWeightAge       = 0\n'
EOS
PATH=$tmp/agebin:$PATH OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --age-weight site --out "$tmp/out11" > /dev/null 2> "$tmp/stderr11"
[ $? = 1 ] && grep -q 'PriorityType is priority/basic, not priority/multifactor' "$tmp/stderr11" &&
	ok "--age-weight site without multifactor: exit 1, said" ||
	bad "--age-weight site without multifactor: $(cat "$tmp/stderr11")"

# --conf: ostrich replayed as an ostrich.conf configures it (the settings
# line says so), the file kept beside the tables; a file the plugins would
# refuse stops the run before any replay, with their message
printf 'Gate=none Lead=cap\nOverdue=restart\n' > "$tmp/rule.conf"
PATH=/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --conf "$tmp/rule.conf" --out "$tmp/out12" \
	> "$tmp/stdout12" 2> "$tmp/stderr12" &&
	grep -q '^settings .*lead cap (kappa 1), overdue restart,.* gate none' "$tmp/stdout12" &&
	cmp -s "$tmp/rule.conf" "$tmp/out12/ostrich.conf" &&
	grep -q "whatif: ostrich as $tmp/rule.conf configures it" "$tmp/stderr12" &&
	ok "--conf: ostrich as the file configures it, the file kept" ||
	bad "--conf: $(cat "$tmp/stderr12")"
# a rerun may name the kept copy itself
PATH=/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" --sacct-file "$DATA/cluster.sacct" \
	--procs 16 --half-life 3600 --conf "$tmp/out12/ostrich.conf" --out "$tmp/out12" \
	> "$tmp/stdout12b" 2> "$tmp/stderr12b" &&
	cmp -s "$tmp/stdout12" "$tmp/stdout12b" &&
	ok "--conf of the kept copy, into the same directory: the same replay" ||
	bad "--conf of the kept copy: $(cat "$tmp/stderr12b")"
# a file the plugins refuse stops the run before sacct runs and before
# the output directory is made (sacct here only leaves a mark)
printf 'Gate=strict\n' > "$tmp/bad.conf"
mkdir "$tmp/markbin"
printf '#!/bin/sh\ntouch "%s/sacct-ran"\nexit 1\n' "$tmp" > "$tmp/markbin/sacct"
chmod +x "$tmp/markbin/sacct"
PATH=$tmp/markbin:/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" --days 1 --procs 16 \
	--half-life 3600 --conf "$tmp/bad.conf" --out "$tmp/out13" \
	> /dev/null 2> "$tmp/stderr13"
[ $? = 1 ] && grep -q "ostrich-sim: --conf: $tmp/bad.conf: Gate=strict: must be soft or none" "$tmp/stderr13" &&
	[ ! -e "$tmp/sacct-ran" ] && [ ! -e "$tmp/out13" ] &&
	ok "--conf of a file the plugins refuse: exit 1, their message, no dump, no directory" ||
	bad "--conf of a bad file: $(cat "$tmp/stderr13")"

# usage errors: an option without its value (the end of the line, or the
# next option), --days 0; and --help
usage_err() {
	rc=0
	PATH=/usr/bin:/bin OSTRICH_SIM=$SIM bash "$WHATIF" "$@" > "$tmp/u.out" 2> "$tmp/u.err" || rc=$?
	if [ $rc = 2 ] && grep -q -- '--days N' "$tmp/u.err" && grep -qF -- "$1" "$tmp/u.err" && [ ! -s "$tmp/u.out" ]; then
		ok "whatif $*: exit 2, usage on stderr"
	else
		bad "whatif $*: exit $rc: $(cat "$tmp/u.err")"
	fi
}
usage_err --days
usage_err --days --out "$tmp/x"
usage_err --days 0 --sacct-file "$DATA/cluster.sacct" --procs 16 --half-life 3600
usage_err --sacct-file
usage_err --shares
usage_err --conf
usage_err --bogus
usage_err --age-weight x --sacct-file "$DATA/cluster.sacct" --procs 16 --half-life 3600
usage_err --age-weight 1 --max-age 0 --sacct-file "$DATA/cluster.sacct" --procs 16 --half-life 3600
usage_err --max-age 60 --sacct-file "$DATA/cluster.sacct" --procs 16 --half-life 3600
[ ! -e "$tmp/x" ] || bad "--days --out: --out was taken as the days"
rc=0
bash "$WHATIF" --help > "$tmp/h.out" 2> "$tmp/h.err" || rc=$?
[ $rc = 0 ] && grep -q -- '--days N' "$tmp/h.out" && [ ! -s "$tmp/h.err" ] &&
	ok "--help: exit 0, usage on stdout" || bad "--help: exit $rc"
exit $fail
