// SPDX-License-Identifier: GPL-2.0
/*
 * Included at the end of a generated unit: the harness's handle on the
 * tree's code.  It sets a vCPU's PMU up the way the vendor refresh would for
 * the configuration asked for, and calls the tree's entry points: the
 * emulated-instruction hook, the VM-entry's KVM_REQ_PMU drain, the MSR
 * paths, RDPMC and the event filter ioctl.  SIM_TREE names the unit.
 */

/* kvm_pmu_ops' constants are set once at module load. */
static void sim_set_const(const u64 *field, u64 v)
{
	memcpy((void *)field, &v, sizeof(v));
}

#ifdef SIM_ERA_PREV
/*
 * 6.2-6.7 name the reserved-bit masks "_mask" where 6.8+ say "_rsvd" (the
 * same bits); the status mask is global_ovf_ctrl_mask before 6.5.
 */
#define global_ctrl_rsvd global_ctrl_mask
#ifdef SIM_HAS_global_status_mask
#define global_status_rsvd global_status_mask
#else
#define global_status_rsvd global_ovf_ctrl_mask
#endif
#define fixed_ctr_ctrl_rsvd fixed_ctr_ctrl_mask

/* A vendor without the op: every event is one the guest's CPUID has. */
static bool sim_prev_event_available(struct kvm_pmc *pmc)
{
	(void)pmc;
	return true;
}

/*
 * The vendor ops that this era's common code calls (static_call()), set
 * where the tree calls them; a vendor without the function gets
 * sim_prev_event_available().
 */
static void sim_prev_ops(int amd)
{
	bool (*available)(struct kvm_pmc *pmc) = sim_prev_event_available;

	(void)available;
	if (amd) {
#if defined(SIM_HAS_kvm_x86_pmu_pmc_idx_to_pmc) && \
	defined(SIM_HAS_amd_pmc_idx_to_pmc)
		kvm_pmu_ops.pmc_idx_to_pmc = amd_pmc_idx_to_pmc;
#endif
#if defined(SIM_HAS_kvm_x86_pmu_pmc_is_enabled) && \
	defined(SIM_HAS_amd_pmc_is_enabled)
		kvm_pmu_ops.pmc_is_enabled = amd_pmc_is_enabled;
#endif
#ifdef SIM_HAS_amd_hw_event_available
		available = amd_hw_event_available;
#endif
#ifdef SIM_HAS_EVENTSEL_EVENT
		sim_set_const(&kvm_pmu_ops.EVENTSEL_EVENT, AMD64_EVENTSEL_EVENT);
#endif
	} else {
#if defined(SIM_HAS_kvm_x86_pmu_pmc_idx_to_pmc) && \
	defined(SIM_HAS_intel_pmc_idx_to_pmc)
		kvm_pmu_ops.pmc_idx_to_pmc = intel_pmc_idx_to_pmc;
#endif
#if defined(SIM_HAS_kvm_x86_pmu_pmc_is_enabled) && \
	defined(SIM_HAS_intel_pmc_is_enabled)
		kvm_pmu_ops.pmc_is_enabled = intel_pmc_is_enabled;
#endif
#ifdef SIM_HAS_intel_hw_event_available
		available = intel_hw_event_available;
#endif
#ifdef SIM_HAS_EVENTSEL_EVENT
		sim_set_const(&kvm_pmu_ops.EVENTSEL_EVENT,
			      ARCH_PERFMON_EVENTSEL_EVENT);
#endif
	}
#ifdef SIM_HAS_kvm_x86_pmu_hw_event_available
	kvm_pmu_ops.hw_event_available = available;
#endif
}
#endif

