# ci.sh - sourced by the experiment scripts: ci_awk, the awk function
# ci(s, s2, n), the half-width of the 95% confidence interval of a mean
# of n samples with sum s and sum of squares s2: t x sd / sqrt(n), with
# Student's t quantile t_{0.975, nu}, nu = n - 1, from its Cornish-Fisher
# expansion around z = 1.959964 to third order in 1/nu,
#
#   t = z + (z^3 + z) / (4 nu) + (5 z^5 + 16 z^3 + 3 z) / (96 nu^2)
#         + (3 z^7 + 19 z^5 + 17 z^3 - 15 z) / (384 nu^3)
#
# (2.3723, 2.8224 and 2.5558 the numerators), within 0.7% of the exact
# quantile from nu = 3 and 0.01% from nu = 10 (19: 2.0931 for 2.0930).
# ci_t holds the four coefficients; bench/shake-table.py takes them as
# its argument, so every script has one interval.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh

# shellcheck disable=SC2034	# used by the scripts that source it
ci_t='1.959964 2.3723 2.8224 2.5558'
# shellcheck disable=SC2034
ci_awk='function ci(s, s2, n,   m, v, nu, t, k) { m = s / n; nu = n - 1
	v = nu > 0 ? (s2 - n * m * m) / nu : 0; if (v < 0) v = 0
	if (nu < 1) nu = 1
	split("'"$ci_t"'", k, " ")
	t = k[1] + k[2] / nu + k[3] / (nu * nu) + k[4] / (nu * nu * nu)
	return t * sqrt(v / n) }'
