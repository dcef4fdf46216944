/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_COCCI_H
#define KVERIFY_COCCI_H

#include "lib/strbuf.h"

#define COCCI_SMPL "cocci/emulated_counter_reprogram_tolerance.cocci"

/* The files the semantic patch reads and writes, tree-relative. */
extern const char *const cocci_inputs[];
extern const size_t nr_cocci_inputs;

/*
 * Run the semantic patch of @repo on copies of @tree's inputs under
 * @work/b (and pristine copies under @work/a when @keep_pristine), never on
 * @tree itself.  The outcome line goes to *@outcome; on failure, why, and
 * -1 (spatch ran and said no outcome, timed out, or @tree has no pmu.c) or
 * COCCI_CANNOT_RUN (spatch, its sandbox or its scratch directory is not to
 * be had here: the machine's fault).
 */
#define COCCI_CANNOT_RUN (-2)
int cocci_run(const char *repo, const char *tree, const char *work,
	      int keep_pristine, const char *log, unsigned int timeout,
	      char **outcome, struct strbuf *why);

#endif
