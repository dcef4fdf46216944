// SPDX-License-Identifier: GPL-2.0
/*
 * Running a trace's ops on one tree: each op is the tree's call (an MSR
 * access, an emulated instruction, a VM-entry, an ioctl) and its effect on
 * the reference model, after which the invariants the op can break are
 * checked: exact reads (i), owed wraps delivered in time (ii-*), signals
 * no wrap explains noted for check.c (iv).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

/*
 * --fixes-only: the patched tree is pristine plus fixes and nothing else
 * (no parameter), i.e. it is its own baseline.  Invariant iv (check.c)
 * then excuses no spurious overflow raised in perf's overflow handler
 * (perf's, whose period 0001 makes exact); one KVM raises folding the
 * counter's emulated events (the comparison with a snapshot a counter
 * write offsets, which no fix claims: fold_signal()); and any other only
 * if the pristine tree raises it too, the same way, at the same op for
 * the same counter.
 */
int fixes_only;

/*
 * ii-native holds the patched tree to 0001 where the baseline is the
 * Fixes: patches (which carry it): the first wrap by native events alone
 * after a counter write is owed at once.  0001's pmc_update_sample_period()
 * re-periods a running event to get_sample_period(pmc, val), the distance
 * from the written value to the wrap (series/0001), and kvm_perf_overflow()
 * signals it through __kvm_perf_overflow() (7.3 pmu.c:200-243, 6.12
 * pmu.c:99-143), its bit at once and KVM_REQ_PMI with INT.  Against the
 * pristine tree (M2, docs/sim.md) and for a series of fixes only, it is
 * not owed.
 */
int owes_native(const struct sim_tree *t)
{
	return t == &sim_tree_patched && &sim_tree_baseline && !fixes_only;
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

/*
 * One op of each type: the tree's call and the reference's change.  An
 * entry of op_exec[] per enum op_type, as the kernel's ops tables are.
 */
static void op_entry(struct run *run, const struct op *o, int k)
{
	(void)o;
	do_entry(run, k);
}

/* One emulated instruction of @o: the reference first, then the tree. */
static void emulate_one(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;

	run->in_guest = 0;
	run->dirty = 1;
	/* the reference first: the tree may signal at once */
	emulated_in_ref(run, !!o->b, k);
	/* 5.19-6.1 fold in the call (reprogram_counter() right away) */
	w->fold_window = w->emul_unfolded;
	w->t->emulate(w->vcpu, o->b ? SIM_EMUL_BRANCH : SIM_EMUL_INSN);
	w->fold_window = 0;
	if (era_sync)
		w->emul_unfolded = 0;
	run->emulated++;
}

static void op_emul(struct run *run, const struct op *o, int k)
{
	uint64_t n;

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
		/* each its own exit, or back to back in one exit */
		if (n && !(o->c & EMUL_B2B))
			do_entry(run, k);
		emulate_one(run, o, k);
	}
}

static void op_rdpmc(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;
	int i = o->ctr, ret;
	uint64_t v = 0;

	guest_exit(run, k, 0);
	ret = w->t->rdpmc(w->vcpu, i >= FIXED && !run->r.cfg.amd ?
			  (1U << 30) | (i - FIXED) : (uint32_t)i, &v);
	sim_log(" =%#" PRIx64, v);
	if (ret)
		run_fail(run, k, "i", "RDPMC of %s faulted", ctr_name(i));
	else
		check_read(run, k, i, v, "RDPMC");
}

/* OP_RDMSR_CTR, the guest's, and OP_HOST_RD_CTR, userspace's. */
static void op_rd_ctr(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;
	int i = o->ctr, ret;
	uint64_t v = 0;

	read_point(run, k, o->type == OP_RDMSR_CTR);
	ret = w->t->get_msr(w->vcpu, op_ctr_msr(&run->r.cfg, i, o->c), &v,
			    o->type == OP_HOST_RD_CTR);
	sim_log(" =%#" PRIx64, v);
	if (ret)
		run_fail(run, k, "i", "RDMSR of %s faulted", ctr_name(i));
	else
		check_read(run, k, i, v, o->type == OP_RDMSR_CTR ?
			   "RDMSR" : "userspace RDMSR");
}

