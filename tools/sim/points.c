// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's side of a trace's ops, for ops.c: the MSRs an op touches, the
 * tree's calls (VM-entry and exit, guest and userspace MSR accesses, the
 * returns of KVM_RUN, the save and restore, the parameter) and the checks
 * of the invariants after them: exact reads (i), owed wraps delivered in
 * time (ii-*), signals no wrap explains noted for check.c (iv).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

void run_fail(struct run *run, int op, const char *inv, const char *fmt, ...)
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

/*
 * Counter @i's MSR for an op with flags @c: with CTR_LEGACY, Intel's
 * MSR_IA32_PERFCTRn (writes are 32 bits, sign-extended for the guest) or
 * AMD's MSR_K7_PERFCTRn (counters 0-3), else the full-width one.
 */
uint32_t op_ctr_msr(const struct sim_cfg *cfg, int i, uint32_t c)
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
uint64_t written_value(const struct ref *r, int i, uint64_t data,
		       uint32_t c, int host)
{
	if ((c & CTR_LEGACY) && i < FIXED && !r->cfg.amd && !host)
		data = (uint64_t)(int64_t)(int32_t)data;
	return data & r->c[i].mask;
}

uint32_t evsel_msr(const struct sim_cfg *cfg, int i)
{
	return cfg->amd ? MSR_F15H_CTL0 + 2 * i : MSR_EVNTSEL0 + i;
}

uint32_t status_msr(const struct sim_cfg *cfg)
{
	return cfg->amd ? MSR_AMD_GLOBAL_STATUS : MSR_GLOBAL_STATUS;
}

uint32_t gctrl_msr(const struct sim_cfg *cfg)
{
	return cfg->amd ? MSR_AMD_GLOBAL_CTL : MSR_GLOBAL_CTRL;
}

void check_read(struct run *run, int op, int i, uint64_t got,
		const char *how)
{
	uint64_t want = run->r.c[i].value;

	if (got != want)
		run_fail(run, op, "i", "%s of %s: expected %#" PRIx64 ", observed %#" PRIx64,
			 how, ctr_name(i), want, got);
}

/*
 * Signal @n of its kind, whose rings say if perf's handler raised it, or
 * KVM's fold of the counter's emulated events (world.h).
 */
static void note_spurious(struct run *run, int ctr, int pmi, uint64_t perf,
			  uint64_t fold, unsigned long n)
{
	struct spurious *sp;

	if (run->nsp == MAX_SPURIOUS)
		return;
	sp = &run->sp[run->nsp++];
	sp->op = run->cur_op;
	sp->ctr = ctr;
	sp->pmi = pmi;
	sp->perf = !!(perf & 1ULL << (n % 64));
	sp->fold = !!(fold & 1ULL << (n % 64));
}

/*
 * After every op: owed wraps the tree now shows (its bit set and, with
 * INT, a PMI requested for that counter since the wrap), and signals no
 * wrap of the reference explains (invariant iv, judged against the
 * baseline tree in check_trace()).
 */
void check_status(struct run *run)
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
				note_spurious(run, i, 0, w->sig_perf[i],
					      w->sig_fold[i], c->seen_sig);
		}
		for (; c->seen_pmi < w->nr_pmi[i]; c->seen_pmi++) {
			if (c->credit_pmi)
				c->credit_pmi--;
			else
				note_spurious(run, i, 1, w->pmi_perf[i],
					      w->pmi_fold[i], c->seen_pmi);
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
		note_spurious(run, -1, 1, w->pmi_other_perf,
			      w->pmi_other_fold, run->seen_pmi_other);
}

