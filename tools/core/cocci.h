/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_COCCI_H
#define KVERIFY_COCCI_H

#include "lib/strbuf.h"

#define COCCI_SMPL "cocci/emulated_counter_reprogram_tolerance.cocci"

/* The files the semantic patch reads and writes, tree-relative. */
extern const char *const cocci_inputs[];
extern const size_t nr_cocci_inputs;

#define COCCI_CANNOT_RUN (-2)

/**
 * cocci_run() - The semantic patch on copies of a tree's inputs.
 * @repo: The repository whose COCCI_SMPL runs.
 * @tree: The tree, never written: its inputs are copied under @work/b.
 * @work: The scratch directory.
 * @keep_pristine: Also copy the inputs, unchanged, under @work/a.
 * @log: Where spatch's output goes.
 * @timeout: Seconds.
 * @outcome: The outcome line the semantic patch printed, allocated.
 * @why: On failure, why.
 *
 * Return: 0; -1: spatch ran and said no outcome, timed out, or @tree has
 * no pmu.c; COCCI_CANNOT_RUN: spatch, its sandbox or its scratch
 * directory is not to be had here, the machine's fault.
 */
int cocci_run(const char *repo, const char *tree, const char *work,
	      int keep_pristine, const char *log, unsigned int timeout,
	      char **outcome, struct strbuf *why);

#endif
