/* SPDX-License-Identifier: GPL-2.0 */
/* One tree's vCPU under a trace, as the harness and the simulated PMU see it. */
#ifndef SIM_WORLD_H
#define SIM_WORLD_H

#include <stdint.h>
#include <stddef.h>

#include "sim.h"

#define SIM_MAX_EVENTS 64
#define SIM_MAX_CTR 64

struct perf_event;

struct world {
	const struct sim_tree *t;
	void *vcpu;
	int logging;
	char *log;
	size_t log_len, log_alloc;
	unsigned long nr_req_pmu, nr_req_pmi, nr_perf_calls, nr_pause;
	unsigned long nr_read;		/* perf_event_read_value() calls */
	/* per counter: GLOBAL_STATUS bits set, PMIs requested */
	unsigned long nr_sig[SIM_MAX_CTR], nr_pmi[SIM_MAX_CTR];
	unsigned long nr_pmi_other;	/* PMIs with no counter's bit set */
	int last_sig;			/* the counter signalled last, or -1 */
	/*
	 * Where a signal comes from (check.c, iv's fixes-only rule): perf's
	 * overflow handler (kvm_perf_overflow()), while in_overflow; or KVM
	 * folding a counter's emulated events, while its bit is in fold_window:
	 * the emulated instruction's own call into the tree and the first
	 * drain of requests after it (emul_unfolded: the counters that counted
	 * an emulated instruction since).  Per counter, signal n's bit n % 64
	 * in the *_perf and *_fold rings says which.
	 */
	int in_overflow;
	uint64_t emul_unfolded, fold_window;
	uint64_t sig_perf[SIM_MAX_CTR], pmi_perf[SIM_MAX_CTR], pmi_other_perf;
	uint64_t sig_fold[SIM_MAX_CTR], pmi_fold[SIM_MAX_CTR], pmi_other_fold;
	unsigned long pmi_seq, lapic_seq; /* PMIs requested, at the LAPIC */
	unsigned long nr_lapic;		/* PMIs delivered into the LAPIC */
	const void *status_addr;
	int next_event_id;
	const char *warned;
	char last[256];
	unsigned long repeat;
	struct perf_event *events[SIM_MAX_EVENTS];
	/*
	 * The host's minimum sample period (0: none), as x86's limit_period
	 * gives it; the counters perf refused an event for since their last
	 * event, by overflow handler context (the tree's kvm_pmc).
	 */
	uint64_t min_period;
	unsigned long nr_refused;	/* creations and re-periods refused */
	const void *refused_ctx[SIM_MAX_EVENTS];
	/* the events perf made since the harness last looked, by context */
	const void *created_ctx[SIM_MAX_EVENTS];
	int nr_created;
};

extern struct world *sim_cur;

#ifndef __printf
#define __printf(a, b) __attribute__(( \
	__format__(__printf__, a, b)))
#endif

__printf(1, 2) void sim_log(const char *fmt, ...);
void sim_log_flush(void);
void sim_native(struct world *w, uint64_t code, uint64_t n);
void sim_refused_clear(struct world *w);

#endif
