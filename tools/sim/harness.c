// SPDX-License-Identifier: GPL-2.0
/*
 * The sim harness: seeded random guest traces (or one from a trace file)
 * run on three trees' vPMU code (pristine, baseline: pristine + the
 * series' Fixes: patches, and patched; linked in as sim_tree_pristine,
 * sim_tree_baseline, sim_tree_patched), each against an architectural
 * reference model.  docs/sim.md has the invariants in full:
 *  i       every counter read is exact;
 *  ii-a    a wrap by emulated instructions alone is signalled at once;
 *  ii-b    a joint wrap within the tolerance (emulated instructions, and
 *          native events past the wrap);
 *  ii-lost an owed wrap is signalled by the VM-entry after a fold;
 *  ii-save a save finds every owed wrap signalled, its PMI in the LAPIC;
 *  iii     with tolerance 0 the patched tree does what the baseline does;
 *  iv      no bit and no PMI without a wrap, unless the baseline has it;
 *  v       the figure's reprograms stay within the batching's bound.
 *
 * Exit 0: every trace passed; 1: a counterexample; 2: bad usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "world.h"

extern const struct sim_tree sim_tree_pristine, sim_tree_patched;

#define MSR_PERFCTR0 0x000000c1U
#define MSR_PMC0 0x000004c1U
#define MSR_EVNTSEL0 0x00000186U
#define MSR_FIXED_CTR0 0x00000309U
#define MSR_FIXED_CTR_CTRL 0x0000038dU
#define MSR_GLOBAL_STATUS 0x0000038eU
#define MSR_GLOBAL_CTRL 0x0000038fU
#define MSR_GLOBAL_OVF_CTRL 0x00000390U
#define MSR_F15H_CTL0 0xc0010200U
#define MSR_K7_PERFCTR0 0xc0010004U
#define MSR_AMD_GLOBAL_STATUS 0xc0000300U
#define MSR_AMD_GLOBAL_CTL 0xc0000301U
#define MSR_AMD_GLOBAL_STATUS_CLR 0xc0000302U

#define EVSEL_USR (1ULL << 16)
#define EVSEL_OS (1ULL << 17)
#define EVSEL_INT (1ULL << 20)
#define EVSEL_EN (1ULL << 22)

#define EV_INSN 0x00c0ULL
#define EV_CYCLES 0x003cULL
#define EV_REF 0x0300ULL

#define FIXED 32
#define REQ_PMI_BIT (1UL << 11)	/* KVM_REQ_PMI, as kernel.h numbers it */
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#define MAX_CTR 64

enum op_type {
	OP_ENTRY, OP_EMUL, OP_NATIVE, OP_RDPMC, OP_RDMSR_CTR, OP_RDMSR_STATUS,
	OP_WR_CTR, OP_WR_EVSEL, OP_WR_FIXED_CTRL, OP_WR_GLOBAL_CTRL,
	OP_CLR_STATUS, OP_HOST_RD_CTR, OP_HOST_RD_STATUS, OP_FILTER,
	OP_PARAM, OP_SAVE_RESTORE, OP_HOST_WR_CTR, OP_HOST_WR_EVSEL,
	OP_HOST_WR_STATUS, OP_SCHED_IN, OP_PARAM_ASYNC, NR_OPS
};

static const char *const op_names[] = {
	"vm-entry", "emulate", "native", "rdpmc", "rdmsr-ctr",
	"rdmsr-status", "wrmsr-ctr", "wrmsr-evtsel", "wrmsr-fixed-ctrl",
	"wrmsr-global-ctrl", "clear-status", "host-rdmsr-ctr",
	"host-rdmsr-status", "set-filter", "set-param", "save-restore",
	"host-wrmsr-ctr", "host-wrmsr-evtsel", "host-wrmsr-status",
	"sched-in", "set-param-async",
};

/* the counter ops' flag (op.c): the legacy MSR, not the full-width one */
#define CTR_LEGACY 1

/* OP_EMUL's flags (op.c) */
#define EMUL_B2B 1		/* back to back in one exit */
#define EMUL_AFTER_WRMSR 2	/* in the exit of the WRMSR before it */

struct op {
	enum op_type type;
	int ctr;		/* counter index, 0..31 gp, 32.. fixed */
	uint64_t a, b;
	uint32_t c;
};

struct trace {
	struct sim_cfg cfg;
	unsigned int tolerance;
	uint64_t min_period;	/* the host's limit_period, 0: none */
	struct op *ops;
	int n;
};

/* The architectural reference: what a real PMU would show. */
struct ref_ctr {
	int valid;
	uint64_t mask, value, evsel;
	/* a wrap owed by KVM (not perf) and not yet signalled */
	int owed, must, pmi;
	char kind;		/* 'a': by emulated events alone; 'b': joint */
	uint64_t owed_t;	/* emulated instructions it may wait */
	uint64_t late;		/* emulated instructions since the wrap */
	uint64_t late_native;	/* native events counted since the wrap */
	unsigned long sig_at, pmi_at;	/* the tree's signals before it */
	int wrap_op, fold_op;
	/*
	 * Since the counter was last written or folded (a VM-entry after a
	 * change that reprograms it): its value then, the emulated events
	 * counted since, whether it wrapped since; refold: the next VM-entry
	 * folds it.
	 */
	uint64_t base, emul_since;
	int wrapped_since, refold;
	int kvm_int;		/* INT as KVM took it at its last reprogram */
	unsigned int tol_max;	/* the largest tolerance since the fold */
	/* wraps not yet matched by a signal of the tree (invariant iv) */
	unsigned long credit_sig, credit_pmi, seen_sig, seen_pmi;
};

struct ref {
	struct sim_cfg cfg;
	struct ref_ctr c[MAX_CTR];
	uint64_t global_ctrl, fixed_ctrl, status;
	int filter_on, filter_action;
	uint64_t filter_events[4];
	int filter_n;
	uint32_t filter_fixed;
	unsigned int tolerance;
	uint64_t max_late;
	int list[MAX_CTR], nr;	/* the valid counters */
	int sync;		/* the sync era's filter semantics */
	int nr_owed;
};

/*
 * The valid counter of R at list position *M or after it (*M moves there),
 * its index in *I; NULL after the last.
 */
static struct ref_ctr *valid_ctr(struct ref *r, int *m, int *i)
{
	for (; *m < r->nr; (*m)++) {
		*i = r->list[*m];
		if (r->c[*i].valid)
			return &r->c[*i];
	}
	return NULL;
}

struct failure {
	int failed;
	char inv[16];
	char what[512];
	int op;
};

/* A signal of the tree that no wrap of the reference explains. */
struct spurious {
	int op, ctr;		/* ctr -1: a PMI with no counter's bit set */
	int pmi;		/* a PMI request, else a GLOBAL_STATUS bit */
};

#define MAX_SPURIOUS 8

