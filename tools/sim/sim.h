/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between the harness (harness.c and the files
 * harness_int.h joins, world.c, perf.c) and one tree's vPMU code (a generated unit: the tree's
 * functions, then glue.c).  The harness never sees the tree's structs; a
 * unit never sees the reference model.
 */
#ifndef SIM_H
#define SIM_H

#include <stdint.h>

/* What the simulated PMU keeps in each perf_event. */
struct sim_perf_state {
	uint64_t count;		/* since creation or the last reset */
	int64_t period_left;	/* events until the next overflow */
	int enabled;
	int id;
};

struct sim_cfg {
	int amd;		/* the AMD path (svm/pmu.c), else Intel */
	int version;		/* PMU version: 2 has GLOBAL_CTRL */
	int nr_gp, nr_fixed;
	int width_gp, width_fixed;
};

enum sim_emul { SIM_EMUL_INSN, SIM_EMUL_BRANCH };

/*
 * How KVM_RUN returns at a userspace point, through the tree's own
 * kvm_arch_vcpu_ioctl_run() (x86_run.h): vcpu_run() returns 0 or, a signal
 * pending, -EINTR; or a KVM_RUN after such a return comes back early:
 * immediate_exit (!wants_to_run), a failing vendor pre_run, or a
 * complete_userspace_io that retires the exit's emulated instruction and
 * returns 0 (userspace single-steps), or 1 and then immediate_exit or a
 * failing pre_run.
 */
enum sim_run {
	SIM_RUN_NORMAL, SIM_RUN_SIGNAL, SIM_RUN_IMMEDIATE, SIM_RUN_PRE_RUN_FAILS,
	SIM_RUN_CUI_EXIT, SIM_RUN_CUI_IMMEDIATE, SIM_RUN_CUI_PRE_RUN_FAILS,
	NR_SIM_RUN
};

/* Whether a return retires an instruction in complete_userspace_io. */
static inline int sim_run_cui(enum sim_run run)
{
	return run >= SIM_RUN_CUI_EXIT;
}

struct sim_tree {
	const char *era;
	void *(*create)(const struct sim_cfg *cfg);
	void (*destroy)(void *vcpu);
	void (*emulate)(void *vcpu, enum sim_emul kind);
	void (*entry)(void *vcpu);
	int (*set_msr)(void *vcpu, uint32_t msr, uint64_t data, int host);
	int (*get_msr)(void *vcpu, uint32_t msr, uint64_t *data, int host);
	int (*rdpmc)(void *vcpu, uint32_t ecx, uint64_t *data);
	/* the KVM_SET_PMU_EVENT_FILTER ioctl; action < 0 removes it */
	int (*set_filter)(void *vcpu, int action, const uint64_t *events,
			  int nevents, uint32_t fixed_bitmap);
	void (*set_tolerance)(unsigned int t);
	uint64_t (*global_status)(void *vcpu);
	unsigned long (*requests)(void *vcpu);
	/*
	 * KVM_RUN returns @run's way, through the tree's
	 * kvm_arch_vcpu_ioctl_run(); @kind: what a completion retires
	 */
	void (*to_userspace)(void *vcpu, enum sim_run run, enum sim_emul kind);
	/* the tree has kvm_pmu_sync_to_userspace(): every return folds */
	int has_sync;
	/* the vCPU thread is scheduled in: need_cleanup, KVM_REQ_PMU */
	void (*sched_in)(void *vcpu);
	/* the counter index of a kvm_pmc (a perf event's handler context) */
	int (*pmc_idx)(const void *pmc);
};

/* The two requests of the vCPU's bits the harness counts (kernel.h's). */
#define SIM_REQ_PMU 10
#define SIM_REQ_PMI 11

/* The harness, for the units (world.c). */
void sim_request(unsigned long *requests, int req);
void sim_warn(const char *what);
/* a bit set in a bitmap: the tree's GLOBAL_STATUS is watched */
void sim_bit_set(long nr, const unsigned long *addr);
void sim_watch_status(const void *addr);
/* kvm_apic_local_deliver(APIC_LVTPC): a PMI into the LAPIC */
void sim_lapic_pmi(void);

#endif