/* The counters of @cfg, valid and unreserved, as the vendor refresh would. */
static void sim_setup_counters(struct kvm_vcpu *vcpu,
			       const struct sim_cfg *cfg)
{
	struct kvm_pmu *pmu = &vcpu->arch.pmu;
	int i;

#ifdef SIM_ERA_SYNC
	pmu->global_ctrl_mask = ~0ULL;
	pmu->global_ovf_ctrl_mask = ~0ULL;
#else
	pmu->global_ctrl_rsvd = ~0ULL;
	pmu->global_status_rsvd = ~0ULL;
	pmu->fixed_ctr_ctrl_rsvd = ~0ULL;
#endif
	for (i = 0; i < cfg->nr_gp; i++) {
		struct kvm_pmc *pmc = &pmu->gp_counters[i];

		pmc->type = KVM_PMC_GP;
		pmc->idx = i;
		pmc->vcpu = vcpu;
		set_bit(i, pmu->all_valid_pmc_idx);
#ifdef SIM_ERA_SYNC
		pmu->global_ctrl_mask &= ~(1ULL << i);
		pmu->global_ovf_ctrl_mask &= ~(1ULL << i);
#else
		pmu->global_ctrl_rsvd &= ~(1ULL << i);
		pmu->global_status_rsvd &= ~(1ULL << i);
#endif
	}
	for (i = 0; i < cfg->nr_fixed; i++) {
		struct kvm_pmc *pmc = &pmu->fixed_counters[i];
		static const u64 fixed_events[] = { 0x00c0, 0x003c, 0x0300 };

		pmc->type = KVM_PMC_FIXED;
		pmc->idx = INTEL_PMC_IDX_FIXED + i;
		pmc->vcpu = vcpu;
		pmc->eventsel = fixed_events[i];
		set_bit(INTEL_PMC_IDX_FIXED + i, pmu->all_valid_pmc_idx);
#ifdef SIM_ERA_SYNC
		pmu->global_ctrl_mask &= ~(1ULL << (INTEL_PMC_IDX_FIXED + i));
		pmu->global_ovf_ctrl_mask &=
			~(1ULL << (INTEL_PMC_IDX_FIXED + i));
		pmu->fixed_ctr_ctrl_mask &= ~(0xbULL << (4 * i));
#else
		pmu->global_ctrl_rsvd &= ~(1ULL << (INTEL_PMC_IDX_FIXED + i));
		pmu->global_status_rsvd &=
			~(1ULL << (INTEL_PMC_IDX_FIXED + i));
		pmu->fixed_ctr_ctrl_rsvd &= ~(0xbULL << (4 * i));
#endif
	}
#ifdef SIM_ERA_SYNC
	if (!cfg->nr_fixed)
		pmu->fixed_ctr_ctrl_mask = ~0ULL;
#endif
}