struct run {
	struct world w;
	struct ref r;
	int in_guest, dirty, msr_dirty;
	struct failure f;
	size_t *op_log;		/* log offset after each op */
	unsigned long emulated;
	struct spurious sp[MAX_SPURIOUS];
	int nsp, cur_op;
	unsigned long seen_pmi_other;
	const struct trace *tr;
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rn(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* The figure's tolerances (report.json's keys). */
static const unsigned int tolerances[] = {
	0, 1, 1000, 100000, 10000000, 4294967295U,
};

/* The traces' tolerances, one per trace in turn: small ones more often. */
static const unsigned int trace_tolerances[] = {
	0, 1, 3, 17, 1000, 0, 1, 100000, 10000000, 4294967295U,
};

/*
 * The host's minimum sample period of trace @idx of @seed (perf's
 * limit_period: none, Haswell's 32, Broadwell's 128), drawn from a stream
 * of its own so that the traces' ops stay those of the seed.
 */
static uint64_t trace_min_period(uint64_t seed, long idx)
{
	static const uint64_t min_periods[] = { 0, 32, 128 };
	uint64_t z = (seed * 0x100000001b3ULL + idx) ^ 0x6c696d6974ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return min_periods[(z ^ (z >> 31)) % ARRAY_SIZE(min_periods)];
}

static uint64_t ev_branch(const struct sim_cfg *cfg)
{
	return cfg->amd ? 0x00c2 : 0x00c4;
}

static int nr_ctr_idx(const struct sim_cfg *cfg, int i)
{
	if (i < FIXED)
		return i < cfg->nr_gp;
	return i - FIXED < cfg->nr_fixed;
}

/* ---- the reference model ---- */

static int era_sync;
static int era_prev;	/* 6.2-6.7: each emulated instruction after an entry */

static void ref_init(struct ref *r, const struct sim_cfg *cfg,
		     unsigned int tol)
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

static uint64_t ref_code(const struct ref *r, int i)
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

static int ref_counting(const struct ref *r, int i)
{
	return ref_counting_filter(r, i, 1);
}

/*
 * Before 6.2 (the sync era) the event filter only decides whether a perf
 * event exists: KVM counts emulated instructions on a filtered counter.
 */
static int ref_counting_emul(const struct ref *r, int i)
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

static int ref_int(const struct ref *r, int i)
{
	if (i >= FIXED)
		return fixed_field(r, i) >> 3 & 1;
	return !!(r->c[i].evsel & EVSEL_INT);
}

static uint64_t cap_t(const struct ref_ctr *c, uint64_t t)
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
 */
static void ref_wrap(struct run *run, int i, int op, int emul)
{
	struct ref *r = &run->r;
	struct ref_ctr *c = &r->c[i];
	int alone = emul && !c->wrapped_since &&
		    c->emul_since >= c->mask - c->base + 1;

	r->status |= 1ULL << i;
	c->credit_sig++;
	c->credit_pmi++;
	c->wrapped_since = 1;
	if (!emul && !c->emul_since)
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
	c->kind = alone ? 'a' : 'b';
	/*
	 * A tolerance lowered at runtime takes effect at the next emulated
	 * instruction: a batch begun under a larger one may wait one more.
	 */
	c->owed_t = alone ? 0 : cap_t(c, r->tolerance) +
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

static void ref_count(struct run *run, int i, uint64_t n, int op, int emul)
{
	struct ref_ctr *c = &run->r.c[i];
	uint64_t old = c->value;

	int was_owed = c->owed;

	if (emul && c->owed)
		c->late += n;
	if (!emul && c->owed)
		c->late_native += n;
	if (emul)
		c->emul_since += n;
	c->value = (old + n) & c->mask;
	if (n > c->mask - old) {
		ref_wrap(run, i, op, emul);
		/* the native events of this op past the wrap */
		if (!emul && !was_owed && c->owed)
			c->late_native = n - (c->mask - old + 1);
	}
}

/* KVM must fold counter @i (before the next VM-entry's checks). */
static void ref_fold_point(struct ref *r, int i, int op)
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
static void ref_set_value(struct ref *r, int i, uint64_t v)
{
	struct ref_ctr *c = &r->c[i];

	c->value = v & c->mask;
	c->base = c->value;
	c->emul_since = 0;
	c->wrapped_since = 0;
	c->tol_max = r->tolerance;
}

/* ---- running ops on one tree ---- */

static void fail(struct run *run, int op, const char *inv, const char *fmt,
		 ...) __printf(4, 5);

static void fail(struct run *run, int op, const char *inv, const char *fmt,
		 ...)
{
	va_list ap;

	if (run->f.failed)
		return;
	run->f.failed = 1;
	run->f.op = op;
	snprintf(run->f.inv, sizeof(run->f.inv), "%s", inv);
	va_start(ap, fmt);
	vsnprintf(run->f.what, sizeof(run->f.what), fmt, ap);
	va_end(ap);
}

static const char *ctr_name(int i)
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

static uint32_t ctr_msr(const struct sim_cfg *cfg, int i)
{
	if (i >= FIXED)
		return MSR_FIXED_CTR0 + i - FIXED;
	if (cfg->amd)
		return MSR_F15H_CTL0 + 2 * i + 1;
	return MSR_PMC0 + i;
}

/*
 * Counter @i's MSR for an op with flags @c: with CTR_LEGACY, Intel's
 * MSR_IA32_PERFCTRn (writes are 32 bits, sign-extended for the guest) or
 * AMD's MSR_K7_PERFCTRn (counters 0-3), else the full-width one.
 */
static uint32_t op_ctr_msr(const struct sim_cfg *cfg, int i, uint32_t c)
{
	if (!(c & CTR_LEGACY) || i >= FIXED)
		return ctr_msr(cfg, i);
	return cfg->amd ? MSR_K7_PERFCTR0 + i : MSR_PERFCTR0 + i;
}

/*
 * What a write of @data to counter @i's MSR (flags @c) puts in the
 * counter: intel_pmu_set_msr() sign-extends a guest's legacy write from
 * bit 31 (7.3 arch/x86/kvm/vmx/pmu_intel.c:430-432), and
 * pmc_write_counter() keeps the counter's width.
 */
static uint64_t written_value(const struct ref *r, int i, uint64_t data,
			      uint32_t c, int host)
{
	if ((c & CTR_LEGACY) && i < FIXED && !r->cfg.amd && !host)
		data = (uint64_t)(int64_t)(int32_t)data;
	return data & r->c[i].mask;
}

static uint32_t evsel_msr(const struct sim_cfg *cfg, int i)
{
	return cfg->amd ? MSR_F15H_CTL0 + 2 * i : MSR_EVNTSEL0 + i;
}

static uint32_t status_msr(const struct sim_cfg *cfg)
{
	return cfg->amd ? MSR_AMD_GLOBAL_STATUS : MSR_GLOBAL_STATUS;
}

static uint32_t gctrl_msr(const struct sim_cfg *cfg)
{
	return cfg->amd ? MSR_AMD_GLOBAL_CTL : MSR_GLOBAL_CTRL;
}

static void check_read(struct run *run, int op, int i, uint64_t got,
		       const char *how)
{
	uint64_t want = run->r.c[i].value;

	if (got != want)
		fail(run, op, "i", "%s of %s: expected %#" PRIx64 ", observed %#" PRIx64,
		     how, ctr_name(i), want, got);
}

static void note_spurious(struct run *run, int ctr, int pmi)
{
	struct spurious *sp;

	if (run->nsp == MAX_SPURIOUS)
		return;
	sp = &run->sp[run->nsp++];
	sp->op = run->cur_op;
	sp->ctr = ctr;
	sp->pmi = pmi;
}

/*
 * After every op: owed wraps the tree now shows (its bit set and, with
 * INT, a PMI requested for that counter since the wrap), and signals no
 * wrap of the reference explains (invariant iv, judged against the
 * baseline tree in check_trace()).
 */
static void check_status(struct run *run)
{
	struct ref *r = &run->r;
	struct world *w = &run->w;
	struct ref_ctr *c;
	int i, m;

	for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
		for (; c->seen_sig < w->nr_sig[i]; c->seen_sig++) {
			if (c->credit_sig)
				c->credit_sig--;
			else
				note_spurious(run, i, 0);
		}
		for (; c->seen_pmi < w->nr_pmi[i]; c->seen_pmi++) {
			if (c->credit_pmi)
				c->credit_pmi--;
			else
				note_spurious(run, i, 1);
		}
		if (c->owed && w->nr_sig[i] > c->sig_at &&
		    (!c->pmi || w->nr_pmi[i] > c->pmi_at)) {
			c->owed = 0;
			r->nr_owed--;
			if (c->late > r->max_late)
				r->max_late = c->late;
		}
	}
	for (; run->seen_pmi_other < w->nr_pmi_other; run->seen_pmi_other++)
		note_spurious(run, -1, 1);
}

static const char *kind_what(const struct ref_ctr *c)
{
	return c->kind == 'a' ? "emulated instructions alone" :
	       "a joint wrap: emulated events, and native ones or an earlier wrap, since the last fold";
}

static const char *owed_what(const struct ref_ctr *c)
{
	return c->pmi ? " and a PMI requested for it" : "";
}

/* Whether perf refused counter @i's event (its period) and none came since. */
static int ref_refused(const struct run *run, int i)
{
	int k;

	for (k = 0; k < SIM_MAX_EVENTS; k++)
		if (run->w.refused_ctx[k] &&
		    run->w.t->pmc_idx(run->w.refused_ctx[k]) == i)
			return 1;
	return 0;
}

/* Whether a counter counting native events @code has no event: refused. */
static int native_refused(const struct run *run, uint64_t code)
{
	int j;

	for (j = 0; j < MAX_CTR; j++)
		if (ref_counting(&run->r, j) && ref_code(&run->r, j) == code &&
		    ref_refused(run, j))
			return 1;
	return 0;
}

/* At a VM-entry, after KVM_REQ_PMU was drained: what must be delivered. */
static void check_entry(struct run *run, int op)
{
	struct ref *r = &run->r;
	struct ref_ctr *c;
	uint64_t st;
	int i, m;

	check_status(run);
	if (r->nr_owed) {
		st = run->w.t->global_status(run->w.vcpu);
		for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
			if (!c->owed)
				continue;
			if (c->must)
				fail(run, op, "ii-lost",
				     "the wrap of %s at op %d (%s) is lost: KVM folded the counter at op %d, and the VM-entry after it shows GLOBAL_STATUS=%#" PRIx64 "%s; expected bit %d set%s",
				     ctr_name(i), c->wrap_op, kind_what(c),
				     c->fold_op, st,
				     c->pmi && (st >> i & 1) ? " but no PMI for it" : "",
				     i, owed_what(c));
			else if (c->kind == 'a')
				fail(run, op, "ii-a",
				     "the wrap of %s by emulated instructions alone at op %d is not signalled at once: the VM-entry after it shows GLOBAL_STATUS=%#" PRIx64 "%s; expected bit %d set%s",
				     ctr_name(i), c->wrap_op, st,
				     c->pmi && (st >> i & 1) ? " but no PMI for it" : "",
				     i, owed_what(c));
			else if (c->late >= c->owed_t)
				fail(run, op, "ii-b",
				     "the wrap of %s at op %d (%s) is not signalled by the VM-entry %" PRIu64 " emulated instructions later (at most %" PRIu64 " may pass: the tolerance, at most half the range): GLOBAL_STATUS=%#" PRIx64 "%s; expected bit %d set%s",
				     ctr_name(i), c->wrap_op, kind_what(c),
				     c->late, c->owed_t, st,
				     c->pmi && (st >> i & 1) ? " but no PMI for it" : "",
				     i, owed_what(c));
		}
	}
	/* the entry folded what had to be folded: new bases */
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++)
		if (c->refold) {
			c->refold = 0;
			c->base = c->value;
			c->emul_since = 0;
			c->wrapped_since = 0;
			c->tol_max = r->tolerance;
		}
}

/*
 * The perf event's period leaves out the batched emulated events, so
 * native events may take a counter past its wrap before the PMI, by at
 * most the batch (the commit message's promise): ii-b in native events.
 */
static void check_native_late(struct run *run, int op)
{
	struct ref *r = &run->r;
	struct ref_ctr *c;
	int i, m;

	check_status(run);
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
		/* the batch: at most the largest tolerance since the fold */
		uint64_t t = cap_t(c, c->tol_max > r->tolerance ? c->tol_max :
					r->tolerance);

		if (c->owed && c->kind == 'b' && c->late_native > t)
			fail(run, op, "ii-b",
			     "the wrap of %s at op %d (%s) is not signalled after %" PRIu64 " native events took the counter past it (at most %" PRIu64 ": the batch, at most the tolerance and half the range): GLOBAL_STATUS=%#" PRIx64 "; expected bit %d set%s",
			     ctr_name(i), c->wrap_op, kind_what(c),
			     c->late_native, t,
			     run->w.t->global_status(run->w.vcpu), i,
			     owed_what(c));
	}
}

/*
 * The INT KVM takes for a counter's PMIs is the one of its event's
 * creation: pmc_reprogram_counter() sets pmc->intr only after perf made
 * the event (7.3 pmu.c:318-327), with the EVENTSEL or FIXED_CTR_CTRL of
 * then, which the reference holds once the op that made it is done.
 */
static void note_created(struct run *run)
{
	struct world *w = &run->w;
	int k, i;

	for (k = 0; k < w->nr_created; k++) {
		i = w->t->pmc_idx(w->created_ctx[k]);
		if (i >= 0 && i < MAX_CTR && run->r.c[i].valid)
			run->r.c[i].kvm_int = ref_int(&run->r, i);
	}
	w->nr_created = 0;
}

static void do_entry(struct run *run, int op)
{
	sim_log(" [entry]");
	run->w.t->entry(run->w.vcpu);
	run->in_guest = 1;
	run->dirty = run->msr_dirty = 0;
	check_entry(run, op);
	note_created(run);
}

static void guest_enter(struct run *run, int op)
{
	if (!run->in_guest)
		do_entry(run, op);
}

/* The guest runs an instruction that exits to KVM: RDPMC, WRMSR. */
static void guest_exit(struct run *run, int op, int msr_write)
{
	guest_enter(run, op);
	run->in_guest = 0;
	run->dirty = 1;
	if (msr_write)
		run->msr_dirty = 1;
}

/* The guest's WRMSR @msr=@val, named @what: a fault breaks invariant i. */
static void guest_wrmsr(struct run *run, int op, uint32_t msr, uint64_t val,
			const char *what)
{
	if (run->w.t->set_msr(run->w.vcpu, msr, val, 0))
		fail(run, op, "i", "WRMSR %s=%#" PRIx64 " faulted", what, val);
}

/* Userspace's KVM_SET_MSRS of @msr=@val. */
static void host_wrmsr(struct run *run, int op, uint32_t msr, uint64_t val,
		       const char *what)
{
	if (run->w.t->set_msr(run->w.vcpu, msr, val, 1))
		fail(run, op, "i", "userspace's write of %s=%#" PRIx64 " failed",
		     what, val);
}

