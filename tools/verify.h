/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_VERIFY_H
#define KVERIFY_VERIFY_H

/* The pipeline engine: the steps of a target, in order, and the reports. */
#include "lib/options.h"
#include "sources/targets.h"

int verify_target(const struct target *t, const struct options *opt);
/* The steps' names, in order; -1 for a name that is none. */
extern const int nr_verify_steps;
const char *verify_step_name(int i);
int verify_step_index(const char *name);
int verify_step_source_only(int i);

#endif
