// SPDX-License-Identifier: GPL-2.0
/*
 * The run the harness has current (sim_cur) and what the tree's code
 * reports into it through sim.h: its requests, the GLOBAL_STATUS bits it
 * sets, its PMIs into the LAPIC, its warnings, and the log of every call
 * for the differential check.  The stub kernel's kvm_make_request(),
 * set_bit() and WARN_ON_ONCE() (kernel.h) and the simulated perf
 * (perf.c) call it; it knows neither.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world.h"

struct world *sim_cur;

static void log_add(struct world *w, const char *s, size_t n)
{
	if (w->log_len + n + 1 > w->log_alloc) {
		while (w->log_len + n + 1 > w->log_alloc)
			w->log_alloc = w->log_alloc ? 2 * w->log_alloc : 4096;
		w->log = realloc(w->log, w->log_alloc);
	}
	memcpy(w->log + w->log_len, s, n);
	w->log_len += n;
	w->log[w->log_len] = '\0';
}

/* "(xN)" after a call logged N times in a row. */
static void log_repeat(struct world *w)
{
	char rep[32];
	int m;

	if (!w->repeat)
		return;
	m = snprintf(rep, sizeof(rep), "(x%lu)", w->repeat + 1);
	log_add(w, rep, m);
	w->repeat = 0;
}

/* The end of an op: no repeat count runs across it. */
void sim_log_flush(void)
{
	struct world *w = sim_cur;

	if (!w || !w->logging)
		return;
	log_repeat(w);
	w->last[0] = '\0';
}

/* Append to the log; a token repeated back to back is counted, "(xN)". */
void sim_log(const char *fmt, ...)
{
	struct world *w = sim_cur;
	char buf[256];
	va_list ap;
	int n;

	if (!w || !w->logging)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (!strcmp(buf, w->last)) {
		w->repeat++;
		return;
	}
	log_repeat(w);
	memcpy(w->last, buf, n + 1);
	log_add(w, buf, n);
}

/* Signal @n of a kind: whether it is of the sort @ring records (@yes). */
static void sim_note(uint64_t *ring, unsigned long n, int yes)
{
	if (yes)
		*ring |= 1ULL << (n % 64);
	else
		*ring &= ~(1ULL << (n % 64));
}

/* Where signal @n of counter @ctr (-1: none) comes from, into two rings. */
static void sim_note_signal(struct world *w, uint64_t *perf, uint64_t *fold,
			    int ctr, unsigned long n)
{
	int in_fold = ctr >= 0 ? (int)(w->fold_window >> ctr & 1) :
		      !!w->fold_window;

	sim_note(perf, n, w->in_overflow);
	sim_note(fold, n, !w->in_overflow && in_fold);
}

void sim_request(unsigned long *requests, int req)
{
	int pending = !!(*requests & 1UL << req);

	*requests |= 1UL << req;
	if (!sim_cur)
		return;
	if (req == SIM_REQ_PMU)
		sim_cur->nr_req_pmu++;
	/*
	 * A KVM_REQ_PMU already pending changes nothing (kvm_make_request()
	 * sets a bit): not logged, so that iii compares what a tree does
	 * (0005's kvm_pmu_sync_to_userspace() requests the reprogram of a
	 * counter with emulated events the emulated instruction requested).
	 */
	if (req == SIM_REQ_PMU && pending)
		return;
	if (req == SIM_REQ_PMI) {
		struct world *w = sim_cur;

		w->nr_req_pmi++;
		w->pmi_seq++;
		if (w->last_sig >= 0)
			sim_note_signal(w, &w->pmi_perf[w->last_sig],
					&w->pmi_fold[w->last_sig], w->last_sig,
					w->nr_pmi[w->last_sig]++);
		else
			sim_note_signal(w, &w->pmi_other_perf,
					&w->pmi_other_fold, -1,
					w->nr_pmi_other++);
		w->last_sig = -1;
	}
	sim_log(" req:%s", req == SIM_REQ_PMU ? "PMU" : "PMI");
}

void sim_watch_status(const void *addr)
{
	if (sim_cur) {
		sim_cur->status_addr = addr;
		sim_cur->last_sig = -1;
	}
}

void sim_bit_set(long nr, const unsigned long *addr)
{
	struct world *w = sim_cur;

	if (!w || addr != w->status_addr || nr < 0 || nr >= SIM_MAX_CTR)
		return;
	sim_note_signal(w, &w->sig_perf[nr], &w->sig_fold[nr], nr,
			w->nr_sig[nr]++);
	w->last_sig = nr;
}

void sim_lapic_pmi(void)
{
	struct world *w = sim_cur;

	if (!w)
		return;
	w->nr_lapic++;
	w->lapic_seq = w->pmi_seq;
	sim_log(" lapic-pmi");
}

void sim_warn(const char *what)
{
	if (sim_cur)
		sim_cur->warned = what;
	sim_log(" WARN(%s)", what);
}