/*
 * KVM_RUN returns to userspace.  The vCPU has re-entered the guest since
 * anything happened (the trace model keeps pristine honest at tolerance
 * 0), then the tree's kvm_pmu_sync_to_userspace() runs, if it has one.
 */
static void userspace_point(struct run *run, int op)
{
	if (run->dirty)
		do_entry(run, op);
	run->in_guest = 0;
	sim_log(" [to-userspace]");
	run->w.t->to_userspace(run->w.vcpu);
	check_status(run);
}

/*
 * Userspace saves the vCPU (KVM_GET_MSRS, KVM_GET_LAPIC): every owed wrap
 * must be signalled already, its bit in GLOBAL_STATUS (PMU v2: @status,
 * what was saved) and its PMI in the LAPIC, not in vcpu->requests, which
 * no ioctl saves.
 */
static void check_save(struct run *run, int op, uint64_t status, int v2)
{
	struct ref *r = &run->r;
	struct ref_ctr *c;
	int i, m;

	check_status(run);
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
		if (!c->owed)
			continue;
		if (v2 && !(status >> i & 1))
			fail(run, op, "ii-save",
			     "userspace saved GLOBAL_STATUS=%#" PRIx64 " without the wrap of %s at op %d (expected bit %d set): the restored vCPU never sees it",
			     status, ctr_name(i), c->wrap_op, i);
		else
			fail(run, op, "ii-save",
			     "userspace saved the vCPU while the wrap of %s at op %d is not signalled (%s%s): the restored vCPU never sees it",
			     ctr_name(i), c->wrap_op,
			     v2 ? "its bit is set, " : "PMU v1: ",
			     c->pmi ? "no PMI requested for it" : "KVM's status does not have it");
	}
	if (run->w.t->requests(run->w.vcpu) & REQ_PMI_BIT)
		fail(run, op, "ii-save",
		     "userspace saved the vCPU with a PMI only in vcpu->requests (KVM_REQ_PMI), not delivered into the LAPIC: the restored vCPU never takes it");
}

/* A read that traps: the guest's own (after an entry), or userspace's. */
static void read_point(struct run *run, int op, int by_guest)
{
	if (by_guest) {
		guest_enter(run, op);
		run->dirty = 1;
	} else {
		userspace_point(run, op);
	}
	run->in_guest = 0;
}

/*
 * Userspace saves the vCPU's PMU state (QEMU's kvm_get_msrs()), the source
 * is dropped, and a fresh vCPU of the same configuration is restored from
 * it with host-initiated writes (kvm_put_msrs()'s order: stop the counters,
 * the counters, the controls, GLOBAL_STATUS, then GLOBAL_CTRL); the filter
 * is set again on the new VM.  The trace goes on there.
 */
static void save_restore(struct run *run, int k)
{
	struct world *w = &run->w;
	struct ref *r = &run->r;
	const struct sim_cfg *cfg = &r->cfg;
	uint64_t ctr[MAX_CTR] = { 0 }, evsel[MAX_CTR] = { 0 };
	uint64_t status = 0, gctrl = 0, fctrl = 0;
	struct ref_ctr *c;
	int i, m, v2 = cfg->version > 1;

	userspace_point(run, k);
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
		if (w->t->get_msr(w->vcpu, ctr_msr(cfg, i), &ctr[i], 1))
			fail(run, k, "i", "saving %s failed", ctr_name(i));
		check_read(run, k, i, ctr[i], "userspace RDMSR (save)");
		if (i < FIXED &&
		    w->t->get_msr(w->vcpu, evsel_msr(cfg, i), &evsel[i], 1))
			fail(run, k, "i", "saving EVENTSEL%d failed", i);
	}
	if (cfg->nr_fixed &&
	    w->t->get_msr(w->vcpu, MSR_FIXED_CTR_CTRL, &fctrl, 1))
		fail(run, k, "i", "saving FIXED_CTR_CTRL failed");
	if (v2 && (w->t->get_msr(w->vcpu, gctrl_msr(cfg), &gctrl, 1) ||
		   w->t->get_msr(w->vcpu, status_msr(cfg), &status, 1)))
		fail(run, k, "i", "saving GLOBAL_CTRL/GLOBAL_STATUS failed");
	sim_log(" saved status=%#" PRIx64, status);
	check_save(run, k, status, v2);
	if (run->f.failed)
		return;

	note_created(run);
	w->t->destroy(w->vcpu);
	memset(w->events, 0, sizeof(w->events));
	sim_refused_clear(w);
	w->vcpu = w->t->create(cfg);
	sim_log(" [new vcpu]");
	if (r->filter_on && w->t->set_filter(w->vcpu, r->filter_action,
					     r->filter_events, r->filter_n,
					     r->filter_fixed))
		fail(run, k, "i", "setting the filter again failed");
	if (v2)
		host_wrmsr(run, k, gctrl_msr(cfg), 0, "GLOBAL_CTRL");
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
		host_wrmsr(run, k, ctr_msr(cfg, i), ctr[i], ctr_name(i));
		ref_set_value(r, i, ctr[i]);
		c->kvm_int = 0;		/* a fresh vCPU: no perf event yet */
		c->refold = 1;
		if (i < FIXED)
			host_wrmsr(run, k, evsel_msr(cfg, i), evsel[i],
				   "EVENTSEL");
	}
	if (cfg->nr_fixed)
		host_wrmsr(run, k, MSR_FIXED_CTR_CTRL, fctrl, "FIXED_CTR_CTRL");
	if (v2) {
		host_wrmsr(run, k, status_msr(cfg), status, "GLOBAL_STATUS");
		host_wrmsr(run, k, gctrl_msr(cfg), gctrl, "GLOBAL_CTRL");
	}
	run->dirty = run->msr_dirty = 1;
	check_status(run);
}

/*
 * The parameter becomes @tol: the next emulated instruction sees it.  A
 * joint wrap owed may wait the new tolerance from its next emulated
 * instruction on, if lowered, or the old one, if raised.
 */
static void set_param(struct run *run, unsigned int tol)
{
	struct ref *r = &run->r;
	int m;

	r->tolerance = tol;
	run->w.t->set_tolerance(tol);
	for (m = 0; m < r->nr; m++) {
		struct ref_ctr *c = &r->c[r->list[m]];
		uint64_t t = cap_t(c, r->tolerance);

		if (r->tolerance > c->tol_max)
			c->tol_max = r->tolerance;
		if (!c->owed || c->kind != 'b')
			continue;
		/* raised: the batch may grow; lowered: it folds soon */
		if (t > c->owed_t)
			c->owed_t = t;
		else if (c->late + t + 1 < c->owed_t)
			c->owed_t = c->late + t + 1;
	}
}

/*
 * @o->a native events of event select @o->b in the guest: the reference
 * and the simulated PMU count them; a PMI kicks the vCPU.
 */
static void do_native(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;
	int j;

	guest_enter(run, k);
	/*
	 * A counter of these events has no perf event: perf refused its
	 * period.  Every tree, pristine too, loses its native events until
	 * the next reprogram (docs/sim.md): not driven.
	 */
	if (native_refused(run, o->b)) {
		sim_log(" (not driven: perf refused a counter of %#" PRIx64 ")",
			o->b);
		return;
	}
	for (j = 0; j < MAX_CTR; j++)
		if (ref_counting(&run->r, j) && ref_code(&run->r, j) == o->b)
			ref_count(run, j, o->a, k, 0);
	sim_native(w, o->b, o->a);
	if (w->t->requests(w->vcpu))
		do_entry(run, k);	/* the PMI kicks the vCPU */
	check_native_late(run, k);
}

