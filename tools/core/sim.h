/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SIM_H
#define KVERIFY_SIM_H

#include <stdint.h>

#include "lib/options.h"
#include "lib/strbuf.h"

/* The cache's store of objects that do not change between runs. */
#define SIM_OBJECTS "sim-objects"

/* Traces per run: the step's and kverify sim's default. */
#define SIM_TRACES 20000

/* How a tree counts emulated instructions (docs/sim.md). */
enum sim_era {
	SIM_ERA_NONE,		/* before 5.19: nothing to simulate */
	SIM_ERA_SYNC,		/* 5.19-6.1: reprogram_counter() right away */
	SIM_ERA_PREV,		/* 6.2-6.7: pmc->prev_counter */
	SIM_ERA_EMULATED,	/* 6.8-6.x: pmc->emulated_counter */
	SIM_ERA_MEDIATED,	/* 7.x: the same, beside the mediated PMU */
};

struct sim_opts {
	const char *pristine, *patched;
	const char *baseline;	/* pristine + the Fixes: patches, or NULL */
	const char *work;	/* generated files and the program */
	const char *objects;	/* kept objects (SIM_OBJECTS), or NULL */
	const char *log;	/* tool output appended here, or NULL */
	unsigned long long seed;
	long traces;
	long tolerance;		/* -1: all of them */
	long min_period;	/* perf's limit_period; -1: per trace */
	const char *vendor;	/* NULL: both */
	const char *without;	/* op types not to generate, or NULL */
	const char *trace;	/* replay this trace file, or NULL */
	double shrink_seconds;
	double max_seconds;	/* stop starting traces after this; 0: none */
	double total_seconds;	/* the same, counting the compilations too */
	unsigned int timeout;
	int debug;		/* name what each unit brings along */
	int coverage;		/* gcov the units: the tree's functions reached */
	int fixes_only;		/* patched: pristine + fixes, no parameter */
};

struct sim_result {
	int passed;		/* 1 pass, 0 counterexample, -1 error */
	int cannot_run;		/* the error: gcc or the sandbox is not here */
	int bad_input;		/* the error: a tree, the baseline or the trace */
	enum sim_era era;
	long traces;		/* run, all passed */
	double seconds;
	struct strbuf reason;	/* one line */
	struct strbuf output;	/* the harness's stdout */
	struct strbuf figures;	/* reprograms: "T=0:1000000 T=1:500000 ..." */
	struct strbuf reads;	/* perf reads, the same way */
	struct strbuf coverage;	/* --coverage: the table, or empty */
};

#define SIM_RESULT_INIT \
	{ .reason = STRBUF_INIT, .output = STRBUF_INIT, .figures = STRBUF_INIT, \
	  .reads = STRBUF_INIT, .coverage = STRBUF_INIT }

/**
 * sim_era_name() - An era by the name docs/sim.md gives it.
 * @era: The era.
 *
 * Return: "none", "sync", "prev_counter", "emulated_counter" or
 * "mediated".
 */
const char *sim_era_name(enum sim_era era);

/**
 * sim_detect_era() - How a tree counts emulated instructions.
 * @tree: The tree, read from its own arch/x86/kvm/.
 * @why: Why it is SIM_ERA_NONE: not a tree with KVM's PMU, or no
 *	per-instruction accounting.
 *
 * Return: the tree's era.
 */
enum sim_era sim_detect_era(const char *tree, struct strbuf *why);

/**
 * sim_generate() - A tree's unit: its vPMU code between our headers.
 * @tree: The tree.
 * @era: Its era.
 * @unit: The unit's name, for --debug's notes.
 * @src: Our sim sources (sim_source_dir()).
 * @debug: Name what each definition brings along, on stderr.
 * @out: The unit: our kernel.h, the tree's macros and types, our vcpu.h
 *	and x86_run.h, the tree's variables and functions (prototypes
 *	first), then our glue.c.
 * @err: Why not.
 *
 * Return: 0; -1 when a file cannot be read; -2 when a definition the sim
 * runs is missing from the tree (bad input: a tree the sim does not know).
 */
int sim_generate(const char *tree, enum sim_era era, const char *unit,
		 const char *src, int debug, struct strbuf *out,
		 struct strbuf *err);

/**
 * sim_source_dir() - Our sim sources, tools/sim beside the kverify binary.
 *
 * Return: the kverify binary's ../tools/sim, else ./tools/sim, as an
 * absolute path to be freed.
 */
char *sim_source_dir(void);

/**
 * sim_hash_toolchain() - What a kept object of the sim depends on.
 * @h: Our sim sources (by name and bytes) and gcc, cc1, as and ld are
 *	hashed into it.
 *
 * Return: 0, or -1 when a tool cannot be found or read.
 */
int sim_hash_toolchain(uint64_t *h);

/**
 * sim_run() - Build the trees' units and the harness, then run it.
 * @o: The trees, the traces and where the work goes.
 * @r: The verdict: passed, the reason, the harness's output and figures.
 *
 * Return: 0 when the harness gave its verdict (@r->passed), -1 when it
 * could not (@r->cannot_run: the machine; @r->bad_input: a tree, the
 * baseline or the trace; else the patched code did not build or run).
 */
int sim_run(const struct sim_opts *o, struct sim_result *r);

/**
 * sim_result_clear() - Free a result's buffers.
 * @r: The result, SIM_RESULT_INIT again after.
 */
void sim_result_clear(struct sim_result *r);

/* The tree's files the sim reads; "?" marks one a tree may lack. */
extern const char *const sim_files[];
extern const size_t nr_sim_files;

#endif