/* OP_RDMSR_STATUS and OP_HOST_RD_STATUS: a save checks what it saved. */
static void op_rd_status(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;
	uint64_t v = 0;

	read_point(run, k, o->type == OP_RDMSR_STATUS);
	w->t->get_msr(w->vcpu, status_msr(&run->r.cfg), &v,
		      o->type == OP_HOST_RD_STATUS);
	sim_log(" =%#" PRIx64, v);
	if (o->type == OP_HOST_RD_STATUS)
		check_save(run, k, v, 1);
}

/* Before a write: the guest's exits, userspace's comes back first. */
static void write_point(struct run *run, int k, int by_guest)
{
	if (by_guest) {
		guest_exit(run, k, 1);
	} else {
		userspace_point(run, k);
		run->dirty = run->msr_dirty = 1;
	}
}

/* OP_WR_CTR and OP_HOST_WR_CTR. */
static void op_wr_ctr(struct run *run, const struct op *o, int k)
{
	struct ref *r = &run->r;
	int i = o->ctr;
	uint64_t v;

	write_point(run, k, o->type == OP_WR_CTR);
	ref_fold_point(r, i, k);
	/* the full-width MSRs take the counter's width only */
	v = o->c & CTR_LEGACY ? o->a : o->a & r->c[i].mask;
	if (o->type == OP_WR_CTR)
		guest_wrmsr(run, k, op_ctr_msr(&r->cfg, i, o->c), v,
			    ctr_name(i));
	else
		host_wrmsr(run, k, op_ctr_msr(&r->cfg, i, o->c), v,
			   ctr_name(i));
	ref_set_value(r, i, written_value(r, i, v, o->c,
					  o->type == OP_HOST_WR_CTR));
}

/* OP_WR_EVSEL and OP_HOST_WR_EVSEL. */
static void op_wr_evsel(struct run *run, const struct op *o, int k)
{
	struct ref *r = &run->r;
	int i = o->ctr;
	char what[16];

	write_point(run, k, o->type == OP_WR_EVSEL);
	if (o->a != r->c[i].evsel)	/* a change, not a rewrite */
		ref_fold_point(r, i, k);
	snprintf(what, sizeof(what), "EVENTSEL%d", i);
	if (o->type == OP_WR_EVSEL)
		guest_wrmsr(run, k, evsel_msr(&r->cfg, i), o->a, what);
	else
		host_wrmsr(run, k, evsel_msr(&r->cfg, i), o->a, what);
	r->c[i].evsel = o->a;
}

static void op_wr_fixed_ctrl(struct run *run, const struct op *o, int k)
{
	struct ref *r = &run->r;
	uint64_t old = r->fixed_ctrl;
	int j;

	guest_exit(run, k, 1);
	for (j = FIXED; j < FIXED + r->cfg.nr_fixed; j++)
		if (((old ^ o->a) >> (4 * (j - FIXED))) & 0xf)
			ref_fold_point(r, j, k);
	guest_wrmsr(run, k, MSR_FIXED_CTR_CTRL, o->a, "FIXED_CTR_CTRL");
	r->fixed_ctrl = o->a;
}

static void op_wr_global_ctrl(struct run *run, const struct op *o, int k)
{
	struct ref *r = &run->r;
	int j;

	guest_exit(run, k, 1);
	for (j = 0; j < MAX_CTR; j++)
		if ((r->global_ctrl ^ o->a) >> j & 1)
			ref_fold_point(r, j, k);
	guest_wrmsr(run, k, gctrl_msr(&r->cfg), o->a, "GLOBAL_CTRL");
	r->global_ctrl = o->a;
}

static void op_clr_status(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;
	int ret;

	guest_exit(run, k, 0);
	ret = w->t->set_msr(w->vcpu, run->r.cfg.amd ? MSR_AMD_GLOBAL_STATUS_CLR :
			    MSR_GLOBAL_OVF_CTRL, o->a, 0);
	if (ret)
		run_fail(run, k, "i", "clearing GLOBAL_STATUS %#" PRIx64 " faulted",
			 o->a);
	run->r.status &= ~o->a;
}

static void op_host_wr_status(struct run *run, const struct op *o, int k)
{
	userspace_point(run, k);
	run->dirty = run->msr_dirty = 1;
	host_wrmsr(run, k, status_msr(&run->r.cfg), o->a, "GLOBAL_STATUS");
	run->r.status = o->a;
}

static void op_save_restore(struct run *run, const struct op *o, int k)
{
	(void)o;
	save_restore(run, k);
}