static void exec_op(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;
	struct ref *r = &run->r;
	const struct sim_cfg *cfg = &r->cfg;
	uint64_t v = 0, old;
	char what[16];
	int i = o->ctr, j, m, ret;
	uint64_t n;

	run->cur_op = k;
	switch (o->type) {
	case OP_ENTRY:
		do_entry(run, k);
		break;
	case OP_EMUL:
		/*
		 * after a WRMSR: in its exit (it retires), or after an entry;
		 * 6.2-6.7: after an entry if anything happened since
		 */
		if (!(o->c & EMUL_AFTER_WRMSR) &&
		    (run->msr_dirty || (era_prev && run->dirty)))
			do_entry(run, k);
		run->in_guest = 0;
		run->dirty = 1;
		for (n = 0; n < o->a && !run->f.failed; n++) {
			uint64_t code = o->b ? ev_branch(cfg) : EV_INSN;

			/* each its own exit, or back to back in one exit */
			if (n && !(o->c & EMUL_B2B))
				do_entry(run, k);
			run->in_guest = 0;
			run->dirty = 1;
			/* the reference first: the tree may signal at once */
			for (m = 0; m < r->nr; m++) {
				j = r->list[m];
				if (ref_counting_emul(r, j) &&
				    ref_code(r, j) == code)
					ref_count(run, j, 1, k, 1);
			}
			w->t->emulate(w->vcpu, o->b ? SIM_EMUL_BRANCH :
					       SIM_EMUL_INSN);
			run->emulated++;
		}
		break;
	case OP_NATIVE:
		do_native(run, o, k);
		break;
	case OP_RDPMC:
		guest_exit(run, k, 0);
		ret = w->t->rdpmc(w->vcpu, i >= FIXED && !cfg->amd ?
				  (1U << 30) | (i - FIXED) : (uint32_t)i, &v);
		sim_log(" =%#" PRIx64, v);
		if (ret)
			fail(run, k, "i", "RDPMC of %s faulted", ctr_name(i));
		else
			check_read(run, k, i, v, "RDPMC");
		break;
	case OP_RDMSR_CTR:
	case OP_HOST_RD_CTR:
		read_point(run, k, o->type == OP_RDMSR_CTR);
		ret = w->t->get_msr(w->vcpu, op_ctr_msr(cfg, i, o->c), &v,
				    o->type == OP_HOST_RD_CTR);
		sim_log(" =%#" PRIx64, v);
		if (ret)
			fail(run, k, "i", "RDMSR of %s faulted", ctr_name(i));
		else
			check_read(run, k, i, v, o->type == OP_RDMSR_CTR ?
				   "RDMSR" : "userspace RDMSR");
		break;
	case OP_RDMSR_STATUS:
	case OP_HOST_RD_STATUS:
		read_point(run, k, o->type == OP_RDMSR_STATUS);
		ret = w->t->get_msr(w->vcpu, status_msr(cfg), &v,
				    o->type == OP_HOST_RD_STATUS);
		sim_log(" =%#" PRIx64, v);
		if (o->type == OP_HOST_RD_STATUS)
			check_save(run, k, v, 1);
		break;
	case OP_WR_CTR:
	case OP_HOST_WR_CTR:
		if (o->type == OP_WR_CTR) {
			guest_exit(run, k, 1);
		} else {
			userspace_point(run, k);
			run->dirty = run->msr_dirty = 1;
		}
		ref_fold_point(r, i, k);
		/* the full-width MSRs take the counter's width only */
		v = o->c & CTR_LEGACY ? o->a : o->a & r->c[i].mask;
		if (o->type == OP_WR_CTR)
			guest_wrmsr(run, k, op_ctr_msr(cfg, i, o->c), v,
				    ctr_name(i));
		else
			host_wrmsr(run, k, op_ctr_msr(cfg, i, o->c), v,
				   ctr_name(i));
		ref_set_value(r, i, written_value(r, i, v, o->c,
						  o->type == OP_HOST_WR_CTR));
		break;
	case OP_WR_EVSEL:
	case OP_HOST_WR_EVSEL:
		if (o->type == OP_WR_EVSEL) {
			guest_exit(run, k, 1);
		} else {
			userspace_point(run, k);
			run->dirty = run->msr_dirty = 1;
		}
		if (o->a != r->c[i].evsel)	/* a change, not a rewrite */
			ref_fold_point(r, i, k);
		snprintf(what, sizeof(what), "EVENTSEL%d", i);
		if (o->type == OP_WR_EVSEL)
			guest_wrmsr(run, k, evsel_msr(cfg, i), o->a, what);
		else
			host_wrmsr(run, k, evsel_msr(cfg, i), o->a, what);
		r->c[i].evsel = o->a;
		break;
	case OP_WR_FIXED_CTRL:
		guest_exit(run, k, 1);
		old = r->fixed_ctrl;
		for (j = FIXED; j < FIXED + cfg->nr_fixed; j++)
			if (((old ^ o->a) >> (4 * (j - FIXED))) & 0xf)
				ref_fold_point(r, j, k);
		guest_wrmsr(run, k, MSR_FIXED_CTR_CTRL, o->a, "FIXED_CTR_CTRL");
		r->fixed_ctrl = o->a;
		break;
	case OP_WR_GLOBAL_CTRL:
		guest_exit(run, k, 1);
		for (j = 0; j < MAX_CTR; j++)
			if ((r->global_ctrl ^ o->a) >> j & 1)
				ref_fold_point(r, j, k);
		guest_wrmsr(run, k, gctrl_msr(cfg), o->a, "GLOBAL_CTRL");
		r->global_ctrl = o->a;
		break;
	case OP_CLR_STATUS:
		guest_exit(run, k, 0);
		ret = w->t->set_msr(w->vcpu, cfg->amd ? MSR_AMD_GLOBAL_STATUS_CLR :
				    MSR_GLOBAL_OVF_CTRL, o->a, 0);
		if (ret)
			fail(run, k, "i", "clearing GLOBAL_STATUS %#" PRIx64 " faulted",
			     o->a);
		r->status &= ~o->a;
		break;
	case OP_HOST_WR_STATUS:
		userspace_point(run, k);
		run->dirty = run->msr_dirty = 1;
		host_wrmsr(run, k, status_msr(cfg), o->a, "GLOBAL_STATUS");
		r->status = o->a;
		break;
	case OP_SAVE_RESTORE:
		save_restore(run, k);
		break;
	case OP_SCHED_IN:
		/* the vCPU thread was scheduled out and back in */
		run->in_guest = 0;
		run->dirty = 1;
		w->t->sched_in(w->vcpu);
		break;
	case OP_FILTER:
		userspace_point(run, k);
		run->dirty = run->msr_dirty = 1;
		for (j = 0; j < MAX_CTR; j++)
			ref_fold_point(r, j, k);
		r->filter_on = 1;
		r->filter_action = (int)o->a;
		r->filter_n = 0;
		for (j = 0; j < 3; j++)
			if (o->b >> j & 1) {
				static const uint64_t codes[] = {
					EV_INSN, 0, EV_CYCLES
				};

				r->filter_events[r->filter_n++] =
					j == 1 ? ev_branch(cfg) : codes[j];
			}
		r->filter_fixed = o->c;
		ret = w->t->set_filter(w->vcpu, (int)o->a, r->filter_events,
				       r->filter_n, o->c);
		if (ret)
			fail(run, k, "i", "KVM_SET_PMU_EVENT_FILTER failed: %d",
			     ret);
		break;
	case OP_PARAM:
		userspace_point(run, k);
		set_param(run, (unsigned int)o->a);
		break;
	case OP_PARAM_ASYNC:
		/*
		 * a sysfs write on another CPU: between any two guest
		 * operations, batches pending, the vCPU in the guest or not
		 */
		sim_log(" [host sets the parameter]");
		set_param(run, (unsigned int)o->a);
		break;
	default:
		break;
	}
	check_status(run);
	note_created(run);
	sim_log(" status=%#" PRIx64 "\n", w->t->global_status(w->vcpu));
	sim_log_flush();
}

static void run_init(struct run *run, const struct sim_tree *t,
		     const struct trace *tr, int logging)
{
	memset(run, 0, sizeof(*run));
	run->w.t = t;
	run->w.logging = logging;
	sim_cur = &run->w;
	run->w.min_period = tr->min_period;
	t->set_tolerance(tr->tolerance);
	run->w.vcpu = t->create(&tr->cfg);
	ref_init(&run->r, &tr->cfg, tr->tolerance);
}

static void run_fini(struct run *run)
{
	sim_cur = &run->w;
	run->w.t->destroy(run->w.vcpu);
	free(run->w.log);
	free(run->op_log);
	sim_cur = NULL;
}

/* One trace on one tree, to the end or the first failure. */
static void run_trace(struct run *run, const struct sim_tree *t,
		      const struct trace *tr, int logging)
{
	int k;

	run_init(run, t, tr, logging);
	if (logging)
		run->op_log = calloc(tr->n + 1, sizeof(*run->op_log));
	for (k = 0; k < tr->n && !run->f.failed; k++) {
		sim_cur = &run->w;
		exec_op(run, &tr->ops[k], k);
		if (logging)
			run->op_log[k] = run->w.log_len;
	}
	if (!run->f.failed) {
		sim_cur = &run->w;
		do_entry(run, tr->n);
		sim_log(" (end)\n");
		if (logging)
			run->op_log[tr->n] = run->w.log_len;
	}
	if (!run->f.failed && run->w.warned)
		fail(run, tr->n, "warn", "the tree's code warned: %s",
		     run->w.warned);
}

/* ---- traces ---- */

static void push(struct trace *tr, int *alloc, struct op o)
{
	if (tr->n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 64;
		tr->ops = realloc(tr->ops, *alloc * sizeof(*tr->ops));
	}
	tr->ops[tr->n++] = o;
}

static int pick_ctr(const struct sim_cfg *cfg)
{
	int n = cfg->nr_gp + cfg->nr_fixed, k = rn(n);

	return k < cfg->nr_gp ? k : FIXED + k - cfg->nr_gp;
}

static uint64_t near_wrap(uint64_t mask, unsigned int tol)
{
	static const uint64_t dist[] = { 1, 2, 3, 5, 17, 100 };
	uint64_t d;

	switch (rn(4)) {
	case 0:
		d = 1 + rn(tol < 1000 ? tol + 2 : 1000);
		break;
	case 1:
		d = rn(1ULL << 20);
		break;
	default:
		d = dist[rn(ARRAY_SIZE(dist))];
	}
	if (d > mask)
		d = mask;
	return (mask + 1 - d) & mask;
}

static uint64_t rand_evsel(const struct sim_cfg *cfg)
{
	static const int w[] = { 6, 3, 1 };
	uint64_t code, ev = EVSEL_OS | EVSEL_USR | EVSEL_EN;
	int k = rn(w[0] + w[1] + w[2]);

	code = k < w[0] ? EV_INSN : k < w[0] + w[1] ? ev_branch(cfg) :
							  EV_CYCLES;
	if (rn(3))
		ev |= EVSEL_INT;
	return ev | code;
}

struct gen_opts {
	unsigned int without;	/* op types not to generate, 1 << OP_x */
	int era_sync;		/* no AMD PerfMonV2 in the sync era */
	int era_prev;		/* 6.2-6.7: one emulated instruction per exit */
	int vendor;		/* -1 both, 0 Intel, 1 AMD */
	long tolerance;		/* -1: every one of tolerances[] */
};

static void gen_cfg(struct sim_cfg *cfg, const struct gen_opts *g)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->amd = g->vendor < 0 ? (int)rn(2) : g->vendor;
	if (cfg->amd) {
		cfg->version = g->era_sync ? 1 : 1 + rn(2);
		cfg->nr_gp = cfg->version > 1 ? 6 : 4 + 2 * rn(2);
		cfg->width_gp = 48;
	} else {
		cfg->version = 2;
		cfg->nr_gp = 1 + rn(8);
		cfg->nr_fixed = rn(4);
		/* widths come from the VMM's CPUID: 32 to 48, or 8 to 31 */
		cfg->width_gp = rn(4) ? 32 + (int)rn(17) : 8 + (int)rn(24);
		cfg->width_fixed = rn(4) ? 32 + (int)rn(17) : 8 + (int)rn(24);
	}
}

/*
 * A counter read or write through the legacy MSR, 1 in 4, by bits of the
 * stream's state (no draw: the seeds' ops stay those they were).
 */
static uint32_t legacy_flag(const struct sim_cfg *cfg, const struct op *o)
{
	if (o->type != OP_WR_CTR && o->type != OP_HOST_WR_CTR &&
	    o->type != OP_RDMSR_CTR && o->type != OP_HOST_RD_CTR)
		return 0;
	if (o->ctr >= FIXED || (cfg->amd && o->ctr >= 4))
		return 0;
	return (rng_state >> 31 & 3) ? 0 : CTR_LEGACY;
}

/*
 * An emulate op (@o->ctr's counter of @mask, after an op of type @prev):
 * one instruction, a few, a batch's worth, a narrow counter's width, or
 * the emulation_required loop's run of up to 130 in one exit, on every
 * width (on 8 bits a batch at the half-range cap and such a run pass the
 * range before a fold: review N6).
 */
static void gen_emul(struct op *o, const struct gen_opts *g, unsigned int tol,
		     uint64_t mask, enum op_type prev)
{
	o->type = OP_EMUL;
	o->a = rn(4) ? 1 : 1 + rn(4);
	/* back to back, one exit */
	o->c = o->a > 1 && rn(2) ? EMUL_B2B : 0;
	/* a batch's worth, or a narrow counter's width */
	if (!rn(40))
		o->a = 1 + rn(tol < (1U << 12) ? tol + 2 : (1U << 12));
	if (!rn(60))
		o->a = mask + 1 <= (1ULL << 12) ? mask + 1 + rn(3) : 1;
	if (o->a > 4)
		o->c = 0;
	/* the emulation_required loop: up to 130 in one exit */
	if (!rn(25)) {
		o->a = 1 + rn(130);
		o->c = EMUL_B2B;
	}
	/* the instruction after a WRMSR, in its exit */
	if ((prev == OP_WR_CTR || prev == OP_WR_EVSEL ||
	     prev == OP_WR_FIXED_CTRL || prev == OP_WR_GLOBAL_CTRL) &&
	    rn(3) == 0)
		o->c |= EMUL_AFTER_WRMSR;
	/*
	 * 6.2-6.7 snapshot pmc->prev_counter at every emulated instruction
	 * and compare at the next VM-entry: a second one in the same exit
	 * overwrites the snapshot of a wrap (upstream fd89499a5151, 6.8,
	 * fixed it).  The pristine tree loses such wraps: no back-to-back
	 * runs there, and a VM-entry before every emulated instruction.
	 */
	if (g->era_prev)
		o->c &= ~EMUL_B2B;
	o->b = rn(4) == 0;
}

