#!/usr/bin/env python3
# shake-swf.py - input shaking of an SWF trace (Tsafrir, Ouaknine and
# Feitelson, "Reducing performance evaluation sensitivity and variability
# by input shaking", MASCOTS 2007): one replay of a trace is one sample of
# a chaotic system, so a difference between two policies may be an
# artefact of a few near-ties.  Each job's submit time (field 2) moves by
# an independent uniform whole number of seconds in [-J, J], clamped at 0;
# everything else is kept (the wait of field 3 too, so the recorded start
# moves with it).  J = 0 writes the trace unchanged, field by field.
# Comments and the header pass through; a line that is not an SWF job line
# passes through too (the simulator counts it as it would have).
#
# usage: shake-swf.py SEED J TRACE[.gz] > OUT.swf
# SPDX-License-Identifier: GPL-2.0-or-later

import gzip
import random
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit('usage: shake-swf.py SEED J TRACE[.gz]')
    seed, jitter, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if jitter < 0:
        sys.exit('shake-swf.py: J must be >= 0')
    rng = random.Random(seed)
    opener = gzip.open if path.endswith('.gz') else open
    out = sys.stdout
    with opener(path, 'rt') as f:
        for line in f:
            fields = line.split()
            if not fields or line.lstrip().startswith(';') or len(fields) < 2:
                out.write(line)
                continue
            try:
                t = int(fields[1])
            except ValueError:
                out.write(line)
                continue
            d = rng.randint(-jitter, jitter)
            if t < 0 or jitter == 0:
                out.write(line)
                continue
            fields[1] = str(max(0, t + d))
            out.write(' '.join(fields) + '\n')


if __name__ == '__main__':
    main()
