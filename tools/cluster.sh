# cluster.sh - a real Slurm cluster on one machine, for the live tests and
# the demo: munged + slurmctld + NNODES slurmd on loopback, in a scratch
# directory, every daemon stopped by its PID.  Source it (bash), then:
#   cluster_init              scratch dir, users, ports, plugin copies
#   cluster_conf [extra]      write slurm.conf (+ extra lines)
#   cluster_user_bin PATH...  copy programs the test users run into the
#                             scratch directory, print the copies' paths
#   cluster_start             munged, (ACCT=1: mariadbd, slurmdbd,) slurmctld, slurmds
#   cluster_stop              stop what cluster_start started (EXIT trap)
#   as USER CMD...            run a Slurm client as a test user
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Inputs (environment): OST_PLUGIN_BUILD (directory holding sched_ostrich.so,
# priority_ostrich.so and libostrich_slurm.so, and site_factor_ostrich.so
# when built, e.g. plugins/.libs; empty:
# use the installed ones), WORK (default: a new /tmp/ostrich-cluster.XXXX),
# NNODES (8), CPUS_PER_NODE (4), CTLD_PORT (16817), NODE_PORT_BASE (17001),
# SCHED (sched/ostrich), PRIO (priority/basic), KEEP (1: leave it running),
# SLURM_PREFIX (empty: the Slurm installed on the system; else a Slurm
# install such as tools/build-slurm.sh makes, PREFIX_ROOT/X.Y.Z/prefix: its
# sbin/ daemons, bin/ clients and lib/slurm plugins are the ones run),
# CLUSTER_CTLD_ENV (VAR=VALUE words for slurmctld alone, e.g. a preload),
# GPUS_PER_NODE (0; N: gres.conf with N GPUs per node over empty files in
# WORK/dev, GresTypes=gpu, Gres=gpu:N), PART_EXTRA (more keys for the
# default partition's line, e.g. TRESBillingWeights=CPU=1.0,GRES/gpu=4.0),
# ACCT (0; 1: accounting: a MariaDB and a slurmdbd of the cluster's own,
# on loopback, AccountingStorageTRES=gres/gpu, every test user in account
# ACCT_ACCOUNT, "research"), DBD_PORT (CTLD_PORT+2), DB_PORT (CTLD_PORT+3).
# Every port is CTLD_PORT, DBD_PORT, DB_PORT or NODE_PORT_BASE..+NNODES-1
# (all on 127.0.0.1), and every file a
# cluster writes is in WORK, its own munged's socket too: clusters on other
# ports and in other WORK directories run side by side.
# Sets CLUSTER_SLURM_VERSION (e.g. 26.05.3) and CLUSTER_SLURM_SERIES (26.05)
# when sourced.

: "${NNODES:=8}" "${CPUS_PER_NODE:=4}" "${CTLD_PORT:=16817}" "${NODE_PORT_BASE:=17001}"
: "${SCHED:=sched/ostrich}" "${PRIO:=priority/basic}" "${KEEP:=0}"
: "${GPUS_PER_NODE:=0}" "${PART_EXTRA:=}" "${ACCT:=0}" "${ACCT_ACCOUNT:=research}"
: "${DBD_PORT:=$((CTLD_PORT + 2))}" "${DB_PORT:=$((CTLD_PORT + 3))}"
: "${TEST_USERS:=alice bob carol}"
CLUSTER_PIDFILES=()

cluster_die() { echo "cluster: error: $*" >&2; exit 1; }

PATH=$PATH:/usr/sbin:/sbin
if [ -n "${SLURM_PREFIX:-}" ]; then
	[ -x "$SLURM_PREFIX/sbin/slurmctld" ] && [ -x "$SLURM_PREFIX/bin/sbatch" ] ||
		cluster_die "SLURM_PREFIX=$SLURM_PREFIX holds no sbin/slurmctld and bin/sbatch"
	PATH=$SLURM_PREFIX/sbin:$SLURM_PREFIX/bin:$PATH
	STOCK_PLUGINDIR=$SLURM_PREFIX/lib/slurm
else
	MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
	STOCK_PLUGINDIR=/usr/lib/$MULTIARCH/slurm-wlm
fi
CLUSTER_SLURM_VERSION=$(slurmctld -V 2>/dev/null | awk '{print $2}')
CLUSTER_SLURM_SERIES=${CLUSTER_SLURM_VERSION%.*}

# The live tests read the order in which jobs start from slurmctld.log:
# "sched: Allocate JobId=" (main scheduler, info) and backfill's "Started
# JobId=".  26.05 logs the latter only under DebugFlags=HetJob, at verbose
# level.  Every other key of cluster_conf is the same for 22.05 to 26.05.
CLUSTER_DEBUG_FLAGS=Priority
CLUSTER_CTLD_DEBUG=info
case $CLUSTER_SLURM_SERIES in
22.05 | 24.11 | 25.11) ;;
*)	CLUSTER_DEBUG_FLAGS=Priority,HetJob
	CLUSTER_CTLD_DEBUG=verbose ;;