static void gen_trace(struct trace *tr, const struct gen_opts *g,
		      unsigned int tol)
{
	struct sim_cfg *cfg = &tr->cfg;
	int alloc = 0, i, len, k;
	uint64_t all = 0;

	memset(tr, 0, sizeof(*tr));
	gen_cfg(cfg, g);
	tr->tolerance = tol;
	/* program the counters near their wrap */
	for (i = 0; i < MAX_CTR; i++) {
		uint64_t mask;

		if (!nr_ctr_idx(cfg, i))
			continue;
		all |= 1ULL << i;
		mask = i < FIXED ? (1ULL << cfg->width_gp) - 1 :
				   (1ULL << cfg->width_fixed) - 1;
		push(tr, &alloc, (struct op){ OP_WR_CTR, i,
			near_wrap(mask, tol), 0, 0 });
		if (i < FIXED)
			push(tr, &alloc, (struct op){ OP_WR_EVSEL, i,
				rand_evsel(cfg), 0, 0 });
	}
	if (cfg->nr_fixed) {
		uint64_t ctrl = 0;

		for (i = 0; i < cfg->nr_fixed; i++)
			ctrl |= (uint64_t)(rn(2) ? 0xb : 0x3) << (4 * i);
		push(tr, &alloc, (struct op){ OP_WR_FIXED_CTRL, 0, ctrl, 0, 0 });
	}
	if (cfg->version > 1)
		push(tr, &alloc, (struct op){ OP_WR_GLOBAL_CTRL, 0, all, 0, 0 });

	len = 20 + rn(80);
	for (k = 0; k < len; k++) {
		struct op o = { OP_ENTRY, pick_ctr(cfg), 0, 0, 0 };
		int r = rn(100);
		uint64_t mask = o.ctr < FIXED ? (1ULL << cfg->width_gp) - 1 :
						(1ULL << cfg->width_fixed) - 1;
		enum op_type prev = tr->n ? tr->ops[tr->n - 1].type : OP_ENTRY;

		if (r < 33) {
			gen_emul(&o, g, tol, mask, prev);
			/*
			 * Emulate ops in a row would share an exit: an entry
			 * between them keeps a run within 130.
			 */
			if (prev == OP_EMUL && !(g->without & 1U << OP_ENTRY))
				push(tr, &alloc, (struct op){ OP_ENTRY, 0, 0,
							      0, 0 });
		} else if (r < 41) {
			o.type = OP_ENTRY;
		} else if (r < 50) {
			static const uint64_t codes[] = {
				EV_INSN, 0, EV_CYCLES, EV_REF
			};

			o.type = OP_NATIVE;
			o.b = codes[rn(4)];
			if (!o.b)
				o.b = ev_branch(cfg);
			o.a = rn(3) ? 1 + rn(8) : 1 + rn(200);
		} else if (r < 55) {
			o.type = rn(2) ? OP_RDPMC : OP_RDMSR_CTR;
		} else if (r < 57) {
			o.type = OP_RDMSR_STATUS;
		} else if (r < 63) {
			o.type = OP_WR_CTR;
			o.a = rn(3) ? near_wrap(mask, tol) : rnd() & mask;
		} else if (r < 70) {
			if (o.ctr >= FIXED) {
				uint64_t f = rn(3) ? (rn(2) ? 0xb : 0x3) : 0;

				o.type = OP_WR_FIXED_CTRL;
				o.a = 0;
				for (i = 0; i < cfg->nr_fixed; i++)
					o.a |= (uint64_t)(i == o.ctr - FIXED ?
						f : (rn(4) ? 0xb : 0)) << (4 * i);
			} else {
				o.type = OP_WR_EVSEL;
				o.a = rand_evsel(cfg);
				if (!rn(3))
					o.a &= ~EVSEL_EN;
			}
		} else if (r < 76) {
			if (cfg->version < 2)
				continue;
			o.type = OP_WR_GLOBAL_CTRL;
			o.a = rn(3) ? all : rn(2) ? 0 : all & rnd();
		} else if (r < 80) {
			if (cfg->version < 2)
				continue;
			o.type = OP_CLR_STATUS;
			o.a = rn(2) ? all : 1ULL << o.ctr;
		} else if (r < 82) {
			o.type = OP_HOST_RD_CTR;
		} else if (r < 84) {
			if (cfg->version < 2)
				continue;
			o.type = OP_HOST_RD_STATUS;
		} else if (r < 88) {
			/*
			 * The sync era counts emulated instructions on a
			 * filtered counter through the stale current_config of
			 * its last reprogram: no model of that, no filter ops.
			 */
			if (g->era_sync)
				continue;
			o.type = OP_FILTER;
			o.a = rn(2);
			o.b = rn(8);
			o.c = rn(8);
		} else if (r < 90) {
			/*
			 * at a userspace point, or (a bit of the stream's
			 * state, no draw: the seeds' ops stay) while the vCPU
			 * runs, batches pending
			 */
			o.type = rng_state >> 29 & 1 ? OP_PARAM_ASYNC : OP_PARAM;
			if (g->without & (1U << OP_PARAM))
				continue;
			o.a = g->tolerance >= 0 ? (unsigned int)g->tolerance :
				trace_tolerances[rn(ARRAY_SIZE(trace_tolerances))];
		} else if (r < 93) {
			o.type = OP_SAVE_RESTORE;
		} else if (r < 96) {
			int h = rn(3);

			if (h == 2 && cfg->version < 2)
				continue;
			if (h == 1 && o.ctr >= FIXED)
				h = 0;
			o.type = h == 0 ? OP_HOST_WR_CTR : h == 1 ?
				 OP_HOST_WR_EVSEL : OP_HOST_WR_STATUS;
			o.a = h == 0 ? (rn(2) ? near_wrap(mask, tol) :
					rnd() & mask) :
			      h == 1 ? rand_evsel(cfg) :
			      (rn(2) ? 0 : all & rnd());
		} else if (r < 97) {
			o.type = OP_SCHED_IN;
		} else {
			o.type = OP_ENTRY;
		}
		if (g->without & (1U << o.type))
			continue;
		o.c |= legacy_flag(cfg, &o);
		push(tr, &alloc, o);
		/* a write of the counter right after a wrap may have come */
		if (o.type == OP_EMUL && !rn(8) &&
		    !(g->without & (1U << OP_WR_CTR)))
			push(tr, &alloc, (struct op){ OP_WR_CTR, o.ctr,
				rn(2) ? near_wrap(mask, tol) : rnd() & mask,
				0, 0 });
	}
}

/*
 * The trace file format (docs/sim.md, "Trace files"): one line per op, as
 * the parser reads it back; a counterexample is printed this way.
 */
static void print_op(FILE *f, const struct op *o, int k)
{
	char line[160];
	int n = snprintf(line, sizeof(line), "%s", op_names[o->type]);

	switch (o->type) {
	case OP_EMUL:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIu64 " %s%s%s",
			      o->a, o->b ? "branch" : "instruction",
			      o->c & EMUL_B2B ? " b2b" : "",
			      o->c & EMUL_AFTER_WRMSR ? " after-wrmsr" : "");
		break;
	case OP_NATIVE:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIu64 " %#" PRIx64,
			      o->a, o->b);
		break;
	case OP_RDPMC:
	case OP_RDMSR_CTR:
	case OP_HOST_RD_CTR:
		n += snprintf(line + n, sizeof(line) - n, " %s%s",
			      ctr_name(o->ctr),
			      o->c & CTR_LEGACY ? " legacy" : "");
		break;
	case OP_WR_CTR:
	case OP_WR_EVSEL:
	case OP_HOST_WR_CTR:
	case OP_HOST_WR_EVSEL:
		n += snprintf(line + n, sizeof(line) - n, " %s %#" PRIx64 "%s",
			      ctr_name(o->ctr), o->a,
			      o->c & CTR_LEGACY ? " legacy" : "");
		break;
	case OP_WR_FIXED_CTRL:
	case OP_WR_GLOBAL_CTRL:
	case OP_CLR_STATUS:
	case OP_HOST_WR_STATUS:
		n += snprintf(line + n, sizeof(line) - n, " %#" PRIx64, o->a);
		break;
	case OP_FILTER:
		n += snprintf(line + n, sizeof(line) - n,
			      " %s events=%#" PRIx64 " fixed=%#x",
			      o->a ? "deny" : "allow", o->b, o->c);
		break;
	case OP_PARAM:
	case OP_PARAM_ASYNC:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIu64, o->a);
		break;
	default:
		break;
	}
	fprintf(f, "  %-44s # op %d\n", line, k);
}

static void print_cfg(FILE *f, const struct trace *tr)
{
	const struct sim_cfg *c = &tr->cfg;

	fprintf(f, "  vendor %s\n  version %d\n  gp %d %d\n",
		c->amd ? "amd" : "intel", c->version, c->nr_gp, c->width_gp);
	if (c->nr_fixed)
		fprintf(f, "  fixed %d %d\n", c->nr_fixed, c->width_fixed);
	fprintf(f, "  tolerance %u\n", tr->tolerance);
	if (tr->min_period)
		fprintf(f, "  min-period %" PRIu64 "\n", tr->min_period);
}

static void print_trace(FILE *f, const struct trace *tr)
{
	int k;

	fprintf(f, "  # a trace file: sim --trace FILE (kverify sim --trace FILE) replays it\n");
	print_cfg(f, tr);
	for (k = 0; k < tr->n; k++)
		print_op(f, &tr->ops[k], k);
	fprintf(f, "  end\n");
}

/* ---- reading a trace file ---- */

struct parse {
	const char *file;
	int line;
};

static void __printf(2, 3) parse_die(const struct parse *p,
				     const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sim: %s:%d: ", p->file, p->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (docs/sim.md, \"Trace files\", gives the format)\n");
	exit(2);
}

static uint64_t parse_u64(const struct parse *p, const char *tok,
			  const char *what)
{
	char *end;
	uint64_t v;

	if (!tok)
		parse_die(p, "%s missing", what);
	errno = 0;
	v = strtoull(tok, &end, 0);
	if (errno || end == tok || *end || *tok == '-')
		parse_die(p, "%s: '%s' is not a number", what, tok);
	return v;
}

