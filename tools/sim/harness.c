// SPDX-License-Identifier: GPL-2.0
/*
 * The sim harness: seeded random guest traces run on two trees' vPMU code
 * (pristine and patched, linked in as sim_tree_pristine and
 * sim_tree_patched), each against an architectural reference model.
 *
 * Invariants, checked after every event:
 *  i    every counter read (RDPMC, RDMSR, userspace) is exact;
 *  ii   every wrap of an enabled, allowed counter sets its GLOBAL_STATUS
 *       bit, and requests a PMI if the counter has INT, by the first
 *       VM-entry after "tolerance" more emulated instructions counted on
 *       it, and by the first VM-entry after KVM folds the counter for any
 *       reason (a write of its EVENTSEL, of the counter, of GLOBAL_CTRL or
 *       FIXED_CTR_CTRL, a filter change); a userspace read of GLOBAL_STATUS
 *       (a save) must already show it; no bit is set without a wrap;
 *  iii  with tolerance 0, the patched tree does what the pristine tree
 *       does, event for event: requests, perf calls, status, reads.
 *
 * Exit 0: every trace passed; 1: a counterexample; 2: bad usage.
 */
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
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#define MAX_CTR 64

enum op_type {
	OP_ENTRY, OP_EMUL, OP_NATIVE, OP_RDPMC, OP_RDMSR_CTR, OP_RDMSR_STATUS,
	OP_WR_CTR, OP_WR_EVSEL, OP_WR_FIXED_CTRL, OP_WR_GLOBAL_CTRL,
	OP_CLR_STATUS, OP_HOST_RD_CTR, OP_HOST_RD_STATUS, OP_FILTER,
	OP_PARAM, NR_OPS
};

static const char *const op_names[] = {
	"vm-entry", "emulate", "native", "rdpmc", "rdmsr-ctr",
	"rdmsr-status", "wrmsr-ctr", "wrmsr-evtsel", "wrmsr-fixed-ctrl",
	"wrmsr-global-ctrl", "clear-status", "host-rdmsr-ctr",
	"host-rdmsr-status", "set-filter", "set-param",
};

struct op {
	enum op_type type;
	int ctr;		/* counter index, 0..31 gp, 32.. fixed */
	uint64_t a, b;
	uint32_t c;
};

struct trace {
	struct sim_cfg cfg;
	unsigned int tolerance;
	struct op *ops;
	int n;
};