esac

# What clusters share on the machine (the test users, munge's key) is set
# up under one lock, on a free descriptor of bash's choosing (the daemons
# are started after it is closed).
_cluster_setup_lock() {
	exec {CLUSTER_SETUP_FD}>/tmp/ostrich-cluster-setup.lock
	flock -w 600 "$CLUSTER_SETUP_FD" ||
		cluster_die "another cluster held /tmp/ostrich-cluster-setup.lock for 10 minutes"
}
_cluster_setup_unlock() { exec {CLUSTER_SETUP_FD}>&-; }

cluster_init() {
	[ "$(id -u)" = 0 ] || cluster_die "must run as root"
	# what the test users read (slurm.conf, plugins, their programs) must
	# be readable by them whatever the caller's umask
	umask 022
	if [ -z "${WORK:-}" ]; then
		WORK=$(mktemp -d /tmp/ostrich-cluster.XXXXXX)
	fi
	mkdir -p "$WORK"/{state,spool,log,run,out,plugins,bin}
	chmod 755 "$WORK"
	chmod 1777 "$WORK/out"
	MUNGE_DIR=$WORK/munge
	MUNGE_SOCKET=$MUNGE_DIR/munge.socket
	# slurmdbd's MariaDB password (loopback only; slurmdbd.conf is 0600)
	CLUSTER_DB_PASS=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
	for i in $(seq "$NNODES"); do mkdir -p "$WORK/spool/n$i"; done
	export SLURM_CONF=$WORK/slurm.conf
	# one look-up for all of them, not one `id` each: a benchmark may
	# ask for a thousand users (useradd runs once per missing user only)
	# (under a machine-wide lock: two clusters starting side by side on
	# a fresh machine would both add the same users, and one would fail)
	local u
	_cluster_setup_lock
	for u in $(printf '%s\n' $TEST_USERS | LC_ALL=C sort -u |
		   LC_ALL=C comm -23 - <(getent passwd | cut -d: -f1 | LC_ALL=C sort -u)); do
		useradd -m -s /bin/bash "$u"
	done
	_cluster_setup_unlock
	PLUGIN_PATH=$STOCK_PLUGINDIR
	if [ -n "${OST_PLUGIN_BUILD:-}" ]; then
		cp "$OST_PLUGIN_BUILD"/sched_ostrich.so "$OST_PLUGIN_BUILD"/priority_ostrich.so \
		   "$OST_PLUGIN_BUILD"/libostrich_slurm.so "$WORK/plugins/"
		# site_factor/ostrich (s19), when this build has it
		[ ! -f "$OST_PLUGIN_BUILD"/site_factor_ostrich.so ] ||
			cp "$OST_PLUGIN_BUILD"/site_factor_ostrich.so "$WORK/plugins/"
		# the build's plugins first: an installed ostrich package's
		# copies in Slurm's directory must not shadow what is tested
		PLUGIN_PATH=$WORK/plugins:$STOCK_PLUGINDIR
	fi
	: > "$WORK/ostrich.conf"
}