static int parse_ctr(const struct parse *p, const struct sim_cfg *cfg,
		     const char *tok)
{
	unsigned int n;
	char c;

	if (!tok)
		parse_die(p, "a counter (gpN or fixedN) missing");
	if (sscanf(tok, "gp%u%c", &n, &c) == 1 && (int)n < cfg->nr_gp)
		return n;
	if (sscanf(tok, "fixed%u%c", &n, &c) == 1 && (int)n < cfg->nr_fixed)
		return FIXED + n;
	parse_die(p, "'%s' is no counter of this configuration (gp0-gp%d%s)",
		  tok, cfg->nr_gp - 1, cfg->nr_fixed ? ", fixed0-..." : "");
	return -1;
}

static uint64_t parse_event(const struct parse *p, const struct sim_cfg *cfg,
			    const char *tok)
{
	if (tok && !strcmp(tok, "instructions"))
		return EV_INSN;
	if (tok && !strcmp(tok, "branches"))
		return ev_branch(cfg);
	if (tok && !strcmp(tok, "cycles"))
		return EV_CYCLES;
	if (tok && !strcmp(tok, "ref-cycles"))
		return EV_REF;
	return parse_u64(p, tok, "the event (instructions, branches, cycles, ref-cycles or an event select)");
}

/* "vendor", "version", "gp", "fixed", "tolerance" come before the first op. */
/*
 * A configuration line of a trace file ("vendor", "version", "gp", "fixed",
 * "tolerance", "min-period"): 1 if @name is one, read into @tr.
 */
static int parse_cfg_line(const struct parse *p, struct trace *tr,
			  const char *name, char **save, int *have_vendor)
{
	struct sim_cfg *cfg = &tr->cfg;
	const char *tok;
	uint64_t a, b;
	int gp = !strcmp(name, "gp");

	if (strcmp(name, "vendor") && strcmp(name, "version") && !gp &&
	    strcmp(name, "fixed") && strcmp(name, "tolerance") &&
	    strcmp(name, "min-period"))
		return 0;
	tok = strtok_r(NULL, " \t\r\n", save);
	if (!strcmp(name, "vendor")) {
		if (!tok || (strcmp(tok, "intel") && strcmp(tok, "amd")))
			parse_die(p, "vendor is intel or amd");
		cfg->amd = !strcmp(tok, "amd");
		*have_vendor = 1;
		if (cfg->amd)
			cfg->nr_fixed = 0;
	} else if (!strcmp(name, "version")) {
		a = parse_u64(p, tok, "the PMU version");
		if (a < 1 || a > 2)
			parse_die(p, "PMU version 1 or 2, not %" PRIu64, a);
		cfg->version = a;
	} else if (!strcmp(name, "tolerance")) {
		a = parse_u64(p, tok, "the tolerance");
		if (a > 4294967295ULL)
			parse_die(p, "the tolerance is at most 4294967295");
		tr->tolerance = a;
	} else if (!strcmp(name, "min-period")) {
		a = parse_u64(p, tok, "the host's minimum period");
		if (a > 4096)
			parse_die(p, "the host's minimum period is at most 4096");
		tr->min_period = a;
	} else {
		a = parse_u64(p, tok, "the number of counters");
		b = parse_u64(p, strtok_r(NULL, " \t\r\n", save),
			      "the counters' width in bits");
		if (a > (gp ? 8U : 3U) || (gp && !a) || b < 8 || b > 48)
			parse_die(p, "%s: 1-8 gp or 0-3 fixed counters, 8-48 bits wide",
				  name);
		*(gp ? &cfg->nr_gp : &cfg->nr_fixed) = a;
		*(gp ? &cfg->width_gp : &cfg->width_fixed) = b;
	}
	tok = strtok_r(NULL, " \t\r\n", save);
	if (tok)
		parse_die(p, "'%s' after %s's values", tok, name);
	return 1;
}

/* "legacy" after a counter op: its legacy MSR (op_ctr_msr()). */
static void parse_legacy(const struct parse *p, const struct sim_cfg *cfg,
			 struct op *o)
{
	if (o->type != OP_WR_CTR && o->type != OP_HOST_WR_CTR &&
	    o->type != OP_RDMSR_CTR && o->type != OP_HOST_RD_CTR)
		parse_die(p, "'legacy' follows only a counter's read or write");
	if (o->ctr >= FIXED || (cfg->amd && o->ctr >= 4))
		parse_die(p, "a legacy MSR is Intel's PERFCTR0-7 or AMD's K7 PERFCTR0-3");
	o->c |= CTR_LEGACY;
}

static void parse_trace(const char *file, struct trace *tr)
{
	struct parse p = { file, 0 };
	struct sim_cfg *cfg = &tr->cfg;
	char buf[1024], *save, *tok, *hash;
	int alloc = 0, seen_op = 0, have_vendor = 0;
	FILE *f = fopen(file, "r");

	memset(tr, 0, sizeof(*tr));
	cfg->version = 2;
	cfg->nr_gp = 1;
	cfg->width_gp = 48;
	cfg->width_fixed = 48;
	if (!f) {
		fprintf(stderr, "sim: cannot read %s: %s\n", file,
			strerror(errno));
		exit(2);
	}
	while (fgets(buf, sizeof(buf), f)) {
		struct op o = { OP_ENTRY, 0, 0, 0, 0 };
		const char *name;
		int i;

		p.line++;
		if (!strchr(buf, '\n') && !feof(f))
			parse_die(&p, "line longer than %zu characters",
				  sizeof(buf) - 2);
		if (!strncmp(buf, "COUNTEREXAMPLE", 14))
			continue;
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		name = strtok_r(buf, " \t\r\n", &save);
		if (!name)
			continue;
		if (!strcmp(name, "end"))
			break;
		if (parse_cfg_line(&p, tr, name, &save, &have_vendor)) {
			if (seen_op)
				parse_die(&p, "'%s' after the first op: the configuration comes first",
					  name);
			continue;
		}
		if (!seen_op) {
			seen_op = 1;
			if (!have_vendor)
				parse_die(&p, "no 'vendor intel' or 'vendor amd' before the first op");
			if (cfg->amd && cfg->nr_fixed)
				parse_die(&p, "AMD has no fixed counters");
			if (cfg->amd && cfg->width_gp != 48)
				parse_die(&p, "AMD counters are 48 bits wide");
			if (cfg->amd && cfg->nr_gp != 4 && cfg->nr_gp != 6)
				parse_die(&p, "AMD has 4 or 6 gp counters");
			if (!cfg->amd && cfg->version != 2)
				parse_die(&p, "Intel is PMU version 2 here");
			if (era_sync && cfg->amd && cfg->version > 1)
				parse_die(&p, "the sync era has no AMD PerfMonV2: version 1");
		}
		for (i = 0; i < NR_OPS; i++)
			if (!strcmp(name, op_names[i]))
				break;
		if (i == NR_OPS)
			parse_die(&p, "no op '%s'", name);
		o.type = i;
		switch (o.type) {
		case OP_EMUL:
			o.a = parse_u64(&p, strtok_r(NULL, " \t\r\n", &save),
					"the number of emulated instructions");
			if (!o.a || o.a > 1000000)
				parse_die(&p, "1 to 1000000 emulated instructions");
			tok = strtok_r(NULL, " \t\r\n", &save);
			if (!tok || (strcmp(tok, "instruction") &&
				     strcmp(tok, "branch")))
				parse_die(&p, "emulate N instruction|branch [b2b] [after-wrmsr]");
			o.b = !strcmp(tok, "branch");
			while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
				if (!strcmp(tok, "b2b"))
					o.c |= EMUL_B2B;
				else if (!strcmp(tok, "after-wrmsr"))
					o.c |= EMUL_AFTER_WRMSR;
				else
					parse_die(&p, "'%s': emulate takes b2b and after-wrmsr",
						  tok);
			}
			break;
		case OP_NATIVE:
			o.a = parse_u64(&p, strtok_r(NULL, " \t\r\n", &save),
					"the number of native events");
			o.b = parse_event(&p, cfg, strtok_r(NULL, " \t\r\n", &save));
			break;
		case OP_RDPMC:
		case OP_RDMSR_CTR:
		case OP_HOST_RD_CTR:
			o.ctr = parse_ctr(&p, cfg, strtok_r(NULL, " \t\r\n", &save));
			break;
		case OP_WR_CTR:
		case OP_WR_EVSEL:
		case OP_HOST_WR_CTR:
		case OP_HOST_WR_EVSEL:
			o.ctr = parse_ctr(&p, cfg, strtok_r(NULL, " \t\r\n", &save));
			if ((o.type == OP_WR_EVSEL || o.type == OP_HOST_WR_EVSEL) &&
			    o.ctr >= FIXED)
				parse_die(&p, "fixed counters have no EVENTSEL: wrmsr-fixed-ctrl");
			o.a = parse_u64(&p, strtok_r(NULL, " \t\r\n", &save),
					"the value");
			break;
		case OP_WR_FIXED_CTRL:
		case OP_WR_GLOBAL_CTRL:
		case OP_CLR_STATUS:
		case OP_HOST_WR_STATUS:
			o.a = parse_u64(&p, strtok_r(NULL, " \t\r\n", &save),
					"the value");
			if (o.type != OP_WR_FIXED_CTRL && cfg->version < 2)
				parse_die(&p, "%s needs PMU version 2", name);
			if (o.type == OP_WR_FIXED_CTRL && !cfg->nr_fixed)
				parse_die(&p, "no fixed counters");
			break;
		case OP_FILTER: {
			uint64_t ev = 0, fx = 0;

			tok = strtok_r(NULL, " \t\r\n", &save);
			if (!tok || (strcmp(tok, "allow") && strcmp(tok, "deny")))
				parse_die(&p, "set-filter allow|deny events=MASK fixed=MASK");
			o.a = !strcmp(tok, "deny");
			while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
				if (!strncmp(tok, "events=", 7))
					ev = parse_u64(&p, tok + 7, "events=");
				else if (!strncmp(tok, "fixed=", 6))
					fx = parse_u64(&p, tok + 6, "fixed=");
				else
					parse_die(&p, "'%s': set-filter takes events=MASK (bit 0 instructions, 1 branches, 2 cycles) and fixed=MASK",
						  tok);
			}
			if (ev > 7 || fx > 7)
				parse_die(&p, "events= and fixed= are masks of 3 bits");
			o.b = ev;
			o.c = fx;
			break;
		}
		case OP_PARAM:
		case OP_PARAM_ASYNC:
			o.a = parse_u64(&p, strtok_r(NULL, " \t\r\n", &save),
					"the tolerance");
			if (o.a > 4294967295ULL)
				parse_die(&p, "the tolerance is at most 4294967295");
			break;
		default:
			break;
		}
		tok = o.type != OP_EMUL && o.type != OP_FILTER ?
		      strtok_r(NULL, " \t\r\n", &save) : NULL;
		if (tok && !strcmp(tok, "legacy")) {
			parse_legacy(&p, cfg, &o);
			tok = strtok_r(NULL, " \t\r\n", &save);
		}
		if (tok)
			parse_die(&p, "'%s' after %s's arguments", tok, name);
		push(tr, &alloc, o);
	}
	if (ferror(f)) {
		fprintf(stderr, "sim: cannot read %s: %s\n", file,
			strerror(errno));
		exit(2);
	}
	fclose(f);
	if (!have_vendor) {
		p.line++;
		parse_die(&p, "no 'vendor intel' or 'vendor amd': not a trace");
	}
}