static void *sim_create(const struct sim_cfg *cfg)
{
	struct kvm_vcpu *vcpu = calloc(1, sizeof(*vcpu));
	struct kvm *kvm = calloc(1, sizeof(*kvm));
	struct kvm_pmu *pmu = &vcpu->arch.pmu;
	int i;

	vcpu->kvm = kvm;
	vcpu->run = calloc(1, sizeof(*vcpu->run));
	vcpu->arch.mp_state = KVM_MP_STATE_RUNNABLE;
	kvm->arch.enable_pmu = true;
	sim_the_vcpu = vcpu;
	sim_amd = cfg->amd;
	sim_watch_status(&pmu->global_status);
	memset(&kvm_pmu_ops, 0, sizeof(kvm_pmu_ops));
	kvm_pmu_ops.deliver_pmi = sim_vendor_vcpu_noop;
	kvm_pmu_ops.cleanup = sim_vendor_vcpu_noop;
	if (cfg->amd) {
		kvm_pmu_ops.rdpmc_ecx_to_pmc = amd_rdpmc_ecx_to_pmc;
		kvm_pmu_ops.msr_idx_to_pmc = amd_msr_idx_to_pmc;
		kvm_pmu_ops.get_msr = amd_pmu_get_msr;
		kvm_pmu_ops.set_msr = amd_pmu_set_msr;
#ifdef SIM_ERA_PREV
		sim_prev_ops(1);
#elif !defined(SIM_ERA_SYNC)
		sim_set_const(&kvm_pmu_ops.EVENTSEL_EVENT, AMD64_EVENTSEL_EVENT);
#else
		kvm_pmu_ops.pmc_idx_to_pmc = amd_pmc_idx_to_pmc;
		kvm_pmu_ops.pmc_is_enabled = amd_pmc_is_enabled;
		kvm_pmu_ops.hw_event_available = amd_hw_event_available;
#endif
	} else {
		kvm_pmu_ops.rdpmc_ecx_to_pmc = intel_rdpmc_ecx_to_pmc;
		kvm_pmu_ops.msr_idx_to_pmc = intel_msr_idx_to_pmc;
		kvm_pmu_ops.get_msr = intel_pmu_get_msr;
		kvm_pmu_ops.set_msr = intel_pmu_set_msr;
#ifdef SIM_ERA_PREV
		sim_prev_ops(0);
#elif !defined(SIM_ERA_SYNC)
		sim_set_const(&kvm_pmu_ops.EVENTSEL_EVENT,
			      ARCH_PERFMON_EVENTSEL_EVENT);
#else
		kvm_pmu_ops.pmc_idx_to_pmc = intel_pmc_idx_to_pmc;
		kvm_pmu_ops.pmc_is_enabled = intel_pmc_is_enabled;
		kvm_pmu_ops.hw_event_available = intel_hw_event_available;
#endif
	}

	pmu->version = cfg->version;
	pmu->nr_arch_gp_counters = cfg->nr_gp;
	pmu->nr_arch_fixed_counters = cfg->nr_fixed;
	pmu->counter_bitmask[KVM_PMC_GP] = (1ULL << cfg->width_gp) - 1;
	pmu->counter_bitmask[KVM_PMC_FIXED] = cfg->nr_fixed ?
		(1ULL << cfg->width_fixed) - 1 : 0;
	pmu->available_event_types = 0x7f;	/* CPUID.0AH:EBX: all there */
	pmu->raw_event_mask = cfg->amd ? AMD64_RAW_EVENT_MASK : X86_RAW_EVENT_MASK;
	pmu->reserved_bits = cfg->amd ? 0xfffffff000280000ULL :
					0xffffffff00200000ULL;
	sim_setup_counters(vcpu, cfg);
	if (cfg->version < 2) {
		/* no GLOBAL_CTRL: counters run on their local enables alone */
		pmu->global_ctrl = 0;
	}
#ifdef SIM_ERA_MEDIATED
	kvm_pmu_eventsel.INSTRUCTIONS_RETIRED = 0x00c0;
	kvm_pmu_eventsel.BRANCH_INSTRUCTIONS_RETIRED = cfg->amd ? 0x00c2 : 0x00c4;
	for (i = 0; i < X86_PMC_IDX_MAX; i++) {
		struct kvm_pmc *pmc = kvm_pmc_idx_to_pmc(pmu, i);

		if (pmc)
			kvm_pmu_recalc_pmc_emulation(pmu, pmc);
	}
#elif defined(SIM_ERA_EMULATED)
	kvm_pmu_eventsel.INSTRUCTIONS_RETIRED = 0x00c0;
	kvm_pmu_eventsel.BRANCH_INSTRUCTIONS_RETIRED = cfg->amd ? 0x00c2 : 0x00c4;
#endif
	return vcpu;
}

static void sim_destroy(void *v)
{
	struct kvm_vcpu *vcpu = v;
	struct kvm_pmu *pmu = &vcpu->arch.pmu;
	unsigned int i;

	for (i = 0; i < pmu->nr_arch_gp_counters; i++)
		if (pmu->gp_counters[i].perf_event)
			perf_event_release_kernel(pmu->gp_counters[i].perf_event);
	for (i = 0; i < pmu->nr_arch_fixed_counters; i++)
		if (pmu->fixed_counters[i].perf_event)
			perf_event_release_kernel(pmu->fixed_counters[i].perf_event);
	free(vcpu->kvm->arch.pmu_event_filter);
	free(vcpu->run);
	free(vcpu->kvm);
	free(vcpu);
}