# cluster_user_bin PATH...: copy each program into $WORK/bin and print the
# copies' paths, one a line.  A test user runs it through `as`, and so
# must be able to reach it: a build tree inside a private directory (a
# clone in root's home or in mktemp -d, mode 0700) is out of their reach.
# cluster_start checks that they can run every program in $WORK/bin.
cluster_user_bin() {
	local f
	for f in "$@"; do
		install -m 0755 "$f" "$WORK/bin/" || cluster_die "cannot copy $f to $WORK/bin"
		echo "$WORK/bin/$(basename "$f")"
	done
}

# cluster_check_user_access: the first test user can read slurm.conf and
# the plugin directories, run every Slurm client and every program in
# $WORK/bin, reach munged's socket, and write in $WORK/out (the jobs' work
# directory).  Each test user is an ordinary user with no group of ours,
# so what one can reach, all can.  One runuser for all the checks.
cluster_check_user_access() {
	local u c d args=() bad
	u=$(printf '%s\n' $TEST_USERS | head -1)
	args+=("r $SLURM_CONF" "x $MUNGE_DIR" "w $WORK/out")
	for d in ${PLUGIN_PATH//:/ }; do args+=("x $d"); done
	for c in sbatch squeue scontrol scancel sinfo sprio sacct sacctmgr; do
		c=$(command -v "$c" 2>/dev/null) && args+=("x $c")
	done
	for c in "$WORK"/bin/*; do [ -f "$c" ] && args+=("x $c"); done
	bad=$(runuser -u "$u" -- sh -c '
		for a; do
			m=${a%% *} p=${a#* }
			case $m in
			r) [ -r "$p" ] ;;
			x) [ -x "$p" ] ;;
			w) [ -w "$p" ] && [ -x "$p" ] ;;
			esac || echo "  $p (needs $m)"
		done' sh "${args[@]}") || cluster_die "runuser -u $u failed"
	[ -z "$bad" ] || cluster_die "test user $u cannot use:
$bad
every directory above each of these must be searchable by others (a tree
inside a private directory, mode 0700, is not: copy what the test users
run with cluster_user_bin)"
}

# cluster_conf [EXTRA_LINES]: slurm.conf for SCHED/PRIO.
cluster_conf() {
	# a key the caller sets (e.g. MinJobAge) replaces the default's line:
	# slurmctld and every slurmd would otherwise warn that it is set twice
	_cluster_conf_text "${1:-}" | awk -F= '
		{ line[NR] = $0; k = tolower($1) }
		NF > 1 && k !~ /^(nodename|partitionname)$/ { last[k] = NR }
		END { for (i = 1; i <= NR; i++) {
			k = tolower(substr(line[i], 1, index(line[i], "=") - 1))
			if (k in last && last[k] != i) continue
			print line[i] } }' > "$SLURM_CONF"
	_cluster_gres_conf
	[ "$ACCT" != 1 ] || _cluster_dbd_conf
}

# GPUs without devices: slurmd counts a GPU per File= that exists, and
# drains a node whose count falls short of its Gres= (which, without
# File=, it does).  Empty files in WORK/dev are enough.
_cluster_gres_conf() {
	rm -f "$WORK/gres.conf"
	[ "$GPUS_PER_NODE" = 0 ] && return 0
	local i
	mkdir -p "$WORK/dev"
	for i in $(seq 0 $((GPUS_PER_NODE - 1))); do : > "$WORK/dev/gpu$i"; done
	echo "Name=gpu File=$WORK/dev/gpu[0-$((GPUS_PER_NODE - 1))]" > "$WORK/gres.conf"
}

# slurmdbd reads slurmdbd.conf beside $SLURM_CONF and wants it private to
# SlurmUser (root here).  It reaches MariaDB over TCP on loopback: a client
# given "localhost" would take the system's socket path, not ours.
_cluster_dbd_conf() {
	( umask 077; cat > "$WORK/slurmdbd.conf" <<EOF
# generated by tools/cluster.sh
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$DBD_PORT
SlurmUser=root
PluginDir=$STOCK_PLUGINDIR
PidFile=$WORK/run/slurmdbd.pid
LogFile=$WORK/log/slurmdbd.log
DebugLevel=info
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=$CLUSTER_DB_PASS
StorageLoc=slurm_acct_db
EOF
	)
}
_cluster_conf_text() {
	cat <<EOF
# generated by tools/cluster.sh
ClusterName=ostrich
SlurmctldHost=localhost
SlurmUser=root
SlurmctldPort=$CTLD_PORT
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
MailProg=/bin/true
PluginDir=$PLUGIN_PATH
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool/%n
SlurmctldPidFile=$WORK/run/slurmctld.pid
SlurmdPidFile=$WORK/run/slurmd-%n.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd-%n.log
SlurmctldDebug=$CLUSTER_CTLD_DEBUG
SlurmdDebug=info
DebugFlags=$CLUSTER_DEBUG_FLAGS
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=$SCHED
SchedulerParameters=bf_interval=1,sched_min_interval=100000
PriorityType=$PRIO
ReturnToService=2
SlurmdParameters=config_overrides
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MinJobAge=600
$(_cluster_conf_acct)
${1:-}
NodeName=n[1-$NNODES] NodeHostName=localhost NodeAddr=127.0.0.1 Port=[$NODE_PORT_BASE-$((NODE_PORT_BASE+NNODES-1))] CPUs=$CPUS_PER_NODE RealMemory=1000 $([ "$GPUS_PER_NODE" = 0 ] || echo "Gres=gpu:$GPUS_PER_NODE ")State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP${PART_EXTRA:+ $PART_EXTRA}
EOF
}
# the lines of GPUS_PER_NODE and ACCT (none without them).  A connection
# to slurmdbd authenticates with AccountingStoragePass's munge socket, not
# AuthInfo's: without it, the system's munged (or none).
_cluster_conf_acct() {
	[ "$GPUS_PER_NODE" = 0 ] || echo "GresTypes=gpu"
	[ "$ACCT" = 1 ] || return 0
	cat <<EOF
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$DBD_PORT
AccountingStorageTRES=gres/gpu
AccountingStoragePass=socket=$MUNGE_SOCKET
EOF
}

# cluster_munge: this cluster's own munged, on a socket in $WORK/munge
# (slurm.conf's AuthInfo names it): never the system's nor another
# cluster's, which could be stopped under us.  Idempotent.
cluster_munge() {
	# (the key is the machine's: one cluster at a time creates it)
	_cluster_setup_lock
	[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
	chown munge:munge /etc/munge/munge.key
	chmod 0400 /etc/munge/munge.key
	_cluster_setup_unlock
	_munge_ok() { munge -S "$MUNGE_SOCKET" -n 2>/dev/null |
		unmunge -S "$MUNGE_SOCKET" 2>/dev/null | grep -q 'STATUS: *Success'; }
	local pid i
	pid=$(cat "$MUNGE_DIR/munged.pid" 2>/dev/null || true)
	[ -n "$pid" ] && pid_alive "$pid" && _munge_ok && return 0
	# munged refuses a socket directory that others may write in
	install -d -o munge -g munge -m 0755 "$MUNGE_DIR"
	# 9>&-: the daemons must not inherit the live tests' lock
	# (tests/live/live-lib.sh holds it on fd 9): a daemon left running
	# would hold it for ever
	runuser -u munge -- /usr/sbin/munged --socket="$MUNGE_SOCKET" \
		--pid-file="$MUNGE_DIR/munged.pid" --log-file="$MUNGE_DIR/munged.log" \
		--seed-file="$MUNGE_DIR/munged.seed" 9>&- ||
		{ tail -5 "$MUNGE_DIR/munged.log" >&2; cluster_die "munged did not start"; }
	for i in $(seq 300); do _munge_ok && return 0; sleep 0.1; done
	cluster_die "munge round trip failed on $MUNGE_SOCKET"
}

# cluster_mariadb: a MariaDB of this cluster's own in $WORK/db (owned by
# mysql: data, socket, pid file and log), listening on 127.0.0.1:DB_PORT
# alone, no option file read; a user "slurm" for slurmdbd.  Returns once
# it answers (120 s at most).
cluster_mariadb() {
	local db=$WORK/db i pid
	install -d -o mysql -g mysql -m 0750 "$db" "$db/tmp"
	# a tmpdir of its own: a mariadbd starting removes every "#sql*" file
	# in its tmpdir, and with clusters side by side that was another
	# cluster's bootstrap's temporary table in /tmp ("Unknown table
	# 'mysql.tmp_user_sys'", mariadb-install-db failed)
	if [ ! -d "$db/data/mysql" ]; then
		mariadb-install-db --no-defaults --user=mysql --datadir="$db/data" \
			--tmpdir="$db/tmp" \
			--auth-root-authentication-method=socket --skip-test-db \
			> "$WORK/log/mariadb-install-db.log" 2>&1 ||
			{ tail -20 "$WORK/log/mariadb-install-db.log" >&2; cluster_die "mariadb-install-db failed"; }
	fi
	# small buffers: a handful of jobs; no sync to disk: a scratch
	# database, and slurmdbd's first start creates ~60 tables, each synced
	# (minutes on a loaded disk); 9>&- and no inherited stdout: it must
	# not hold the live tests' lock nor make's pipe
	mariadbd --no-defaults --user=mysql --datadir="$db/data" \
		--tmpdir="$db/tmp" \
		--socket="$db/mysqld.sock" --pid-file="$db/mysqld.pid" \
		--log-error="$db/mysqld.log" --port="$DB_PORT" \
		--bind-address=127.0.0.1 --skip-name-resolve \
		--innodb-buffer-pool-size=32M --innodb-log-file-size=16M \
		--innodb-lock-wait-timeout=900 --max-allowed-packet=16M \
		--innodb-flush-method=nosync --innodb-doublewrite=0 \
		--innodb-flush-log-at-trx-commit=0 \
		< /dev/null > /dev/null 2>&1 9>&- &
	pid=$!	# mariadbd itself (a simple command: bash execs it)
	echo "$pid" > "$WORK/run/mariadbd.pid"
	for i in $(seq 600); do
		mariadb-admin --no-defaults --socket="$db/mysqld.sock" -u root \
			ping > /dev/null 2>&1 && break
		pid_alive "$pid" ||
			{ tail -20 "$db/mysqld.log" >&2; cluster_die "mariadbd died"; }
		sleep 0.2
	done
	mariadb --no-defaults --socket="$db/mysqld.sock" -u root <<EOF ||
CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY '$CLUSTER_DB_PASS';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
EOF
		{ tail -20 "$db/mysqld.log" >&2; cluster_die "MariaDB does not answer on $db/mysqld.sock"; }
}

# cluster_slurmdbd: start slurmdbd (it daemonizes), wait until it answers,
# then add the cluster, ACCT_ACCOUNT and every test user to it.
cluster_slurmdbd() {
	local pid u
	pid=$(cat "$WORK/run/slurmdbd.pid" 2>/dev/null || true)
	if [ -z "$pid" ] || ! pid_alive "$pid"; then
		rm -f "$WORK/run/slurmdbd.pid"
		slurmdbd 9>&- || cluster_die "slurmdbd did not start"
	fi
	# the first start creates the tables: seconds, more on a loaded machine
	for _ in $(seq 900); do
		sacctmgr -n -P show cluster format=cluster > /dev/null 2>&1 && break
		pid=$(cat "$WORK/run/slurmdbd.pid" 2>/dev/null || true)
		if [ -n "$pid" ] && ! pid_alive "$pid"; then
			tail -20 "$WORK/log/slurmdbd.log" >&2; cluster_die "slurmdbd died"
		fi
		sleep 0.2
	done
	sacctmgr -n -P show cluster format=cluster > /dev/null 2>&1 ||
		{ tail -20 "$WORK/log/slurmdbd.log" >&2; cluster_die "slurmdbd does not answer on port $DBD_PORT"; }
	if [ -z "$(sacctmgr -n -P show cluster ostrich format=cluster)" ]; then
		sacctmgr -i add cluster ostrich > /dev/null || cluster_die "sacctmgr add cluster failed"
		sacctmgr -i add account "$ACCT_ACCOUNT" cluster=ostrich > /dev/null ||
			cluster_die "sacctmgr add account failed"
		# shellcheck disable=SC2086
		sacctmgr -i add user "$(printf '%s\n' $TEST_USERS | LC_ALL=C sort -u | paste -sd,)" \
			account="$ACCT_ACCOUNT" cluster=ostrich > /dev/null ||
			cluster_die "sacctmgr add user failed"
	fi
}

# pid_alive PID: the process exists and is not a zombie.  A daemon is
# adopted by whoever reaps orphans here: PID 1, or a CI runner that is a
# child subreaper and may reap late.  Killed but not yet reaped, it still
# answers kill -0, yet it is gone: it holds no port, no file, no lock.
pid_alive() {
	local st
	st=$(sed -n 's/^.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# Start slurmctld (daemonizes); returns once it answers (120 s at most), or
# fails as soon as the daemon it started is gone.  A pid file left by a
# daemon that died before (e.g. slurmctld -D refusing a bad config) is
# removed first, so that it is never taken for the new one's.
ctld_start() {
	local pid
	pid=$(cat "$WORK/run/slurmctld.pid" 2>/dev/null || true)
	if [ -n "$pid" ] && ! pid_alive "$pid"; then
		rm -f "$WORK/run/slurmctld.pid"
	fi
	# CLUSTER_CTLD_ENV: more VAR=VALUE words for slurmctld alone (the
	# bench's malloc probe); unquoted on purpose, no spaces in values
	# shellcheck disable=SC2086
	env ${CLUSTER_CTLD_ENV:-} \
		LD_LIBRARY_PATH=$WORK/plugins${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		slurmctld -f "$SLURM_CONF" 9>&- || return 1
	for _ in $(seq 600); do
		scontrol ping >/dev/null 2>&1 && return 0
		pid=$(cat "$WORK/run/slurmctld.pid" 2>/dev/null || true)
		if [ -n "$pid" ] && ! pid_alive "$pid"; then return 1; fi
		sleep 0.2
	done
	return 1
}

# The PIDs of the slurmctld processes started with this cluster's
# slurm.conf (their command line is "slurmctld -f $SLURM_CONF", a path
# of our scratch directory, so no other cluster's match).  Since 23.11,
# `scontrol reconfigure` makes slurmctld start a new process that takes
# over and writes the pid file a moment later; the old one exits.
_ctld_pids() {
	local d cmd
	[ -n "${SLURM_CONF:-}" ] || return 0	# no cluster set up yet
	for d in /proc/[0-9]*; do
		# (2> first: a process gone meanwhile is no error to print)
		cmd=$(tr '\0' ' ' 2>/dev/null < "$d/cmdline") || continue
		case $cmd in
		"slurmctld -f $SLURM_CONF "* | */"slurmctld -f $SLURM_CONF "*)
			echo "${d#/proc/}" ;;
		esac
	done
}