/* ---- one trace: each tree against the model, then the differential ---- */

/*
 * The baseline: pristine plus the series' Fixes: patches (kverify sim
 * --baseline), or the pristine tree itself when the program has none.
 */
#define __weak __attribute__(( \
	weak))
extern const struct sim_tree sim_tree_baseline __weak;

static const struct sim_tree *baseline(void)
{
	return &sim_tree_baseline ? &sim_tree_baseline : &sim_tree_pristine;
}

static const char *baseline_name(void)
{
	return &sim_tree_baseline ? "baseline" : "pristine";
}

/*
 * --fixes-only: the patched tree is pristine plus fixes and nothing else
 * (no parameter), i.e. it is its own baseline.  Invariant iv then excuses
 * no spurious overflow at a native op (perf's, whose period 0001 makes
 * exact); one at an emulated instruction (the 5.19-6.1 comparison in
 * kvm_pmu_incr_counter(), which no fix claims), or elsewhere one the
 * pristine tree gives too.
 */
static int fixes_only;

/* The tree whose spurious signals iv excuses, and its name. */
static const struct sim_tree *excuser(void)
{
	return fixes_only ? &sim_tree_pristine : baseline();
}

/* --fixes-only: a spurious signal at a native op, which nothing excuses. */
static int at_native(const struct trace *tr, const struct spurious *s)
{
	return fixes_only && s->op < tr->n && tr->ops[s->op].type == OP_NATIVE;
}

/* iii: with tolerance 0, the patched tree does what the baseline does. */
static int differential(const struct trace *tr, struct failure *f,
			char **plog, char **qlog)
{
	struct run p, q;
	int k, ret = 0;

	run_trace(&p, baseline(), tr, 1);
	run_trace(&q, &sim_tree_patched, tr, 1);
	for (k = 0; k <= tr->n && k < tr->n; k++) {
		size_t ps = k ? p.op_log[k - 1] : 0, qs = k ? q.op_log[k - 1] : 0;
		size_t pl = p.op_log[k] - ps, ql = q.op_log[k] - qs;

		if (!p.op_log[k] && k)
			break;
		if (pl != ql || memcmp(p.w.log + ps, q.w.log + qs, pl)) {
			f->failed = 1;
			f->op = k;
			snprintf(f->inv, sizeof(f->inv), "iii");
			snprintf(f->what, sizeof(f->what),
				 "with tolerance 0 the patched tree differs from the %s tree at op %d",
				 baseline_name(), k);
			if (plog)
				*plog = strndup(p.w.log + ps, pl);
			if (qlog)
				*qlog = strndup(q.w.log + qs, ql);
			ret = 1;
			break;
		}
	}
	run_fini(&p);
	run_fini(&q);
	return ret;
}

/*
 * iv: the first signal of the patched run @q that no wrap of the reference
 * explains and the baseline does not give either (at the same op, for the
 * same counter): the pristine trees have spurious overflows of their own
 * (the period bug, docs/sim.md), the baseline fixes them.
 */
static const struct spurious *new_spurious(const struct trace *tr,
					   const struct run *q)
{
	struct run b;
	const struct spurious *found = NULL;
	int i, j;

	if (!q->nsp)
		return NULL;
	/*
	 * The Fixes: patches fix the pristine trees' spurious overflows (the
	 * period bug, 0001): against them nothing is excused, so a defect
	 * inside one of them fails too, at tolerance 0 as at any.  A series
	 * of fixes only is its own baseline: there the pristine tree excuses
	 * what it gives at an emulated instruction (6.1's
	 * kvm_pmu_incr_counter(), which no patch claims to fix), nothing at a
	 * native op (at_native()).
	 */
	if (!fixes_only && &sim_tree_baseline)
		return &q->sp[0];
	run_trace(&b, excuser(), tr, 0);
	for (i = 0; i < q->nsp && !found; i++) {
		const struct spurious *s = &q->sp[i];

		if (at_native(tr, s)) {
			found = s;
			break;
		}
		if (fixes_only && s->op < tr->n &&
		    tr->ops[s->op].type == OP_EMUL)
			continue;
		for (j = 0; j < b.nsp; j++)
			if (b.sp[j].op == s->op && b.sp[j].ctr == s->ctr &&
			    b.sp[j].pmi == s->pmi)
				break;
		if (j == b.nsp)
			found = s;
	}
	run_fini(&b);
	return found;
}

/* Why iv's spurious signal @sp of @tr is not excused. */
static const char *excuse(const struct trace *tr, const struct spurious *sp)
{
	if (fixes_only)
		return at_native(tr, sp) ?
		       "fixes only, at a native op: perf's period is wrong" :
		       "the pristine tree signals none there";
	return &sim_tree_baseline ?
	       "none is excused against the Fixes: patches" :
	       "the pristine tree gives none there";
}

static int check_trace(const struct trace *tr, struct failure *f,
		       int self_only)
{
	struct run run;
	const struct spurious *sp;
	int diff_ok = !self_only && tr->tolerance == 0;
	int k;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < tr->n && diff_ok; k++)
		if ((tr->ops[k].type == OP_PARAM ||
		     tr->ops[k].type == OP_PARAM_ASYNC) && tr->ops[k].a)
			diff_ok = 0;
	run_trace(&run, &sim_tree_pristine, tr, 0);
	if (run.f.failed) {
		*f = run.f;
		snprintf(f->what + strlen(f->what),
			 sizeof(f->what) - strlen(f->what), " [pristine tree]");
		run_fini(&run);
		return 1;
	}
	run_fini(&run);
	if (self_only)
		return 0;
	run_trace(&run, &sim_tree_patched, tr, 0);
	sp = new_spurious(tr, &run);
	if (sp && (!run.f.failed || sp->op <= run.f.op)) {
		f->failed = 1;
		f->op = sp->op;
		snprintf(f->inv, sizeof(f->inv), "iv");
		if (sp->ctr < 0)
			snprintf(f->what, sizeof(f->what),
				 "a PMI is requested at op %d with no counter's overflow signalled before it; %s",
				 sp->op, excuse(tr, sp));
		else
			snprintf(f->what, sizeof(f->what),
				 "%s for %s at op %d, and the reference has no wrap of %s since its last signal: a spurious overflow; %s",
				 sp->pmi ? "a PMI is requested" :
				 "GLOBAL_STATUS's bit is set", ctr_name(sp->ctr),
				 sp->op, ctr_name(sp->ctr), excuse(tr, sp));
		run_fini(&run);
		return 1;
	}
	if (run.f.failed) {
		*f = run.f;
		run_fini(&run);
		return 1;
	}
	run_fini(&run);
	if (diff_ok && differential(tr, f, NULL, NULL))
		return 1;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Delta debugging over the ops: the shortest trace failing the same way. */
static void shrink(struct trace *tr, const struct failure *orig,
		   double budget, int self_only)
{
	double end = now() + budget;
	struct trace t = *tr;
	struct failure f;
	int chunk, i, progress = 1;

	t.ops = malloc(tr->n * sizeof(*tr->ops));
	while (progress && now() < end) {
		progress = 0;
		for (chunk = tr->n / 2; chunk >= 1 && now() < end; chunk /= 2) {
			for (i = 0; i + chunk <= tr->n && now() < end;) {
				memcpy(t.ops, tr->ops, i * sizeof(*t.ops));
				memcpy(t.ops + i, tr->ops + i + chunk,
				       (tr->n - i - chunk) * sizeof(*t.ops));
				t.n = tr->n - chunk;
				if (check_trace(&t, &f, self_only) &&
				    !strcmp(f.inv, orig->inv)) {
					memcpy(tr->ops, t.ops,
					       t.n * sizeof(*t.ops));
					tr->n = t.n;
					progress = 1;
				} else {
					i++;
				}
			}
		}
		/* fewer emulated instructions in a burst */
		for (i = 0; i < tr->n && now() < end; i++) {
			uint64_t a = tr->ops[i].a;

			if (tr->ops[i].type != OP_EMUL || a <= 1)
				continue;
			memcpy(t.ops, tr->ops, tr->n * sizeof(*t.ops));
			t.n = tr->n;
			t.ops[i].a = a / 2;
			if (check_trace(&t, &f, self_only) &&
			    !strcmp(f.inv, orig->inv)) {
				tr->ops[i].a = a / 2;
				progress = 1;
				i--;
			}
		}
	}
	free(t.ops);
}

/* The calls of @t, op by op, up to its failure or the end. */
static void print_calls(const struct trace *tr, const struct sim_tree *t,
			const char *name)
{
	struct run run;
	int k;

	run_trace(&run, t, tr, 1);
	printf("  the %s tree's calls, op by op:\n", name);
	for (k = 0; k <= tr->n && run.op_log; k++) {
		size_t s = k ? run.op_log[k - 1] : 0;

		if (run.op_log[k] < s)
			break;
		printf("  %3d%.*s", k, (int)(run.op_log[k] - s),
		       run.w.log + s);
		if (run.f.failed && k == run.f.op)
			break;
	}
	run_fini(&run);
}

static void print_counterexample(const struct trace *tr, const char *where,
				 const struct failure *f, int self_only)
{
	printf("COUNTEREXAMPLE %s invariant=%s\n", where, f->inv);
	print_trace(stdout, tr);
	printf("  at op %d: %s\n", f->op, f->what);
	if (!strcmp(f->inv, "iii")) {
		char *pl = NULL, *ql = NULL;
		struct failure g;

		differential(tr, &g, &pl, &ql);
		printf("  %s:%s  patched: %s", baseline_name(),
		       pl ? pl : "\n", ql ? ql : "\n");
		free(pl);
		free(ql);
	} else if (self_only) {
		print_calls(tr, &sim_tree_pristine, "pristine");
	} else {
		if (!strcmp(f->inv, "iv"))
			print_calls(tr, baseline(), baseline_name());
		print_calls(tr, &sim_tree_patched, "patched");
	}
}

/*
 * The figure: counter reprograms (perf_event_pause(), the costly part: the
 * perf context mutex and the PMU MSR writes) and perf_event_read_value()
 * calls per million emulated instructions, on the patched tree.  The
 * workload: one counter counting instructions with INT; each emulated
 * instruction in its own exit; 3 native instructions every FIG_NATIVE
 * emulated ones; a guest write of the counter every FIG_WRITE.
 */
#define FIG_N 1000000UL
#define FIG_NATIVE 101UL
#define FIG_WRITE 10007UL
/* invariant v: allowed per million beyond 1e6/(T+1), per counter write */
#define FIG_PER_WRITE 2
#define FIG_MIN_T 1000U

/* invariant vi: perf reads allowed per counter write (its read, its fold's) */
#define FIG_READS_PER_WRITE 2