static const char *kind_what(const struct ref_ctr *c)
{
	return c->kind == 'a' ? "emulated instructions alone" :
	       c->kind == 'n' ? "native events alone after a counter write: with 0001 perf's period ends at the wrap" :
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
int native_refused(const struct run *run, uint64_t code)
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
			if (c->kind == 'n')
				run_fail(run, op, "ii-native",
					 "the wrap of %s by native events alone at op %d, after a counter write, is not signalled at once (0001 makes perf's period end at the wrap): the VM-entry after it shows GLOBAL_STATUS=%#" PRIx64 "%s; expected bit %d set%s",
					 ctr_name(i), c->wrap_op, st,
					 c->pmi && (st >> i & 1) ? " but no PMI for it" : "",
					 i, owed_what(c));
			else if (c->must)
				run_fail(run, op, "ii-lost",
					 "the wrap of %s at op %d (%s) is lost: KVM folded the counter at op %d, and the VM-entry after it shows GLOBAL_STATUS=%#" PRIx64 "%s; expected bit %d set%s",
					 ctr_name(i), c->wrap_op, kind_what(c),
					 c->fold_op, st,
					 c->pmi && (st >> i & 1) ? " but no PMI for it" : "",
					 i, owed_what(c));
			else if (c->kind == 'a')
				run_fail(run, op, "ii-a",
					 "the wrap of %s by emulated instructions alone at op %d is not signalled at once: the VM-entry after it shows GLOBAL_STATUS=%#" PRIx64 "%s; expected bit %d set%s",
					 ctr_name(i), c->wrap_op, st,
					 c->pmi && (st >> i & 1) ? " but no PMI for it" : "",
					 i, owed_what(c));
			else if (c->late >= c->owed_t)
				run_fail(run, op, "ii-b",
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
void check_native_late(struct run *run, int op)
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
			run_fail(run, op, "ii-b",
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
void note_created(struct run *run)
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

/*
 * The tree drains its requests (KVM_REQ_PMU: the reprograms): the first
 * drain after an emulated instruction folds its events (6.2 on).
 */
static void drain(struct world *w, void (*call)(void *vcpu))
{
	w->fold_window = w->emul_unfolded;
	call(w->vcpu);
	w->fold_window = w->emul_unfolded = 0;
}

void do_entry(struct run *run, int op)
{
	sim_log(" [entry]");
	drain(&run->w, run->w.t->entry);
	run->in_guest = 1;
	run->dirty = run->msr_dirty = run->unsynced = 0;
	check_entry(run, op);
	note_created(run);
}

void guest_enter(struct run *run, int op)
{
	if (!run->in_guest)
		do_entry(run, op);
}

/* The guest runs an instruction that exits to KVM: RDPMC, WRMSR. */
void guest_exit(struct run *run, int op, int msr_write)
{
	guest_enter(run, op);
	run->in_guest = 0;
	run->dirty = 1;
	if (msr_write)
		run->msr_dirty = 1;
}

/* The guest's WRMSR @msr=@val, named @what: a fault breaks invariant i. */
void guest_wrmsr(struct run *run, int op, uint32_t msr, uint64_t val,
		 const char *what)
{
	if (run->w.t->set_msr(run->w.vcpu, msr, val, 0))
		run_fail(run, op, "i", "WRMSR %s=%#" PRIx64 " faulted", what, val);
}

/* Userspace's KVM_SET_MSRS of @msr=@val. */
void host_wrmsr(struct run *run, int op, uint32_t msr, uint64_t val,
		const char *what)
{
	if (run->w.t->set_msr(run->w.vcpu, msr, val, 1))
		run_fail(run, op, "i", "userspace's write of %s=%#" PRIx64 " failed",
			 what, val);
}

/*
 * One return of KVM_RUN, @how's way, through the tree's own
 * kvm_arch_vcpu_ioctl_run() (glue.c): the tree decides whether its
 * kvm_pmu_sync_to_userspace() runs.  A completion (complete_userspace_io)
 * retires the exit's emulated instruction first, a branch if @branch:
 * the reference counts it, and the guest runs again before anything of
 * its own.  On a tree without the sync, what that instruction requested
 * waits for the next VM-entry (run->unsynced), as it did before 0004.
 */
static void kvm_run_return(struct run *run, enum sim_run how, int branch,
			   int k)
{
	struct world *w = &run->w;
	int cui = sim_run_cui(how);

	if (how == SIM_RUN_NORMAL)
		sim_log(" [to-userspace]");
	else
		sim_log(" [to-userspace: %s%s]", run_names[how],
			!cui ? "" : branch ? ":branch" : ":instruction");
	if (cui) {
		emulated_in_ref(run, branch, k);
		run->emulated++;
	}
	w->fold_window = w->emul_unfolded;
	w->t->to_userspace(w->vcpu, how, branch ? SIM_EMUL_BRANCH :
						  SIM_EMUL_INSN);
	w->fold_window = 0;
	if (!cui || era_sync || w->t->has_sync)
		w->emul_unfolded = 0;
	if (cui) {
		run->dirty = run->msr_dirty = 1;
		run->unsynced = !w->t->has_sync;
	}
}

/*
 * KVM_RUN returns to userspace before userspace op @op.  The vCPU has
 * re-entered the guest since anything happened (the trace model keeps
 * pristine honest at tolerance 0), and KVM_RUN returns from vcpu_run():
 * 0, or -EINTR with a signal pending (the op's run=signal).  The op's
 * other run= paths are a second KVM_RUN, made by userspace after that
 * return, that comes back early (immediate_exit, a failing pre_run, a
 * completion): the op then sees what that one left.
 */
void userspace_point(struct run *run, int op)
{
	const struct op *o = run->tr && op < run->tr->n ? &run->tr->ops[op] :
							  NULL;
	enum sim_run how = o ? (enum sim_run)o->run : SIM_RUN_NORMAL;

	if (run->dirty)
		do_entry(run, op);
	run->in_guest = 0;
	kvm_run_return(run, how == SIM_RUN_SIGNAL ? how : SIM_RUN_NORMAL, 0,
		       op);
	if (how > SIM_RUN_SIGNAL)
		kvm_run_return(run, how, o->run_branch, op);
	check_status(run);
}

/*
 * Userspace saves the vCPU (KVM_GET_MSRS, KVM_GET_LAPIC): every owed wrap
 * must be signalled already, its bit in GLOBAL_STATUS (PMU v2: @status,
 * what was saved) and its PMI in the LAPIC, not in vcpu->requests, which
 * no ioctl saves.
 */
void check_save(struct run *run, int op, uint64_t status, int v2)
{
	struct ref *r = &run->r;
	struct ref_ctr *c;
	int i, m;

	check_status(run);
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++) {
		if (!c->owed || (run->unsynced && c->wrap_op == op))
			continue;
		if (v2 && !(status >> i & 1))
			run_fail(run, op, "ii-save",
				 "userspace saved GLOBAL_STATUS=%#" PRIx64 " without the wrap of %s at op %d (expected bit %d set): the restored vCPU never sees it",
				 status, ctr_name(i), c->wrap_op, i);
		else
			run_fail(run, op, "ii-save",
				 "userspace saved the vCPU while the wrap of %s at op %d is not signalled (%s%s): the restored vCPU never sees it",
				 ctr_name(i), c->wrap_op,
				 v2 ? "its bit is set, " : "PMU v1: ",
				 c->pmi ? "no PMI requested for it" : "KVM's status does not have it");
	}
	if (!run->unsynced && run->w.t->requests(run->w.vcpu) & REQ_PMI_BIT)
		run_fail(run, op, "ii-save",
			 "userspace saved the vCPU with a PMI only in vcpu->requests (KVM_REQ_PMI), not delivered into the LAPIC: the restored vCPU never takes it");
}

/*
 * A save after an early return of a tree without the sync: the wraps of
 * the completion's instruction, still in vcpu->requests, go with the
 * source vCPU (what 0004 fixes): the restored one does not owe them.
 */
static void drop_unsynced(struct run *run, int op)
{
	struct ref *r = &run->r;
	struct ref_ctr *c;
	int i, m;

	if (!run->unsynced)
		return;
	for (m = 0; (c = valid_ctr(r, &m, &i)); m++)
		if (c->owed && c->wrap_op == op) {
			sim_log(" (no sync: the wrap of %s is lost)",
				ctr_name(i));
			c->owed = 0;
			r->nr_owed--;
		}
	run->unsynced = 0;
}

/* A read that traps: the guest's own (after an entry), or userspace's. */
void read_point(struct run *run, int op, int by_guest)
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
void save_restore(struct run *run, int k)
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
			run_fail(run, k, "i", "saving %s failed", ctr_name(i));
		check_read(run, k, i, ctr[i], "userspace RDMSR (save)");
		if (i < FIXED &&
		    w->t->get_msr(w->vcpu, evsel_msr(cfg, i), &evsel[i], 1))
			run_fail(run, k, "i", "saving EVENTSEL%d failed", i);
	}
	if (cfg->nr_fixed &&
	    w->t->get_msr(w->vcpu, MSR_FIXED_CTR_CTRL, &fctrl, 1))
		run_fail(run, k, "i", "saving FIXED_CTR_CTRL failed");
	if (v2 && (w->t->get_msr(w->vcpu, gctrl_msr(cfg), &gctrl, 1) ||
		   w->t->get_msr(w->vcpu, status_msr(cfg), &status, 1)))
		run_fail(run, k, "i", "saving GLOBAL_CTRL/GLOBAL_STATUS failed");
	sim_log(" saved status=%#" PRIx64, status);
	check_save(run, k, status, v2);
	if (run->f.failed)
		return;
	drop_unsynced(run, k);

	note_created(run);
	w->t->destroy(w->vcpu);
	w->emul_unfolded = 0;
	memset(w->events, 0, sizeof(w->events));
	sim_refused_clear(w);
	w->vcpu = w->t->create(cfg);
	sim_log(" [new vcpu]");
	if (r->filter_on && w->t->set_filter(w->vcpu, r->filter_action,
					     r->filter_events, r->filter_n,
					     r->filter_fixed))
		run_fail(run, k, "i", "setting the filter again failed");
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
void set_param(struct run *run, unsigned int tol)
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