static void sim_emulate(void *v, enum sim_emul kind)
{
	struct kvm_vcpu *vcpu = v;

	sim_the_vcpu = vcpu;
#ifdef SIM_ERA_MEDIATED
	if (kind == SIM_EMUL_INSN)
		kvm_pmu_instruction_retired(vcpu);
	else
		kvm_pmu_branch_retired(vcpu);
#elif defined(SIM_ERA_EMULATED)
	kvm_pmu_trigger_event(vcpu, kind == SIM_EMUL_INSN ?
			      kvm_pmu_eventsel.INSTRUCTIONS_RETIRED :
			      kvm_pmu_eventsel.BRANCH_INSTRUCTIONS_RETIRED);
#else
	kvm_pmu_trigger_event(vcpu, kind == SIM_EMUL_INSN ?
			      PERF_COUNT_HW_INSTRUCTIONS :
			      PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
#endif
}

static void sim_entry(void *v)
{
	struct kvm_vcpu *vcpu = v;

	sim_the_vcpu = vcpu;
	/* vcpu_enter_guest()'s order: KVM_REQ_PMU, then KVM_REQ_PMI */
	if (test_and_clear_bit(KVM_REQ_PMU, &vcpu->requests))
		kvm_pmu_handle_event(vcpu);
	if (test_and_clear_bit(KVM_REQ_PMI, &vcpu->requests))
		kvm_pmu_deliver_pmi(vcpu);
}

/*
 * Each path of KVM_RUN (enum sim_run): how the stubs of x86_run.h are set
 * up for it, and what the tree's function then returns and calls.
 */
static const struct sim_run_path {
	int vcpu_run;		/* vcpu_run()'s result */
	int pre_run_fails;	/* the vendor pre_run returns 0 */
	int immediate;		/* !wants_to_run (immediate_exit) */
	int cui_ret;		/* complete_userspace_io's result, if set */
	int r, ran;		/* what KVM_RUN returns; whether vcpu_run() */
	const char *what;	/* the warning when it is not */
} sim_run_paths[NR_SIM_RUN] = {
#define SIM_PATH "kvm_arch_vcpu_ioctl_run() did not take the path x86_run.h set up: "
	[SIM_RUN_NORMAL] = { 0, 0, 0, 1, 0, 1,
		SIM_PATH "vcpu_run() returning 0" },
	[SIM_RUN_SIGNAL] = { -EINTR, 0, 0, 1, -EINTR, 1,
		SIM_PATH "vcpu_run() returning -EINTR" },
	[SIM_RUN_IMMEDIATE] = { 0, 0, 1, 1, -EINTR, 0,
		SIM_PATH "!wants_to_run" },
	[SIM_RUN_PRE_RUN_FAILS] = { 0, 1, 0, 1, 0, 0,
		SIM_PATH "a failing pre_run" },
	[SIM_RUN_CUI_EXIT] = { 0, 0, 0, 0, 0, 0,
		SIM_PATH "complete_userspace_io returning 0" },
	[SIM_RUN_CUI_IMMEDIATE] = { 0, 0, 1, 1, -EINTR, 0,
		SIM_PATH "complete_userspace_io, then !wants_to_run" },
	[SIM_RUN_CUI_PRE_RUN_FAILS] = { 0, 1, 0, 1, 0, 0,
		SIM_PATH "complete_userspace_io, then a failing pre_run" },
#undef SIM_PATH
};

/*
 * KVM_RUN returns to userspace @run's way, through the tree's own
 * kvm_arch_vcpu_ioctl_run(): the tree decides whether its
 * kvm_pmu_sync_to_userspace() runs.  A function that does not take the
 * path the stubs set up is not the shape the sim knows: a warning, which
 * fails the trace.
 */
static void sim_to_userspace(void *v, enum sim_run run, enum sim_emul kind)
{
	const struct sim_run_path *p = &sim_run_paths[run];
	struct kvm_vcpu *vcpu = v;
	int r, cui = sim_run_cui(run);

	sim_the_vcpu = vcpu;
	memset(&sim_run_ctl, 0, sizeof(sim_run_ctl));
	sim_run_ctl.vcpu_run = p->vcpu_run;
	sim_run_ctl.pre_run = !p->pre_run_fails;
	sim_run_ctl.cui_ret = p->cui_ret;
	sim_run_ctl.cui_kind = kind;
	vcpu->wants_to_run = !p->immediate;
	vcpu->run->immediate_exit = p->immediate;
	vcpu->arch.complete_userspace_io = cui ? sim_complete_userspace_io :
						 NULL;
	r = kvm_arch_vcpu_ioctl_run(vcpu);
	if (r != p->r || sim_run_ctl.ran != p->ran ||
	    sim_run_ctl.cui_ran != cui || vcpu->arch.complete_userspace_io)
		sim_warn(p->what);
}

/* kvm_arch_vcpu_load() after the vCPU thread was scheduled out. */
static void sim_sched_in(void *v)
{
	struct kvm_vcpu *vcpu = v;
	struct kvm_pmu *pmu = &vcpu->arch.pmu;

	sim_the_vcpu = vcpu;
	if (pmu->version && pmu->event_count) {
		pmu->need_cleanup = true;
		kvm_make_request(KVM_REQ_PMU, vcpu);
	}
}

static int sim_set_msr(void *v, uint32_t msr, uint64_t data, int host)
{
	struct msr_data info = { .host_initiated = host, .index = msr,
				 .data = data };

	sim_the_vcpu = v;
	return kvm_pmu_set_msr(v, &info);
}

static int sim_get_msr(void *v, uint32_t msr, uint64_t *data, int host)
{
	struct msr_data info = { .host_initiated = host, .index = msr };
	int ret;

	sim_the_vcpu = v;
	ret = kvm_pmu_get_msr(v, &info);
	*data = info.data;
	return ret;
}

static int sim_rdpmc(void *v, uint32_t ecx, uint64_t *data)
{
	u64 val = 0;
	int ret;

	sim_the_vcpu = v;
	ret = kvm_pmu_rdpmc(v, ecx, &val);
	*data = val;
	return ret;
}

static int sim_set_filter(void *v, int action, const uint64_t *events,
			  int nevents, uint32_t fixed_bitmap)
{
	struct kvm_vcpu *vcpu = v;
	struct kvm_pmu_event_filter *f;
	int ret;

	sim_the_vcpu = vcpu;
	f = calloc(1, sizeof(*f) + nevents * sizeof(f->events[0]));
	f->action = action < 0 ? KVM_PMU_EVENT_DENY : action;
	f->nevents = action < 0 ? 0 : nevents;
	f->fixed_counter_bitmap = action < 0 ? 0 : fixed_bitmap;
	memcpy(f->events, events, f->nevents * sizeof(f->events[0]));
	ret = kvm_vm_ioctl_set_pmu_event_filter(vcpu->kvm, f);
	free(f);
	return ret;
}

static void sim_set_tolerance(unsigned int t)
{
	emulated_counter_reprogram_tolerance = t;
}

static uint64_t sim_global_status(void *v)
{
	return ((struct kvm_vcpu *)v)->arch.pmu.global_status;
}

static unsigned long sim_requests(void *v)
{
	return ((struct kvm_vcpu *)v)->requests;
}

/* The counter of a perf event's overflow handler context (a kvm_pmc). */
static int sim_pmc_idx(const void *pmc)
{
	return ((const struct kvm_pmc *)pmc)->idx;
}

/* The harness's view of this tree: .create = sim_create, and so on. */
#define SIM_OP(op) .op = sim_##op
const struct sim_tree SIM_TREE = {
	.era = SIM_ERA_NAME,
	SIM_OP(create), SIM_OP(destroy), SIM_OP(emulate), SIM_OP(entry),
	SIM_OP(set_msr), SIM_OP(get_msr), SIM_OP(rdpmc), SIM_OP(set_filter),
	SIM_OP(set_tolerance), SIM_OP(global_status), SIM_OP(requests),
	SIM_OP(to_userspace), SIM_OP(sched_in), SIM_OP(pmc_idx),
#ifdef SIM_HAS_SYNC_TO_USERSPACE
	.has_sync = 1,
#endif
};
