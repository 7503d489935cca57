# traces.sh - sourced by the experiment scripts: the three public traces of
# doc/results.md and the m of each (from their headers).
# SPDX-License-Identifier: GPL-2.0-or-later

TRACE_SPECS="KTH-SP2-1996-2.1-cln:KTH-SP2:100 HPC2N-2002-2.1-cln:HPC2N:240
SDSC-BLUE-2000-4.2-cln:SDSC-BLUE:1152"

# trace_spec SPEC: sets file, name, m and trace ($TRACES/file.swf.gz).
trace_spec() {
	file=${1%%:*} rest=${1#*:}
	name=${rest%%:*} m=${rest#*:}
	trace=$TRACES/$file.swf.gz
}
