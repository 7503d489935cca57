/*****************************************************************************\
 *  check_sim_charge.c - the simulator's charging units (sim/charge.c,
 *  §20): widths, their rounding, capacities, the weights' syntax.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "ck_run.h"
#include "charge.h"

/* cpu mode, and a zeroed sim_charge_t, charge q whatever the GPUs. */
START_TEST(test_cpu)
{
	sim_charge_t z = { 0 }, c;
	uint32_t cap;

	sim_charge_init(&c);
	c.mode = OST_CHARGE_CPU;
	ck_assert_uint_eq(sim_charge_width(&z, 64, 16, 3, 8), 3);
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 3, 8), 3);
	ck_assert_double_eq(sim_charge_raw(&c, 64, 16, 3, 8), 3);
	ck_assert_int_eq(sim_charge_capacity(&c, 64, 16, &cap), 0);
	ck_assert_uint_eq(cap, 64);
}
END_TEST

/* billing: Slurm's sum (or MAX_TRES max), truncated, at least 1; the
 * default weights give q; the capacity is the machine's sum. */
START_TEST(test_billing)
{
	sim_charge_t c;
	uint32_t cap;

	sim_charge_init(&c);
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 5, 2), 5);
	ck_assert_int_eq(sim_charge_weights_parse("CPU=1,GRES/gpu=8", &c), 0);
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 1, 4), 33);
	ck_assert_int_eq(sim_charge_capacity(&c, 64, 16, &cap), 0);
	ck_assert_uint_eq(cap, 192);
	ck_assert_int_eq(sim_charge_weights_parse("cpu=0.5,gres/GPU=2.6", &c),
			 0);
	ck_assert_double_eq_tol(sim_charge_raw(&c, 64, 16, 1, 2), 5.7, 1e-12);
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 1, 2), 5);
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 1, 0), 1);  /* 0.5 */
	c.max_tres = true;
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 1, 2), 5);  /* 5.2 */
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 16, 1), 8);
	ck_assert_int_eq(sim_charge_capacity(&c, 64, 16, &cap), 0);
	ck_assert_uint_eq(cap, 73);             /* summed: 32 + 41.6 */
	/* GRES alone: CPUs weigh 0, as in Slurm */
	ck_assert_int_eq(sim_charge_weights_parse("GRES/gpu=4", &c), 0);
	ck_assert_double_eq(c.w_cpu, 0);
	ck_assert_int_eq(sim_charge_weights_parse("CPU=3e9", &c), 0);
	ck_assert_int_eq(sim_charge_capacity(&c, 2, 0, &cap), -1);
	for (const char **b = (const char *[]) { "", ",", "CPU", "CPU=",
		"CPU=-1", "CPU=nan", "GPU=1", "Mem=1G", "CPU=1,x=2",
		"CPU=0", NULL }; *b; b++)
		ck_assert_msg(sim_charge_weights_parse(*b, &c) == -1,
			      "'%s' accepted", *b);
	ck_assert_double_eq(c.w_cpu, 3e9);      /* unchanged on error */
}
END_TEST

/* dominant: m x the largest share, rounded up exactly: a job holding
 * every GPU is charged m, not m + 1 from a rounding error. */
START_TEST(test_dominant)
{
	sim_charge_t c;
	uint32_t cap;

	sim_charge_init(&c);
	ck_assert_int_eq(ost_charge_parse("Dominant", &c.mode), 0);
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 2, 1), 4);
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 9, 2), 9);
	ck_assert_uint_eq(sim_charge_width(&c, 64, 16, 1, 16), 64);
	ck_assert_uint_eq(sim_charge_width(&c, 10, 3, 1, 1), 4);   /* 3.33 */
	ck_assert_double_eq_tol(sim_charge_raw(&c, 10, 3, 1, 1), 10.0 / 3,
				1e-12);
	ck_assert_uint_eq(sim_charge_width(&c, 7, 0, 3, 0), 3);
	ck_assert_uint_eq(sim_charge_width(&c, 4294967295u, 3, 1, 3),
			  4294967295u);
	ck_assert_int_eq(sim_charge_capacity(&c, 64, 16, &cap), 0);
	ck_assert_uint_eq(cap, 64);
	ck_assert_int_eq(ost_charge_parse("drf", &c.mode), -1);
	ck_assert_str_eq(ost_charge_name(OST_CHARGE_DOMINANT),
			 "dominant");
}
END_TEST

int main(void)
{
	const TTest *tests[] = { test_cpu, test_billing, test_dominant };
	Suite *s = suite_create("charge");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return ost_check_run(s);
}