# Stop slurmctld by PID (SIGTERM, or the signal given, e.g. KILL): the
# one of the pid file, then any other process of this cluster's
# slurmctld (a reconfigure's new process not yet in the pid file).
ctld_stop() {
	local sig=${1:-TERM} pid
	for pid in $(cat "$WORK/run/slurmctld.pid" 2>/dev/null || true) $(_ctld_pids); do
		pid_alive "$pid" || continue
		kill -s "$sig" "$pid" 2>/dev/null || true
		for _ in $(seq 100); do pid_alive "$pid" || break; sleep 0.1; done
		pid_alive "$pid" && kill -9 "$pid"
	done
	rm -f "$WORK/run/slurmctld.pid"
}

nodes_wait_idle() {
	for _ in $(seq 600); do
		[ "$(sinfo -h -N -o '%N %t' 2>/dev/null | sort -u | grep -c ' idle$')" = "$NNODES" ] && return 0
		sleep 0.2
	done
	sinfo -N >&2
	return 1
}

# Every port this cluster listens on is free: a daemon left on one (a
# cluster whose scratch directory, and so its pid files, another removed)
# would answer in our daemons' place, and our slurmd would exit at once
# ("Address already in use"), its node never up or its jobs stuck.
cluster_check_ports() {
	local p busy=
	for p in "$CTLD_PORT" $(seq "$NODE_PORT_BASE" $((NODE_PORT_BASE + NNODES - 1))) \
		 $([ "$ACCT" != 1 ] || echo "$DBD_PORT $DB_PORT"); do
		[ -z "$(ss -Htln "sport = :$p" 2>/dev/null)" ] || busy+=" $p"
	done
	[ -z "$busy" ] && return 0
	busy=${busy# }
	cluster_die "port(s) $busy already in use: another cluster on these ports? (CTLD_PORT, NODE_PORT_BASE move this one)
$(ss -Htlnp 2>/dev/null | grep -E ":(${busy// /|}) " | head -12)"
}

cluster_start() {
	cluster_check_ports
	cluster_munge
	cluster_check_user_access
	if [ "$ACCT" = 1 ]; then
		cluster_mariadb
		cluster_slurmdbd
	fi
	ctld_start || { tail -20 "$WORK/log/slurmctld.log" >&2; cluster_die "slurmctld did not start"; }
	for i in $(seq "$NNODES"); do
		slurmd -f "$SLURM_CONF" -N "n$i" 9>&- || cluster_die "slurmd n$i did not start"
	done
	nodes_wait_idle || cluster_die "nodes did not become idle"
}

_stop_pids() {
	local f pid pids=()
	for f in "$@"; do
		[ -s "$f" ] || continue
		pid=$(cat "$f")
		pid_alive "$pid" && { kill "$pid" 2>/dev/null || true; pids+=("$pid"); }
	done
	for _ in $(seq 100); do
		local alive=0
		for pid in "${pids[@]}"; do pid_alive "$pid" && alive=1; done
		[ $alive = 0 ] && break
		sleep 0.2
	done
	for pid in "${pids[@]}"; do pid_alive "$pid" && kill -9 "$pid" 2>/dev/null; done
	rm -f "$@"
}

# Cancel every job and wait for their steps to end: a slurmstepd outlives
# its slurmd and would report its job's end to the next cluster's slurmctld.
cluster_cancel_all() {
	local ids
	ids=$(squeue -h -o %i 2>/dev/null) || return 0
	[ -n "$ids" ] || return 0
	scancel $ids 2>/dev/null || true
	for _ in $(seq 100); do
		[ -z "$(squeue -h -o %i 2>/dev/null)" ] && return 0
		sleep 0.2
	done
}

cluster_stop() {
	[ -n "${WORK:-}" ] || return 0
	cluster_cancel_all
	ctld_stop TERM
	_stop_pids "$WORK"/run/slurmd-*.pid
	_stop_pids "$WORK/run/slurmdbd.pid"	# then what it writes to
	_stop_pids "$WORK/run/mariadbd.pid"
	_stop_pids "$WORK/munge/munged.pid"	# last: the others use it
	return 0
}

# as USER CMD...: a Slurm client command as a test user (CMD found in our
# PATH, which runuser may reset, so that SLURM_PREFIX's clients are run).
# Exit 126 (env found the program but may not run it) says so plainly.
as() {
	local u=$1 c rc=0
	shift
	c=$(command -v "$1" 2>/dev/null) || c=$1
	shift
	runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" "$c" "$@" || rc=$?
	[ $rc = 126 ] && echo "cluster: $u may not run $c: copy it with cluster_user_bin" >&2
	return $rc
}

# sub USER [sbatch options...]: submit a batch job, print its id.
sub() {
	local u=$1
	shift
	as "$u" sbatch --parsable -D "$WORK/out" -o /dev/null "$@"
}
