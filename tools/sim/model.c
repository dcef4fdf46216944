// SPDX-License-Identifier: GPL-2.0
/*
 * The sim's architectural reference model: what a real PMU would show for
 * a trace's ops, and which counter wraps KVM owes the guest a signal for,
 * by when (docs/sim.md has the invariants).  ops.c drives it beside the
 * tree's code.
 */
#include <stdio.h>
#include <string.h>

#include "harness_int.h"

/*
 * The valid counter of R at list position *M or after it (*M moves there),
 * its index in *I; NULL after the last.
 */
struct ref_ctr *valid_ctr(struct ref *r, int *m, int *i)
{
	for (; *m < r->nr; (*m)++) {
		*i = r->list[*m];
		if (r->c[*i].valid)
			return &r->c[*i];
	}
	return NULL;
}

int era_sync;
int era_prev;

void ref_init(struct ref *r, const struct sim_cfg *cfg, unsigned int tol)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->sync = era_sync;
	r->cfg = *cfg;
	r->tolerance = tol;
	for (i = 0; i < MAX_CTR; i++) {
		if (!nr_ctr_idx(cfg, i))
			continue;
		r->c[i].valid = 1;
		r->list[r->nr++] = i;
		r->c[i].mask = i < FIXED ? (1ULL << cfg->width_gp) - 1 :
					   (1ULL << cfg->width_fixed) - 1;
		r->c[i].tol_max = tol;
	}
}

static uint64_t fixed_field(const struct ref *r, int i)
{
	return (r->fixed_ctrl >> (4 * (i - FIXED))) & 0xf;
}

uint64_t ref_code(const struct ref *r, int i)
{
	static const uint64_t fixed_codes[] = { EV_INSN, EV_CYCLES, EV_REF };

	if (i >= FIXED)
		return fixed_codes[i - FIXED];
	return r->c[i].evsel & 0xf0000ffffULL;
}

static int ref_allowed(const struct ref *r, int i)
{
	int j, listed = 0;

	if (!r->filter_on)
		return 1;
	if (i >= FIXED) {
		int bit = r->filter_fixed >> (i - FIXED) & 1;

		return r->filter_action ? !bit : bit;
	}
	for (j = 0; j < r->filter_n; j++)
		listed |= r->filter_events[j] == ref_code(r, i);
	return r->filter_action ? !listed : listed;
}

static int ref_counting_filter(const struct ref *r, int i, int filter);

int ref_counting(const struct ref *r, int i)
{
	return ref_counting_filter(r, i, 1);
}

/*
 * Before 6.2 (the sync era) the event filter only decides whether a perf
 * event exists: KVM counts emulated instructions on a filtered counter.
 */
int ref_counting_emul(const struct ref *r, int i)
{
	return ref_counting_filter(r, i, !r->sync);
}

static int ref_counting_filter(const struct ref *r, int i, int filter)
{
	int local;

	if (!r->c[i].valid)
		return 0;
	if (i >= FIXED)
		local = (fixed_field(r, i) & 3) == 3;
	else
		local = (r->c[i].evsel & (EVSEL_EN | EVSEL_OS)) ==
			(EVSEL_EN | EVSEL_OS);
	if (!local)
		return 0;
	if (r->cfg.version > 1 && !(r->global_ctrl >> i & 1))
		return 0;
	return !filter || ref_allowed(r, i);
}

int ref_int(const struct ref *r, int i)
{
	if (i >= FIXED)
		return fixed_field(r, i) >> 3 & 1;
	return !!(r->c[i].evsel & EVSEL_INT);
}

uint64_t cap_t(const struct ref_ctr *c, uint64_t t)
{
	/* at most half the counter's range (the contract's cap) */
	return t < c->mask >> 1 ? t : c->mask >> 1;
}

/*
 * The counter wrapped at op @op, its last step an emulated instruction
 * (@emul) or a native event.  Its bit, and a PMI with INT, are owed by KVM
 * when emulated events took part: at once (by the next VM-entry) when they
 * took the counter past its wrap on their own since it was last written
 * or folded (invariant ii-a), else within the tolerance or at the next
 * fold (ii-b, ii-lost).  A wrap by native events alone is perf's to
 * deliver, as on hardware, and is not owed: the pristine trees deliver
 * one late or lose one themselves after a counter write (docs/sim.md).
 * But the first one after a counter write is owed at once (ii-native) by
 * a tree whose Fixes: patches include 0001 (run->owe_native): the write
 * re-periods a running event from the written value, so perf's overflow
 * handler signals it at the very native event that wraps the counter.
 */