struct fig {
	double reprograms, reads, bound, read_bound;
	unsigned long writes;
};

static struct fig figure(unsigned int tol, int amd)
{
	struct trace tr = { 0 };
	struct fig fg = { 0, 0, 0, 0, 0 };
	struct run run;
	unsigned long i, pauses, reads;
	struct op setup[3];

	tr.cfg.amd = amd;
	tr.cfg.version = 2;
	tr.cfg.nr_gp = amd ? 6 : 8;
	tr.cfg.nr_fixed = amd ? 0 : 3;
	tr.cfg.width_gp = 48;
	tr.cfg.width_fixed = 48;
	tr.tolerance = tol;
	setup[0] = (struct op){ OP_WR_EVSEL, 0, EVSEL_EN | EVSEL_OS |
				EVSEL_USR | EVSEL_INT | EV_INSN, 0, 0 };
	setup[1] = (struct op){ OP_WR_GLOBAL_CTRL, 0, 1, 0, 0 };
	setup[2] = (struct op){ OP_ENTRY, 0, 0, 0, 0 };
	run_init(&run, &sim_tree_patched, &tr, 0);
	for (i = 0; i < 3; i++)
		exec_op(&run, &setup[i], i);
	pauses = run.w.nr_pause;
	reads = run.w.nr_read;
	for (i = 0; i < FIG_N; i++) {
		run.w.t->emulate(run.w.vcpu, SIM_EMUL_INSN);
		run.w.t->entry(run.w.vcpu);
		if (i % FIG_NATIVE == FIG_NATIVE - 1) {
			sim_native(&run.w, EV_INSN, 3);
			if (run.w.t->requests(run.w.vcpu))
				run.w.t->entry(run.w.vcpu);
		}
		if (i % FIG_WRITE == FIG_WRITE - 1) {
			run.w.t->set_msr(run.w.vcpu, ctr_msr(&tr.cfg, 0),
					 0x1000, 0);
			run.w.t->entry(run.w.vcpu);
			fg.writes++;
		}
	}
	fg.reprograms = (run.w.nr_pause - pauses) * 1e6 / FIG_N;
	fg.reads = (run.w.nr_read - reads) * 1e6 / FIG_N;
	fg.bound = 1e6 / (tol + 1.0) + FIG_PER_WRITE * fg.writes * 1e6 / FIG_N +
		   2;
	/* the workload has no guest read: a fold may read, and a write */
	fg.read_bound = fg.reprograms +
			FIG_READS_PER_WRITE * fg.writes * 1e6 / FIG_N + 2;
	run_fini(&run);
	return fg;
}

/*
 * The figure at every tolerance, printed; invariant v (reprograms, on a
 * tree with the parameter, tolerances 1000 and up) and vi (perf reads, on
 * every tree at every tolerance): the first broken goes in @inv and @what.
 */
static void judge_figures(int batching, char *inv, char *what, size_t len)
{
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(tolerances); i++) {
		struct fig fg = figure(tolerances[i], 0);
		int judged = batching && tolerances[i] >= FIG_MIN_T;

		printf("FIGURE tolerance=%u reprograms_per_million=%.1f reads_per_million=%.1f",
		       tolerances[i], fg.reprograms, fg.reads);
		if (judged)
			printf(" bound=%.1f", fg.bound);
		printf(" read_bound=%.1f\n", fg.read_bound);
		if (judged && fg.reprograms > fg.bound && strcmp(inv, "v")) {
			snprintf(inv, 4, "v");
			snprintf(what, len,
				 "batching is not in effect: at tolerance %u the patched tree reprograms %.0f times per million emulated instructions (%.0f perf reads) in the figure's workload (a counter write every %lu, 3 native instructions every %lu), above the bound 1e6/(T+1) + %d per write + 2 = %.0f",
				 tolerances[i], fg.reprograms, fg.reads,
				 FIG_WRITE, FIG_NATIVE, FIG_PER_WRITE, fg.bound);
		}
		if (fg.reads > fg.read_bound && !*inv) {
			snprintf(inv, 4, "vi");
			snprintf(what, len,
				 "perf reads cost more than the guest's reads and the folds need: at tolerance %u the patched tree makes %.0f perf_event_read_value() calls per million emulated instructions in the figure's workload (no guest read, a counter write every %lu), above the bound: its %.0f reprograms + %d per write + 2 = %.0f",
				 tolerances[i], fg.reads, FIG_WRITE,
				 fg.reprograms, FIG_READS_PER_WRITE,
				 fg.read_bound);
		}
	}
	fflush(stdout);
}

/*
 * --trace FILE: the one trace of FILE, every invariant, no shrinking; the
 * patched tree's calls op by op (the pristine tree's with --self).
 */
static int replay(const char *file, int self_only)
{
	struct failure f;
	struct trace tr;
	int ret;

	parse_trace(file, &tr);
	printf("sim: %s era, the trace of %s (%d ops)%s\n",
	       sim_tree_pristine.era, file, tr.n,
	       self_only ? ", pristine against the model only" : "");
	ret = check_trace(&tr, &f, self_only);
	if (ret) {
		char where[512];

		snprintf(where, sizeof(where), "file=%s", file);
		print_counterexample(&tr, where, &f, self_only);
		printf("RESULT FAIL invariant %s: %s, %d ops: %s\n", f.inv,
		       file, tr.n, f.what);
	} else {
		print_trace(stdout, &tr);
		print_calls(&tr, self_only ? &sim_tree_pristine :
			    &sim_tree_patched, self_only ? "pristine" : "patched");
		printf("RESULT PASS 1 traces, the trace of %s\n", file);
	}
	free(tr.ops);
	return ret;
}

/* "--without set-filter,wrmsr-global-ctrl": op names, as traces print them. */
static int parse_without(const char *list, unsigned int *mask)
{
	char buf[256], *tok, *save = NULL;
	int i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_OPS; i++)
			if (!strcmp(tok, op_names[i]))
				break;
		if (i == NR_OPS || i == OP_ENTRY || i == OP_EMUL) {
			fprintf(stderr, "sim: --without: no op '%s' to leave out\n",
				tok);
			return -1;
		}
		*mask |= 1U << i;
	}
	return 0;
}

static int print_usage(void)
{
	fprintf(stderr, "usage: sim [--seed N] [--traces N] [--tolerance T] [--vendor intel|amd] [--self] [--sync] [--prev] [--batching] [--fixes-only] [--no-figures] [--shrink-seconds S] [--max-seconds S] [--without OP,...] [--min-period N] [--trace FILE]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct gen_opts g = { .vendor = -1, .tolerance = -1 };
	uint64_t seed = 1;
	long traces = 2000, idx, per_tol[ARRAY_SIZE(trace_tolerances)] = { 0 };
	int self_only = 0, figures = 1, i, batching = 0;
	char fig_what[512], fig_inv[4] = "";
	double shrink_s = 8, max_s = 0, t0 = now();
	struct failure f;
	struct trace tr;
	uint64_t max_late = 0;
	const char *trace_file = NULL;
	long min_period = -1;
	char where[64];

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!strcmp(a, "--self")) {
			self_only = 1;
			continue;
		}
		if (!strcmp(a, "--sync")) {
			g.era_sync = era_sync = 1;
			continue;
		}
		if (!strcmp(a, "--prev")) {
			g.era_prev = era_prev = 1;
			continue;
		}
		if (!strcmp(a, "--batching")) {
			batching = 1;
			continue;
		}
		if (!strcmp(a, "--fixes-only")) {
			fixes_only = 1;
			continue;
		}
		if (!strcmp(a, "--no-figures")) {
			figures = 0;
			continue;
		}
		if (!v)
			return print_usage();
		i++;
		if (!strcmp(a, "--seed")) {
			seed = strtoull(v, &end, 0);
		} else if (!strcmp(a, "--traces")) {
			traces = strtol(v, &end, 0);
		} else if (!strcmp(a, "--tolerance")) {
			g.tolerance = strtol(v, &end, 0);
		} else if (!strcmp(a, "--shrink-seconds")) {
			shrink_s = strtod(v, &end);
		} else if (!strcmp(a, "--trace")) {
			trace_file = v;
			end = (char *)"";
		} else if (!strcmp(a, "--min-period")) {
			min_period = strtol(v, &end, 0);
			if (min_period < 0 || min_period > 4096)
				return print_usage();
		} else if (!strcmp(a, "--max-seconds")) {
			max_s = strtod(v, &end);
		} else if (!strcmp(a, "--without")) {
			if (parse_without(v, &g.without))
				return print_usage();
			end = (char *)"";
		} else if (!strcmp(a, "--vendor")) {
			end = (char *)"";
			if (!strcmp(v, "intel"))
				g.vendor = 0;
			else if (!strcmp(v, "amd"))
				g.vendor = 1;
			else
				return print_usage();
		} else {
			return print_usage();
		}
		if (*end || traces <= 0 || g.tolerance > 4294967295L)
			return print_usage();
	}

	if (trace_file)
		return replay(trace_file, self_only);
	printf("sim: %s era, seed %" PRIu64 ", %ld traces%s\n",
	       sim_tree_pristine.era, seed, traces,
	       self_only ? ", pristine against the model only" : "");
	fflush(stdout);
	if (figures && !self_only)
		judge_figures(batching, fig_inv, fig_what, sizeof(fig_what));
	for (idx = 0; idx < traces; idx++) {
		unsigned int tol;

		if (max_s > 0 && now() - t0 > max_s) {
			printf("time budget of %.0f s spent after %ld of %ld traces\n",
			       max_s, idx, traces);
			traces = idx;
			break;
		}
		int ti = idx % ARRAY_SIZE(trace_tolerances);

		rng_state = seed * 0x100000001b3ULL + idx;
		tol = g.tolerance >= 0 ? (unsigned int)g.tolerance :
					 trace_tolerances[ti];
		gen_trace(&tr, &g, tol);
		tr.min_period = min_period >= 0 ? (uint64_t)min_period :
			trace_min_period(seed, idx);
		if (check_trace(&tr, &f, self_only)) {
			printf("FAIL after %ld traces (%.1f s)\n", idx + 1,
			       now() - t0);
			shrink(&tr, &f, shrink_s, self_only);
			check_trace(&tr, &f, self_only);
			snprintf(where, sizeof(where), "seed=%" PRIu64 " trace=%ld",
				 seed, idx);
			print_counterexample(&tr, where, &f, self_only);
			printf("RESULT FAIL invariant %s: seed %" PRIu64 " trace %ld, %d ops: %s\n",
			       f.inv, seed, idx, tr.n, f.what);
			free(tr.ops);
			return 1;
		}
		per_tol[ti]++;
		free(tr.ops);
	}
	(void)max_late;
	if (*fig_inv) {
		printf("RESULT FAIL invariant %s: %s\n", fig_inv, fig_what);
		return 1;
	}
	printf("RESULT PASS %ld traces, %.1f s\n", traces, now() - t0);
	return 0;
}
