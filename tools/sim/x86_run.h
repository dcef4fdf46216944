/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tree's own kvm_arch_vcpu_ioctl_run() (arch/x86/kvm/x86.c, cut
 * out at run time; its callees are not) calls, for user space.  Included
 * by a generated unit after vcpu.h.  The run is one of the returns a
 * trace's userspace point names (enum sim_run, sim.h), set in sim_run_ctl
 * by glue.c before the call:
 *
 *  - vcpu_run() returns: 0, an exit to userspace (7.3 x86.c:8643-8691,
 *    the loop's "r <= 0"), or -EINTR with KVM_EXIT_INTR, a signal pending
 *    (kvm_xfer_to_guest_mode_handle_work(), :8681-8686).  The guest ran
 *    before it: the harness's VM-entries are the loop's.
 *  - complete_userspace_io: a completion that retires the emulated
 *    instruction of the exit before (complete_fast_pio_in() ends in
 *    kvm_skip_emulated_instruction(), 7.3 x86.c:6614-6634, which calls
 *    kvm_pmu_instruction_retired(), :6182-6203) and returns 1, or 0 when
 *    userspace single-steps the guest (kvm_inject_emulated_db() with
 *    KVM_GUESTDBG_SINGLESTEP: KVM_EXIT_DEBUG, :5895-5905).
 *  - vcpu->wants_to_run false: kvm_run->immediate_exit set.
 *  - the vendor's pre_run fails (returns 0, as VMX does on an emulation
 *    failure exit: kvm_x86_vcpu_pre_run(), 7.3 x86.c:8856-8891).
 *
 * Everything else the function touches (fpu, sigset, srcu, sync_regs and
 * store_regs, cr8, userspace exceptions, kvm_mmu_post_init_vm(),
 * post_kvm_run_save()) does nothing here and lets it run on.
 */
#ifndef SIM_X86_RUN_H
#define SIM_X86_RUN_H

#define KVM_EXIT_UNKNOWN 0
#define KVM_EXIT_IO 2
#define KVM_EXIT_DEBUG 4
#define KVM_EXIT_INTR 10
#define KVM_MP_STATE_RUNNABLE 0
#define KVM_MP_STATE_UNINITIALIZED 1
#define KVM_SYNC_X86_VALID_FIELDS 0x7
#ifndef EINTR
#define EINTR 4
#endif

/* What the next kvm_arch_vcpu_ioctl_run() does (glue.c sets it). */
struct sim_run_ctl {
	int vcpu_run;		/* vcpu_run()'s result: 0 or -EINTR */
	int pre_run;		/* the vendor pre_run's: 1 runs, 0 fails */
	int cui_ret;		/* what complete_userspace_io returns */
	enum sim_emul cui_kind;	/* what it retires */
	int ran, cui_ran;	/* what the tree's function called */
};

static struct sim_run_ctl sim_run_ctl;

static void sim_emulate(void *v, enum sim_emul kind);

/* complete_userspace_io: the emulated instruction of the exit retires. */
static inline int sim_complete_userspace_io(struct kvm_vcpu *vcpu)
{
	sim_run_ctl.cui_ran = 1;
	sim_emulate(vcpu, sim_run_ctl.cui_kind);
	if (!sim_run_ctl.cui_ret)
		vcpu->run->exit_reason = KVM_EXIT_DEBUG;
	return sim_run_ctl.cui_ret;
}

/* The guest ran (the harness's VM-entries) and exited to userspace. */
static inline int vcpu_run(struct kvm_vcpu *vcpu)
{
	sim_run_ctl.ran = 1;
	if (sim_run_ctl.vcpu_run == -EINTR) {
		vcpu->run->exit_reason = KVM_EXIT_INTR;
		++vcpu->stat.signal_exits;
		return -EINTR;
	}
	vcpu->run->exit_reason = KVM_EXIT_IO;
	return 0;
}

static inline int sim_vcpu_pre_run(struct kvm_vcpu *vcpu)
{
	(void)vcpu;
	return sim_run_ctl.pre_run;
}

/* 7.2+: a static function of x86.c; 6.12: kvm_x86_call(); 6.1: static_call */
#define kvm_x86_vcpu_pre_run(vcpu) sim_vcpu_pre_run(vcpu)
#define sim_x86_vcpu_pre_run(vcpu) sim_vcpu_pre_run(vcpu)
#define sim_sc_kvm_x86_vcpu_pre_run(vcpu) sim_vcpu_pre_run(vcpu)

/* What lets the function run: nothing to do in one thread of user space. */
#define kvm_mmu_post_init_vm(kvm) ((void)(kvm), 0)
#define vcpu_load(vcpu) ((void)(vcpu))
#define vcpu_put(vcpu) ((void)(vcpu))
#define kvm_sigset_activate(vcpu) ((void)(vcpu))
#define kvm_sigset_deactivate(vcpu) ((void)(vcpu))
#define kvm_load_guest_fpu(vcpu) ((void)(vcpu))
#define kvm_put_guest_fpu(vcpu) ((void)(vcpu))
#define kvm_vcpu_srcu_read_lock(vcpu) ((void)(vcpu))
#define kvm_vcpu_srcu_read_unlock(vcpu) ((void)(vcpu))
#define kvm_vcpu_block(vcpu) ((void)(vcpu))
#define kvm_apic_accept_events(vcpu) ((void)(vcpu), 0)
#define kvm_lapic_hv_timer_in_use(vcpu) ((void)(vcpu), 0)
#define signal_pending(task) ((void)(task), 0)
#define kvm_sync_valid_fields(kvm) ((void)(kvm), KVM_SYNC_X86_VALID_FIELDS)
#define sync_regs(vcpu) ((void)(vcpu), 0)
#define store_regs(vcpu) ((void)(vcpu))
#define post_kvm_run_save(vcpu) ((void)(vcpu))
#define kvm_set_cr8(vcpu, cr8) ((void)(vcpu), (void)(cr8), 0)
#define is_guest_mode(vcpu) ((void)(vcpu), 0)
#define kvm_nested_call(func) sim_nested_##func
#define sim_nested_is_exception_vmexit(vcpu, v, e) \
	((void)(vcpu), (void)(v), (void)(e), 0)
#define kvm_queue_exception_vmexit(vcpu, v, he, e, hp, p) \
	((void)(vcpu), (void)(v), (void)(he), (void)(e), (void)(hp), (void)(p))

/* 6.1 and 6.12 reach the nested ops through kvm_x86_ops. */
struct sim_nested_ops {
	bool (*is_exception_vmexit)(struct kvm_vcpu *vcpu, u8 vector,
				    u32 error_code);
};

static const struct {
	const struct sim_nested_ops *nested_ops;
} kvm_x86_ops = { &(const struct sim_nested_ops){ NULL } };

#endif
