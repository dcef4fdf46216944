/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SIM_INT_H
#define KVERIFY_SIM_INT_H

/* What sim.c and its --coverage (sim_cov.c) share: not for other files. */
#include "core/sim.h"

/**
 * forget_coverage() - Drop the counts of an earlier --coverage run.
 * @o: The run's options: the trees' units' .gcda files in @o->work go.
 */
void forget_coverage(const struct sim_opts *o);

/**
 * coverage_table() - The tree's vPMU functions reached, pristine and patched.
 * @o: The run's options: the units compiled with --coverage and run in
 *	@o->work.
 * @r: The run's result: @r->coverage gets a "COVERAGE" line a function,
 *	from gcov -b, also written to @o->work/coverage.txt.
 */
void coverage_table(const struct sim_opts *o, struct sim_result *r);

#endif
