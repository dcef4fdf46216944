/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included by a generated unit after the tree's own types: the VM and vCPU
 * around the tree's struct kvm_pmu, the static calls into the tree's vendor
 * code, and the globals the tree's pmu.c expects from elsewhere in KVM.
 */
#ifndef SIM_VCPU_H
#define SIM_VCPU_H

#if defined(SIM_ERA_SYNC) || \
	(defined(SIM_ERA_PREV) && !defined(SIM_HAS_kvm_x86_pmu_event_filter))
#define SIM_FILTER struct kvm_pmu_event_filter
#else
#define SIM_FILTER struct kvm_x86_pmu_event_filter
#endif

struct kvm {
	struct {
		SIM_FILTER __rcu *pmu_event_filter;
		bool enable_pmu;
		s64 kvmclock_offset;
	} arch;
	struct srcu_struct srcu;
	struct mutex lock;
};

struct kvm_lapic;

/* What kvm_arch_vcpu_ioctl_run() reads of an exception (x86_run.h). */
struct kvm_queued_exception {
	bool pending, injected, has_error_code, has_payload;
	u8 vector;
	u32 error_code;
	unsigned long payload;
};

/* The fields of struct kvm_run (uapi linux/kvm.h) KVM_RUN touches. */
struct kvm_run {
	u32 exit_reason;
	u16 flags;
	u64 cr8;
	u64 kvm_valid_regs, kvm_dirty_regs;
	u8 immediate_exit;	/* before 6.10; 6.1.192 has wants_to_run */
};

struct kvm_vcpu {
	struct kvm *kvm;
	struct {
		struct kvm_pmu pmu;
		u64 perf_capabilities;
		struct kvm_lapic *apic;
		/* kvm_arch_vcpu_ioctl_run()'s (x86_run.h) */
		struct kvm_queued_exception exception;
		int mp_state;
		bool exception_from_userspace, guest_state_protected;
		int (*complete_userspace_io)(struct kvm_vcpu *vcpu);
		struct { int count; } pio;
	} arch;
	unsigned long requests;
	int vcpu_idx;
	struct kvm_run *run;
	bool wants_to_run;
	int mmio_needed;
	struct { u64 signal_exits; } stat;
};

static struct kvm_vcpu *sim_the_vcpu;
static struct kvm_pmu_ops kvm_pmu_ops;
static bool sim_amd;

#define kvm_make_request(req, vcpu) sim_request(&(vcpu)->requests, (req))
#define kvm_check_request(req, vcpu) \
	test_and_clear_bit((req), &(vcpu)->requests)
#define kvm_test_request(req, vcpu) test_bit((req), &(vcpu)->requests)
#define kvm_make_all_cpus_request(kvm, req) \
	((void)(kvm), sim_request(&sim_the_vcpu->requests, (req)))
#define kvm_for_each_vcpu(i, v, k) \
	for ((i) = 0, (v) = sim_the_vcpu; (i) < 1 && (k); (i)++)
#define vcpu_get_perf_capabilities(vcpu) ((void)(vcpu), PMU_CAP_FW_WRITES)
#define kvm_pmu_call(func) (kvm_pmu_ops.func)
#define kvm_x86_call(func) sim_x86_##func
#define static_call(name) sim_sc_##name
#define static_call_cond(...) (void)
#define guest_cpuid_is_intel(vcpu) ((void)(vcpu), !sim_amd)
#define sim_x86_get_cpl(vcpu) ((void)(vcpu), 0)
#define sim_sc_kvm_x86_get_cpl(vcpu) ((void)(vcpu), 0)
#define sim_sc_kvm_x86_pmu_get_msr kvm_pmu_ops.get_msr
#define sim_sc_kvm_x86_pmu_set_msr kvm_pmu_ops.set_msr
#define sim_sc_kvm_x86_pmu_hw_event_available kvm_pmu_ops.hw_event_available
#define sim_sc_kvm_x86_pmu_is_valid_msr kvm_pmu_ops.is_valid_msr
#define sim_sc_kvm_x86_pmu_is_valid_rdpmc_ecx kvm_pmu_ops.is_valid_rdpmc_ecx
#define sim_sc_kvm_x86_pmu_msr_idx_to_pmc kvm_pmu_ops.msr_idx_to_pmc
#define sim_sc_kvm_x86_pmu_pmc_idx_to_pmc kvm_pmu_ops.pmc_idx_to_pmc
#define sim_sc_kvm_x86_pmu_pmc_is_enabled kvm_pmu_ops.pmc_is_enabled
#define sim_sc_kvm_x86_pmu_rdpmc_ecx_to_pmc kvm_pmu_ops.rdpmc_ecx_to_pmc
#define sim_sc_kvm_x86_pmu_cleanup kvm_pmu_ops.cleanup

/* The parameter; a tree that declares it elsewhere (x86.c) reads this. */
static unsigned int emulated_counter_reprogram_tolerance;
static bool enable_mediated_pmu;
static bool enable_pmu = true;

/* Host perf's generic event encodings, as perf's x86 tables give them. */
static inline u64 perf_get_hw_event_config(int id)
{
	switch (id) {
	case PERF_COUNT_HW_INSTRUCTIONS:
		return 0x00c0;
	case PERF_COUNT_HW_BRANCH_INSTRUCTIONS:
		return sim_amd ? 0x00c2 : 0x00c4;
	default:
		return 0x003c;
	}
}

/* LBR MSRs are out of scope: no LBR MSR is ever valid here. */
static inline bool intel_pmu_handle_lbr_msrs_access(struct kvm_vcpu *vcpu,
						    struct msr_data *msr_info,
						    bool read)
{
	(void)vcpu;
	(void)msr_info;
	(void)read;
	return false;
}

static inline void kvm_pmu_cleanup_stub(void) { }

/* The LAPIC's PMI: what kvm_pmu_deliver_pmi() delivers, counted. */
static inline int kvm_apic_local_deliver(struct kvm_lapic *apic, int lvt)
{
	(void)apic;
	if (lvt == APIC_LVTPC)
		sim_lapic_pmi();
	return 1;
}

/* The vendor's deliver_pmi (Intel: LBR freezing) and cleanup: no LBR here. */
static inline void sim_vendor_vcpu_noop(struct kvm_vcpu *vcpu)
{
	(void)vcpu;
}

#endif