/* the vCPU thread was scheduled out and back in */
static void op_sched_in(struct run *run, const struct op *o, int k)
{
	(void)o;
	(void)k;
	run->in_guest = 0;
	run->dirty = 1;
	run->w.t->sched_in(run->w.vcpu);
}

static void op_filter(struct run *run, const struct op *o, int k)
{
	static const uint64_t codes[] = { EV_INSN, 0, EV_CYCLES };
	struct world *w = &run->w;
	struct ref *r = &run->r;
	int j, ret;

	userspace_point(run, k);
	run->dirty = run->msr_dirty = 1;
	for (j = 0; j < MAX_CTR; j++)
		ref_fold_point(r, j, k);
	r->filter_on = 1;
	r->filter_action = (int)o->a;
	r->filter_n = 0;
	for (j = 0; j < 3; j++)
		if (o->b >> j & 1)
			r->filter_events[r->filter_n++] =
				j == 1 ? ev_branch(&r->cfg) : codes[j];
	r->filter_fixed = o->c;
	ret = w->t->set_filter(w->vcpu, (int)o->a, r->filter_events,
			       r->filter_n, o->c);
	if (ret)
		run_fail(run, k, "i", "KVM_SET_PMU_EVENT_FILTER failed: %d", ret);
}

static void op_param(struct run *run, const struct op *o, int k)
{
	userspace_point(run, k);
	set_param(run, (unsigned int)o->a);
}

/*
 * a sysfs write on another CPU: between any two guest operations,
 * batches pending, the vCPU in the guest or not
 */
static void op_param_async(struct run *run, const struct op *o, int k)
{
	(void)k;
	sim_log(" [host sets the parameter]");
	set_param(run, (unsigned int)o->a);
}

static void (*const op_exec[NR_OPS])(struct run *run, const struct op *o,
				     int k) = {
	[OP_ENTRY] = op_entry,
	[OP_EMUL] = op_emul,
	[OP_NATIVE] = do_native,
	[OP_RDPMC] = op_rdpmc,
	[OP_RDMSR_CTR] = op_rd_ctr,
	[OP_HOST_RD_CTR] = op_rd_ctr,
	[OP_RDMSR_STATUS] = op_rd_status,
	[OP_HOST_RD_STATUS] = op_rd_status,
	[OP_WR_CTR] = op_wr_ctr,
	[OP_HOST_WR_CTR] = op_wr_ctr,
	[OP_WR_EVSEL] = op_wr_evsel,
	[OP_HOST_WR_EVSEL] = op_wr_evsel,
	[OP_WR_FIXED_CTRL] = op_wr_fixed_ctrl,
	[OP_WR_GLOBAL_CTRL] = op_wr_global_ctrl,
	[OP_CLR_STATUS] = op_clr_status,
	[OP_HOST_WR_STATUS] = op_host_wr_status,
	[OP_SAVE_RESTORE] = op_save_restore,
	[OP_SCHED_IN] = op_sched_in,
	[OP_FILTER] = op_filter,
	[OP_PARAM] = op_param,
	[OP_PARAM_ASYNC] = op_param_async,
};

void exec_op(struct run *run, const struct op *o, int k)
{
	struct world *w = &run->w;

	run->cur_op = k;
	if (o->type < NR_OPS && op_exec[o->type])
		op_exec[o->type](run, o, k);
	check_status(run);
	note_created(run);
	sim_log(" status=%#" PRIx64 "\n", w->t->global_status(w->vcpu));
	sim_log_flush();
}

void run_init(struct run *run, const struct sim_tree *t,
	      const struct trace *tr, int logging)
{
	memset(run, 0, sizeof(*run));
	run->tr = tr;
	run->w.t = t;
	run->w.logging = logging;
	sim_cur = &run->w;
	run->w.min_period = tr->min_period;
	t->set_tolerance(tr->tolerance);
	run->w.vcpu = t->create(&tr->cfg);
	ref_init(&run->r, &tr->cfg, tr->tolerance);
	run->owe_native = owes_native(t);
}

void run_fini(struct run *run)
{
	sim_cur = &run->w;
	run->w.t->destroy(run->w.vcpu);
	free(run->w.log);
	free(run->op_log);
	sim_cur = NULL;
}

/* One trace on one tree, to the end or the first failure. */
void run_trace(struct run *run, const struct sim_tree *t,
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
		run_fail(run, tr->n, "warn", "the tree's code warned: %s",
			 run->w.warned);
}