static void ref_wrap(struct run *run, int i, int op, int emul)
{
	struct ref *r = &run->r;
	struct ref_ctr *c = &r->c[i];
	int alone = emul && !c->wrapped_since &&
		    c->emul_since >= c->mask - c->base + 1;
	int native = !emul && !c->emul_since;
	int written = c->written;

	r->status |= 1ULL << i;
	c->credit_sig++;
	c->credit_pmi++;
	c->wrapped_since = 1;
	c->written = 0;
	if (native && !(run->owe_native && written))
		return;
	if (c->owed) {
		/* an older wrap still owed: one signal serves both */
		if (alone && c->kind != 'a') {
			c->kind = 'a';
			c->owed_t = c->late;
			c->wrap_op = op;
		}
		return;
	}
	c->owed = 1;
	r->nr_owed++;
	c->must = 0;
	c->late = 0;
	c->late_native = 0;
	c->kind = native ? 'n' : alone ? 'a' : 'b';
	/*
	 * A tolerance lowered at runtime takes effect at the next emulated
	 * instruction: a batch begun under a larger one may wait one more.
	 */
	c->owed_t = alone || native ? 0 : cap_t(c, r->tolerance) +
					  (c->tol_max > r->tolerance);
	/*
	 * KVM takes INT at the reprogram after the fold: a wrap in the exit
	 * of the WRMSR that sets INT gets no PMI, in the pristine trees too.
	 */
	c->pmi = ref_int(r, i) && c->kvm_int;
	c->sig_at = run->w.nr_sig[i];
	c->pmi_at = run->w.nr_pmi[i];
	c->wrap_op = op;
}

void ref_count(struct run *run, int i, uint64_t n, int op, int emul)
{
	struct ref_ctr *c = &run->r.c[i];
	uint64_t old = c->value;

	int was_owed = c->owed;

	if (emul && c->owed)
		c->late += n;
	if (!emul && c->owed)
		c->late_native += n;
	if (emul && n) {
		c->emul_since += n;
		c->written = 0;
	}
	c->value = (old + n) & c->mask;
	if (n > c->mask - old) {
		ref_wrap(run, i, op, emul);
		/* the native events of this op past the wrap */
		if (!emul && !was_owed && c->owed)
			c->late_native = n - (c->mask - old + 1);
	}
}

/* KVM must fold counter @i (before the next VM-entry's checks). */
void ref_fold_point(struct ref *r, int i, int op)
{
	if (!r->c[i].valid)
		return;
	r->c[i].refold = 1;
	if (r->c[i].owed && !r->c[i].must) {
		r->c[i].must = 1;
		r->c[i].fold_op = op;
	}
}

/* Counter @i now holds exactly @v in KVM: a write, a restore. */
void ref_set_value(struct ref *r, int i, uint64_t v)
{
	struct ref_ctr *c = &r->c[i];

	c->value = v & c->mask;
	c->base = c->value;
	c->emul_since = 0;
	c->wrapped_since = 0;
	c->written = 1;
	c->tol_max = r->tolerance;
}

const char *ctr_name(int i)
{
	static char buf[4][16];
	static int k;

	k = (k + 1) % 4;
	if (i >= FIXED)
		snprintf(buf[k], sizeof(buf[k]), "fixed%d", i - FIXED);
	else
		snprintf(buf[k], sizeof(buf[k]), "gp%d", i);
	return buf[k];
}

uint32_t ctr_msr(const struct sim_cfg *cfg, int i)
{
	if (i >= FIXED)
		return MSR_FIXED_CTR0 + i - FIXED;
	if (cfg->amd)
		return MSR_F15H_CTL0 + 2 * i + 1;
	return MSR_PMC0 + i;
}

/* An emulated instruction (a branch if @branch) in the reference. */
void emulated_in_ref(struct run *run, int branch, int k)
{
	struct ref *r = &run->r;
	uint64_t code = branch ? ev_branch(&r->cfg) : EV_INSN;
	int j, m;

	for (m = 0; m < r->nr; m++) {
		j = r->list[m];
		if (ref_counting_emul(r, j) && ref_code(r, j) == code) {
			ref_count(run, j, 1, k, 1);
			run->w.emul_unfolded |= 1ULL << j;
		}
	}
}