/* The architectural reference: what a real PMU would show. */
struct ref_ctr {
	int valid;
	uint64_t mask, value, evsel;
	int owed, must, pmi;
	unsigned int owed_t;
	uint64_t late;		/* emulated instructions since the wrap */
	unsigned long pmi_at;
	int wrap_op, fold_op;
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

struct run {
	struct world w;
	struct ref r;
	int in_guest, dirty, msr_dirty;
	struct failure f;
	size_t *op_log;		/* log offset after each op */
	unsigned long emulated;
	unsigned long pmi_mark;	/* PMI requests before the current event */
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

static const unsigned int tolerances[] = {
	0, 1, 1000, 100000, 10000000, 4294967295U,
};

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

/* The counter wrapped: its bit is owed until the tree shows it. */
static void ref_wrap(struct run *run, int i, int op, int emul)
{
	struct ref *r = &run->r;
	struct ref_ctr *c = &r->c[i];

	r->status |= 1ULL << i;
	/*
	 * A wrap by native events is perf's to deliver, as on hardware; the
	 * pristine trees deliver one late or lose one themselves after a
	 * counter write (docs/sim.md), so only emulated wraps are owed.
	 */
	if (c->owed || !emul)
		return;
	c->owed = 1;
	r->nr_owed++;
	c->must = 0;
	c->late = 0;
	/* never as late as a second wrap: the width caps the tolerance */
	c->owed_t = r->tolerance < c->mask ? r->tolerance : c->mask;
	c->pmi = ref_int(r, i);
	c->pmi_at = run->pmi_mark;
	c->wrap_op = op;
}

static void ref_count(struct run *run, int i, uint64_t n, int op, int emul)
{
	struct ref_ctr *c = &run->r.c[i];
	uint64_t old = c->value;

	if (emul && c->owed)
		c->late += n;
	c->value = (old + n) & c->mask;
	if (n > c->mask - old)
		ref_wrap(run, i, op, emul);
}

static void ref_fold_point(struct ref *r, int i, int op)
{
	if (r->c[i].valid && r->c[i].owed && !r->c[i].must) {
		r->c[i].must = 1;
		r->c[i].fold_op = op;
	}
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

/* After every op: owed wraps the tree now shows, and spurious bits. */
static void check_status(struct run *run)
{
	struct ref *r = &run->r;
	struct ref_ctr *c;
	uint64_t st;
	int i, m;

	if (!r->nr_owed)
		return;
	st = run->w.t->global_status(run->w.vcpu);
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
		if (c->owed && (st >> i & 1) &&
		    (!c->pmi || run->w.nr_req_pmi > c->pmi_at)) {
			c->owed = 0;
			r->nr_owed--;
			if (c->late > r->max_late)
				r->max_late = c->late;
		}
	}
}

/* At a VM-entry, after KVM_REQ_PMU was drained: what must be delivered. */
static void check_entry(struct run *run, int op)
{
	struct ref *r = &run->r;
	struct ref_ctr *c;
	uint64_t st;
	int i, m;

	check_status(run);
	if (!r->nr_owed)
		return;
	st = run->w.t->global_status(run->w.vcpu);
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
		if (!c->owed)
			continue;
		if (c->must)
			fail(run, op, "ii-lost",
			     "the wrap of %s by an emulated instruction at op %d is lost: KVM folded the counter at op %d, and the VM-entry after it shows GLOBAL_STATUS=%#" PRIx64 "; expected bit %d set%s",
			     ctr_name(i), c->wrap_op, c->fold_op, st, i,
			     c->pmi ? " and a PMI requested" : "");
		else if (c->late >= c->owed_t)
			fail(run, op, "ii-late",
			     "the wrap of %s by an emulated instruction at op %d is not delivered by the VM-entry %" PRIu64 " emulated instructions later (tolerance %u): GLOBAL_STATUS=%#" PRIx64 "; expected bit %d set%s",
			     ctr_name(i), c->wrap_op, c->late, c->owed_t, st,
			     i, c->pmi ? " and a PMI requested" : "");
	}
}

static void do_entry(struct run *run, int op)
{
	sim_log(" [entry]");
	run->w.t->entry(run->w.vcpu);
	run->in_guest = 1;
	run->dirty = run->msr_dirty = 0;
	check_entry(run, op);
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

static void userspace_point(struct run *run, int op)
{
	if (run->dirty)
		do_entry(run, op);
	run->in_guest = 0;
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

static void exec_op(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;
	struct ref *r = &run->r;
	const struct sim_cfg *cfg = &r->cfg;
	uint64_t v = 0, old;
	char what[16];
	int i = o->ctr, j, m, ret;
	uint64_t n;

	switch (o->type) {
	case OP_ENTRY:
		do_entry(run, k);
		break;
	case OP_EMUL:
		if (run->msr_dirty || (era_prev && run->dirty))
			do_entry(run, k);
		run->in_guest = 0;
		run->dirty = 1;
		for (n = 0; n < o->a && !run->f.failed; n++) {
			uint64_t code = o->b ? ev_branch(cfg) : EV_INSN;

			/* each its own exit, or back to back in one exit */
			if (n && !o->c)
				do_entry(run, k);
			run->in_guest = 0;
			run->dirty = 1;
			run->pmi_mark = w->nr_req_pmi;
			w->t->emulate(w->vcpu, o->b ? SIM_EMUL_BRANCH :
					       SIM_EMUL_INSN);
			run->emulated++;
			for (m = 0; m < r->nr; m++) {
				j = r->list[m];
				if (ref_counting_emul(r, j) &&
				    ref_code(r, j) == code)
					ref_count(run, j, 1, k, 1);
			}
		}
		break;
	case OP_NATIVE:
		guest_enter(run, k);
		for (j = 0; j < MAX_CTR; j++)
			if (ref_counting(r, j) && ref_code(r, j) == o->b)
				ref_count(run, j, o->a, k, 0);
		sim_native(w, o->b, o->a);
		if (w->t->requests(w->vcpu))
			do_entry(run, k);	/* the PMI kicks the vCPU */
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
		ret = w->t->get_msr(w->vcpu, ctr_msr(cfg, i), &v,
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
		if (o->type == OP_HOST_RD_STATUS) {
			for (j = 0; j < MAX_CTR; j++)
				if (r->c[j].valid && r->c[j].owed &&
				    !(v >> j & 1))
					fail(run, k, "ii-save",
					     "userspace saved GLOBAL_STATUS=%#" PRIx64 " without the wrap of %s by an emulated instruction at op %d (expected bit %d set): a migration loses it",
					     v, ctr_name(j), r->c[j].wrap_op, j);
		}
		break;
	case OP_WR_CTR:
		guest_exit(run, k, 1);
		ref_fold_point(r, i, k);
		v = o->a & r->c[i].mask;
		guest_wrmsr(run, k, ctr_msr(cfg, i), v, ctr_name(i));
		r->c[i].value = v;
		break;
	case OP_WR_EVSEL:
		guest_exit(run, k, 1);
		if (o->a != r->c[i].evsel)	/* a change, not a rewrite */
			ref_fold_point(r, i, k);
		snprintf(what, sizeof(what), "EVENTSEL%d", i);
		guest_wrmsr(run, k, evsel_msr(cfg, i), o->a, what);
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
		r->tolerance = (unsigned int)o->a;
		w->t->set_tolerance(r->tolerance);
		for (j = 0; j < MAX_CTR; j++)
			if (r->c[j].owed && r->tolerance > r->c[j].owed_t)
				r->c[j].owed_t = r->tolerance < r->c[j].mask ?
						 r->tolerance : r->c[j].mask;
		break;
	default:
		break;
	}
	check_status(run);
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
	static const int narrow[] = { 8, 10, 12 };

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
		/* widths come from the VMM's CPUID: 32 to 48, or narrow */
		cfg->width_gp = rn(8) ? 32 + (int)rn(17) : narrow[rn(3)];
		cfg->width_fixed = rn(8) ? 32 + (int)rn(17) : narrow[rn(3)];
	}
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

		if (r < 35) {
			o.type = OP_EMUL;
			o.a = rn(4) ? 1 : 1 + rn(4);
			o.c = o.a > 1 && rn(2);	/* back to back, one exit */
			/*
			 * 6.2-6.7 snapshot pmc->prev_counter at every emulated
			 * instruction and compare at the next VM-entry: a second
			 * one in the same exit overwrites the snapshot of a wrap
			 * (upstream fd89499a5151, 6.8, fixed it).  The pristine
			 * tree loses such wraps: no back-to-back runs there, and
			 * a VM-entry before every emulated instruction.
			 */
			if (g->era_prev)
				o.c = 0;
			/* a batch's worth, or a narrow counter's width */
			if (!rn(40))
				o.a = 1 + rn(tol < (1U << 12) ? tol + 2 :
					     (1U << 12));
			if (!rn(60))
				o.a = mask + 1 <= (1ULL << 12) ? mask + 1 + rn(3) :
								 1;
			if (o.a > 4)
				o.c = 0;
			o.b = rn(4) == 0;
		} else if (r < 45) {
			o.type = OP_ENTRY;
		} else if (r < 53) {
			static const uint64_t codes[] = {
				EV_INSN, 0, EV_CYCLES, EV_REF
			};

			o.type = OP_NATIVE;
			o.b = codes[rn(4)];
			if (!o.b)
				o.b = ev_branch(cfg);
			o.a = rn(3) ? 1 + rn(8) : 1 + rn(200);
		} else if (r < 59) {
			o.type = rn(2) ? OP_RDPMC : OP_RDMSR_CTR;
		} else if (r < 62) {
			o.type = OP_RDMSR_STATUS;
		} else if (r < 66) {
			o.type = OP_WR_CTR;
			o.a = rn(3) ? near_wrap(mask, tol) : rnd() & mask;
		} else if (r < 74) {
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
		} else if (r < 80) {
			if (cfg->version < 2)
				continue;
			o.type = OP_WR_GLOBAL_CTRL;
			o.a = rn(3) ? all : rn(2) ? 0 : all & rnd();
		} else if (r < 85) {
			if (cfg->version < 2)
				continue;
			o.type = OP_CLR_STATUS;
			o.a = rn(2) ? all : 1ULL << o.ctr;
		} else if (r < 88) {
			o.type = OP_HOST_RD_CTR;
		} else if (r < 90) {
			if (cfg->version < 2)
				continue;
			o.type = OP_HOST_RD_STATUS;
		} else if (r < 94) {
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
		} else if (r < 96) {
			o.type = OP_PARAM;
			o.a = g->tolerance >= 0 ? (unsigned int)g->tolerance :
				tolerances[rn(ARRAY_SIZE(tolerances))];
		} else {
			o.type = OP_ENTRY;
		}
		if (g->without & (1U << o.type))
			continue;
		push(tr, &alloc, o);
	}
}

static void print_op(FILE *f, const struct op *o, int k)
{
	fprintf(f, "  %3d %-18s", k, op_names[o->type]);
	switch (o->type) {
	case OP_EMUL:
		fprintf(f, "%" PRIu64 " x %s%s", o->a,
			o->b ? "branch" : "instruction",
			o->a < 2 ? "" : o->c ? ", back to back in one exit" :
			", one exit each");
		break;
	case OP_NATIVE:
		fprintf(f, "%" PRIu64 " x event %#" PRIx64, o->a, o->b);
		break;
	case OP_RDPMC:
	case OP_RDMSR_CTR:
	case OP_HOST_RD_CTR:
		fprintf(f, "%s", ctr_name(o->ctr));
		break;
	case OP_WR_CTR:
	case OP_WR_EVSEL:
		fprintf(f, "%s = %#" PRIx64, ctr_name(o->ctr), o->a);
		break;
	case OP_WR_FIXED_CTRL:
	case OP_WR_GLOBAL_CTRL:
	case OP_CLR_STATUS:
		fprintf(f, "%#" PRIx64, o->a);
		break;
	case OP_FILTER:
		fprintf(f, "%s events-mask %#" PRIx64 " fixed %#x",
			o->a ? "deny" : "allow", o->b, o->c);
		break;
	case OP_PARAM:
		fprintf(f, "tolerance = %" PRIu64, o->a);
		break;
	default:
		break;
	}
	fputc('\n', f);
}

static void print_cfg(FILE *f, const struct trace *tr)
{
	const struct sim_cfg *c = &tr->cfg;

	fprintf(f, "  %s PMU v%d, %d gp counters (%d bits), %d fixed (%d bits), tolerance %u\n",
		c->amd ? "AMD" : "Intel", c->version, c->nr_gp, c->width_gp,
		c->nr_fixed, c->nr_fixed ? c->width_fixed : 0, tr->tolerance);
}

/* ---- one trace: each tree against the model, then the differential ---- */

static int differential(const struct trace *tr, struct failure *f,
			char **plog, char **qlog)
{
	struct run p, q;
	int k, ret = 0;

	run_trace(&p, &sim_tree_pristine, tr, 1);
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
				 "with tolerance 0 the patched tree differs from the pristine tree at op %d",
				 k);
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

static int check_trace(const struct trace *tr, struct failure *f,
		       int self_only)
{
	struct run run;
	int diff_ok = !self_only && tr->tolerance == 0;
	int k;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < tr->n && diff_ok; k++)
		if (tr->ops[k].type == OP_PARAM && tr->ops[k].a)
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

static void print_counterexample(const struct trace *tr, uint64_t seed,
				 long idx, const struct failure *f,
				 int self_only)
{
	int k;

	printf("COUNTEREXAMPLE seed=%" PRIu64 " trace=%ld invariant=%s\n",
	       seed, idx, f->inv);
	print_cfg(stdout, tr);
	for (k = 0; k < tr->n; k++)
		print_op(stdout, &tr->ops[k], k);
	printf("  at op %d: %s\n", f->op, f->what);
	if (!strcmp(f->inv, "iii")) {
		char *pl = NULL, *ql = NULL;
		struct failure g;

		differential(tr, &g, &pl, &ql);
		printf("  pristine:%s  patched: %s", pl ? pl : "\n",
		       ql ? ql : "\n");
		free(pl);
		free(ql);
	} else {
		struct run run;

		run_trace(&run, self_only ? &sim_tree_pristine :
			  &sim_tree_patched, tr, 1);
		printf("  %s tree's calls, op by op:\n",
		       self_only ? "the pristine" : "the patched");
		for (k = 0; k <= tr->n && run.op_log; k++) {
			size_t s = k ? run.op_log[k - 1] : 0;

			if (run.op_log[k] < s)
				break;
			printf("  %3d%.*s", k, (int)(run.op_log[k] - s),
			       run.w.log + s);
			if (k == run.f.op)
				break;
		}
		run_fini(&run);
	}
}

/*
 * Counter reprograms (perf_event_pause(), the costly part) per million
 * emulated instructions, one exit each, on the patched tree.
 */
static double figure(unsigned int tol, int amd)
{
	struct trace tr = { 0 };
	struct run run;
	unsigned long i, n = 1000000, before;
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
	before = run.w.nr_pause;
	for (i = 0; i < n; i++) {
		run.w.t->emulate(run.w.vcpu, SIM_EMUL_INSN);
		run.w.t->entry(run.w.vcpu);
	}
	before = run.w.nr_pause - before;
	run_fini(&run);
	return before * 1e6 / n;
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
	fprintf(stderr, "usage: sim [--seed N] [--traces N] [--tolerance T] [--vendor intel|amd] [--self] [--sync] [--prev] [--no-figures] [--shrink-seconds S] [--max-seconds S] [--without OP,...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct gen_opts g = { .vendor = -1, .tolerance = -1 };
	uint64_t seed = 1;
	long traces = 2000, idx, per_tol[ARRAY_SIZE(tolerances)] = { 0 };
	int self_only = 0, figures = 1, i;
	double shrink_s = 8, max_s = 0, t0 = now();
	struct failure f;
	struct trace tr;
	uint64_t max_late = 0;

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

	printf("sim: %s era, seed %" PRIu64 ", %ld traces%s\n",
	       sim_tree_pristine.era, seed, traces,
	       self_only ? ", pristine against the model only" : "");
	fflush(stdout);
	if (figures && !self_only && 1) {
		for (i = 0; i < (int)ARRAY_SIZE(tolerances); i++)
			printf("FIGURE tolerance=%u reprograms_per_million=%.1f\n",
			       tolerances[i], figure(tolerances[i], 0));
	}
	for (idx = 0; idx < traces; idx++) {
		unsigned int tol;

		if (max_s > 0 && now() - t0 > max_s) {
			printf("time budget of %.0f s spent after %ld of %ld traces\n",
			       max_s, idx, traces);
			traces = idx;
			break;
		}
		int ti = idx % ARRAY_SIZE(tolerances);

		rng_state = seed * 0x100000001b3ULL + idx;
		tol = g.tolerance >= 0 ? (unsigned int)g.tolerance :
					 tolerances[ti];
		gen_trace(&tr, &g, tol);
		if (check_trace(&tr, &f, self_only)) {
			printf("FAIL after %ld traces (%.1f s)\n", idx + 1,
			       now() - t0);
			shrink(&tr, &f, shrink_s, self_only);
			check_trace(&tr, &f, self_only);
			print_counterexample(&tr, seed, idx, &f, self_only);
			printf("RESULT FAIL invariant %s: seed %" PRIu64 " trace %ld, %d ops: %s\n",
			       f.inv, seed, idx, tr.n, f.what);
			free(tr.ops);
			return 1;
		}
		per_tol[ti]++;
		free(tr.ops);
	}
	(void)max_late;
	printf("RESULT PASS %ld traces, %.1f s\n", traces, now() - t0);
	return 0;
}
