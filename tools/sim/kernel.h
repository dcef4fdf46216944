/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel infrastructure the vPMU code uses, for user space: types, bit
 * operations, requests, srcu, static calls, printk, and the perf_event API
 * that the simulated PMU (perf.c) implements.  Ours, not the kernel's: no
 * kernel function body lives here, only stand-ins with the same contract.
 * Architectural constants (MSR numbers, EVENTSEL bits) are the SDM's and
 * the APM's.
 */
#ifndef SIM_KERNEL_H
#define SIM_KERNEL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef struct { s64 counter; } atomic64_t;

#define __read_mostly
#define __init
#define __initdata
#define __user
#undef __always_inline
#define __always_inline inline
#define __rcu
#define __counted_by(...)
#define __DECLARE_FLEX_ARRAY(t, name) \
	struct { struct { } __empty_ ## name; t name[]; }
#define likely(x) (x)
#define unlikely(x) (x)
#define fallthrough __attribute__((__fallthrough__))
#define READ_ONCE(x) (x)
#define WRITE_ONCE(x, v) ((x) = (v))
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define WARN_ON_ONCE(c) ({ int __w = !!(c); if (__w) sim_warn(#c); __w; })
#define WARN_ON(c) WARN_ON_ONCE(c)
#define container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#define IS_ERR(p) ((unsigned long)(p) >= (unsigned long)-4095)
#define PTR_ERR(p) ((long)(p))
#define ERR_PTR(e) ((void *)(long)(e))
#define array_index_nospec(i, n) ((void)(n), (i))
#define printk_once(...) do { } while (0)
#define pr_debug_ratelimited(...) do { } while (0)
#define pr_warn_once(...) do { } while (0)
#define pr_err(...) do { } while (0)
#define KERN_WARNING ""

#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define GENMASK_ULL(h, l) \
	(((~0ULL) << (l)) & (~0ULL >> (63 - (h))))
#define GENMASK(h, l) GENMASK_ULL(h, l)
#define BITS_PER_BYTE 8
#define BITS_PER_LONG 64
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

static inline int ilog2(u64 v)
{
	return 63 - __builtin_clzll(v);
}

static inline bool test_bit(long nr, const unsigned long *addr)
{
	return addr[nr / 64] >> (nr % 64) & 1;
}

static inline void set_bit(long nr, unsigned long *addr)
{
	addr[nr / 64] |= 1UL << (nr % 64);
	sim_bit_set(nr, addr);
}

static inline void clear_bit(long nr, unsigned long *addr)
{
	addr[nr / 64] &= ~(1UL << (nr % 64));
}

static inline bool test_and_set_bit(long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	addr[nr / 64] |= 1UL << (nr % 64);
	if (!old)
		sim_bit_set(nr, addr);
	return old;
}

static inline bool test_and_clear_bit(long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	clear_bit(nr, addr);
	return old;
}

#define __set_bit set_bit
#define __clear_bit clear_bit
#define __test_and_set_bit test_and_set_bit
#define __test_and_clear_bit test_and_clear_bit

/* All the bitmaps here are one long: X86_PMC_IDX_MAX is 64. */
static inline void bitmap_copy(unsigned long *d, const unsigned long *s,
			       unsigned int n)
{
	(void)n;
	d[0] = s[0];
}

static inline bool bitmap_and(unsigned long *d, const unsigned long *a,
			      const unsigned long *b, unsigned int n)
{
	(void)n;
	d[0] = a[0] & b[0];
	return d[0] != 0;
}

static inline bool bitmap_empty(const unsigned long *s, unsigned int n)
{
	(void)n;
	return !s[0];
}

static inline void bitmap_zero(unsigned long *d, unsigned int n)
{
	(void)n;
	d[0] = 0;
}

static inline void bitmap_set(unsigned long *d, unsigned int start,
			      unsigned int n)
{
	unsigned int i;

	for (i = start; i < start + n; i++)
		set_bit(i, d);
}

static inline void bitmap_clear(unsigned long *d, unsigned int start,
				unsigned int n)
{
	unsigned int i;

	for (i = start; i < start + n; i++)
		clear_bit(i, d);
}

static inline bool bitmap_andnot(unsigned long *d, const unsigned long *a,
				 const unsigned long *b, unsigned int n)
{
	(void)n;
	d[0] = a[0] & ~b[0];
	return d[0] != 0;
}

static inline void bitmap_or(unsigned long *d, const unsigned long *a,
			     const unsigned long *b, unsigned int n)
{
	(void)n;
	d[0] = a[0] | b[0];
}

static inline unsigned long sim_next_bit(const unsigned long *a,
					 unsigned long size, unsigned long from)
{
	for (; from < size; from++)
		if (test_bit(from, a))
			return from;
	return size;
}

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = sim_next_bit((addr), (size), 0); (bit) < (size);	\
	     (bit) = sim_next_bit((addr), (size), (bit) + 1))

static inline void atomic64_andnot(s64 v, atomic64_t *a)
{
	a->counter &= ~v;
}

static inline void atomic64_or(s64 v, atomic64_t *a)
{
	a->counter |= v;
}

static inline void atomic64_set(atomic64_t *a, s64 v)
{
	a->counter = v;
}

/* srcu, rcu, locks: one thread, nothing to do. */
struct srcu_struct { int unused; };
struct mutex { int unused; };
#define srcu_dereference(p, s) ((void)(s), (p))
#define srcu_read_lock(s) ((void)(s), 0)
#define srcu_read_unlock(s, i) ((void)(s), (void)(i))
#define rcu_replace_pointer(p, v, c) ({ __typeof__(p) __o = (p); \
	(void)(c); (p) = (v); __o; })
#define synchronize_srcu_expedited(s) ((void)(s))
#define synchronize_srcu(s) ((void)(s))
#define mutex_lock(m) ((void)(m))
#define mutex_unlock(m) ((void)(m))
#define mutex_is_locked(m) ((void)(m), 1)
#define lockdep_assert_held(m) ((void)(m))

/* Memory. */
#define GFP_KERNEL 0
#define GFP_KERNEL_ACCOUNT 0
#define kzalloc(n, f) ((void)(f), calloc(1, (n)))
#define kvzalloc(n, f) ((void)(f), calloc(1, (n)))
#define kmalloc(n, f) ((void)(f), malloc(n))
#define kfree(p) free(p)
#define kvfree(p) free(p)
#define struct_size(p, member, n) \
	(sizeof(*(p)) + sizeof((p)->member[0]) * (n))
#define flex_array_size(p, member, n) (sizeof((p)->member[0]) * (n))
#define copy_from_user(d, s, n) (memcpy((d), (s), (n)), 0)
#define sort(base, n, size, cmp, swap) \
	((void)(swap), qsort((base), (n), (size), (cmp)))

/* The perf_event API, implemented by the simulated PMU (perf.c). */
#define PERF_TYPE_RAW 4
#define PERF_COUNT_HW_CPU_CYCLES 0
#define PERF_COUNT_HW_INSTRUCTIONS 1
#define PERF_COUNT_HW_CACHE_REFERENCES 2
#define PERF_COUNT_HW_CACHE_MISSES 3
#define PERF_COUNT_HW_BRANCH_INSTRUCTIONS 4
#define PERF_COUNT_HW_BRANCH_MISSES 5
#define PERF_COUNT_HW_BUS_CYCLES 6
#define PERF_COUNT_HW_STALLED_CYCLES_FRONTEND 7
#define PERF_COUNT_HW_STALLED_CYCLES_BACKEND 8
#define PERF_COUNT_HW_REF_CPU_CYCLES 9
#define PERF_COUNT_HW_MAX 10

struct perf_event_attr {
	u32 type;
	u32 size;
	u64 config;
	u64 sample_period;
	u64 pinned : 1, exclude_user : 1, exclude_kernel : 1,
	    exclude_hv : 1, exclude_idle : 1, exclude_host : 1,
	    exclude_guest : 1, disabled : 1, precise_ip : 2;
	u64 config1, config2;
};

struct perf_event;
struct perf_sample_data;
struct pt_regs;
struct task_struct;
typedef void (*perf_overflow_handler_t)(struct perf_event *,
					struct perf_sample_data *,
					struct pt_regs *);

struct perf_event {
	struct perf_event_attr attr;
	perf_overflow_handler_t overflow_handler;
	void *overflow_handler_context;
	struct sim_perf_state sim;
};

#define current ((struct task_struct *)0)

static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

struct perf_event *perf_event_create_kernel_counter(struct perf_event_attr *a,
						    int cpu,
						    struct task_struct *task,
						    perf_overflow_handler_t h,
						    void *context);
u64 perf_event_pause(struct perf_event *event, bool reset);
int perf_event_period(struct perf_event *event, u64 value);
void perf_event_enable(struct perf_event *event);
void perf_event_disable(struct perf_event *event);
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running);
int perf_event_release_kernel(struct perf_event *event);

/* Architectural constants: Intel SDM vol. 3B ch. 20, AMD APM vol. 2. */
#define X86_PMC_IDX_MAX 64
#define INTEL_PMC_IDX_FIXED 32
#define INTEL_PMC_MAX_GENERIC 32
#define INTEL_PMC_MAX_FIXED 16
#define GLOBAL_STATUS_BUFFER_OVF_BIT 62
#define GLOBAL_STATUS_COND_CHG_BIT 63
#define ARCH_PERFMON_EVENTSEL_EVENT 0x000000FFULL
#define ARCH_PERFMON_EVENTSEL_UMASK 0x0000FF00ULL
#define ARCH_PERFMON_EVENTSEL_USR (1ULL << 16)
#define ARCH_PERFMON_EVENTSEL_OS (1ULL << 17)
#define ARCH_PERFMON_EVENTSEL_EDGE (1ULL << 18)
#define ARCH_PERFMON_EVENTSEL_PIN_CONTROL (1ULL << 19)
#define ARCH_PERFMON_EVENTSEL_INT (1ULL << 20)
#define ARCH_PERFMON_EVENTSEL_ANY (1ULL << 21)
#define ARCH_PERFMON_EVENTSEL_ENABLE (1ULL << 22)
#define ARCH_PERFMON_EVENTSEL_INV (1ULL << 23)
#define ARCH_PERFMON_EVENTSEL_CMASK 0xFF000000ULL
#define AMD64_EVENTSEL_EVENT \
	(ARCH_PERFMON_EVENTSEL_EVENT | (0x0FULL << 32))
#define AMD64_RAW_EVENT_MASK_NB \
	(AMD64_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK)
#define AMD64_RAW_EVENT_MASK (AMD64_RAW_EVENT_MASK_NB | \
	ARCH_PERFMON_EVENTSEL_EDGE | ARCH_PERFMON_EVENTSEL_INV | \
	ARCH_PERFMON_EVENTSEL_CMASK)
#define X86_RAW_EVENT_MASK (ARCH_PERFMON_EVENTSEL_EVENT | \
	ARCH_PERFMON_EVENTSEL_UMASK | ARCH_PERFMON_EVENTSEL_EDGE | \
	ARCH_PERFMON_EVENTSEL_INV | ARCH_PERFMON_EVENTSEL_CMASK)
#define AMD64_EVENTSEL_GUESTONLY (1ULL << 40)
#define AMD64_EVENTSEL_HOSTONLY (1ULL << 41)
#define AMD64_EVENTSEL_HOST_GUEST_MASK \
	(AMD64_EVENTSEL_HOSTONLY | AMD64_EVENTSEL_GUESTONLY)
#define HSW_IN_TX (1ULL << 32)
#define HSW_IN_TX_CHECKPOINTED (1ULL << 33)
#define INTEL_FIXED_BITS_MASK 0xFULL
#define INTEL_FIXED_BITS_STRIDE 4
#define INTEL_FIXED_0_KERNEL (1ULL << 0)
#define INTEL_FIXED_0_USER (1ULL << 1)
#define INTEL_FIXED_0_ANYTHREAD (1ULL << 2)
#define INTEL_FIXED_0_ENABLE_PMI (1ULL << 3)
#define INTEL_FIXED_3_METRICS_CLEAR (1ULL << 2)
#define intel_fixed_bits_by_idx(_idx, _bits) \
	((_bits) << ((_idx) * INTEL_FIXED_BITS_STRIDE))
#define INTEL_RDPMC_GP 0
#define INTEL_RDPMC_FIXED INTEL_PMC_FIXED_RDPMC_BASE
#define INTEL_PMC_FIXED_RDPMC_BASE (1 << 30)
#define INTEL_RDPMC_TYPE_MASK GENMASK(31, 16)
#define INTEL_RDPMC_INDEX_MASK GENMASK(15, 0)
#define AMD64_NUM_COUNTERS 4
#define AMD64_NUM_COUNTERS_CORE 6
#define MSR_PMC_FULL_WIDTH_BIT (MSR_IA32_PMC0 - MSR_IA32_PERFCTR0)

#define MSR_IA32_PERFCTR0 0x000000c1
#define MSR_IA32_PMC0 0x000004c1
#define MSR_P6_EVNTSEL0 0x00000186
#define MSR_CORE_PERF_FIXED_CTR0 0x00000309
#define MSR_CORE_PERF_FIXED_CTR_CTRL 0x0000038d
#define MSR_CORE_PERF_GLOBAL_STATUS 0x0000038e
#define MSR_CORE_PERF_GLOBAL_CTRL 0x0000038f
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL 0x00000390
#define MSR_IA32_PEBS_ENABLE 0x000003f1
#define MSR_PEBS_DATA_CFG 0x000003f2
#define MSR_IA32_DS_AREA 0x00000600
#define MSR_IA32_PERF_CAPABILITIES 0x00000345
#define MSR_K7_EVNTSEL0 0xc0010000
#define MSR_K7_EVNTSEL3 0xc0010003
#define MSR_K7_PERFCTR0 0xc0010004
#define MSR_K7_PERFCTR3 0xc0010007
#define MSR_F15H_PERF_CTL0 0xc0010200
#define MSR_F15H_PERF_CTL 0xc0010200
#define MSR_F15H_PERF_CTR0 0xc0010201
#define MSR_F15H_PERF_CTR 0xc0010201
#define MSR_F15H_PERF_CTL5 0xc001020a
#define MSR_F15H_PERF_CTR5 0xc001020b
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS 0xc0000300
#define MSR_AMD64_PERF_CNTR_GLOBAL_CTL 0xc0000301
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR 0xc0000302
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET 0xc0000303
#define PMU_CAP_FW_WRITES (1ULL << 13)
#define PERF_CAP_FW_WRITES (1ULL << 13)
#define PMU_CAP_LBR_FMT 0x3f

/* Requests: the vCPU's bits, as kvm_host.h numbers the two we need. */
#define KVM_REQ_PMU SIM_REQ_PMU
#define KVM_REQ_PMI SIM_REQ_PMI

/* The userspace event filter's ABI (Documentation/virt/kvm/api.rst). */
#define KVM_PMU_EVENT_ALLOW 0
#define KVM_PMU_EVENT_DENY 1
#define KVM_PMU_EVENT_FLAG_MASKED_EVENTS (1ULL << 0)
#define KVM_PMU_EVENT_FLAGS_VALID_MASK (KVM_PMU_EVENT_FLAG_MASKED_EVENTS)
#define KVM_PMU_MASKED_ENTRY_EVENT_SELECT 0x000000FF
#define KVM_PMU_ENCODE_MASKED_ENTRY(event_select, mask, match, exclude) \
	(((event_select) & 0xFFULL) | (((event_select) & 0XF00ULL) << 24) | \
	 (((mask) & 0xFFULL) << 56) | (((match) & 0xFFULL) << 8) | \
	 ((__u64)(!!(exclude)) << 55))
#define KVM_PMU_MASKED_ENTRY_UMASK_MASK (0xFF00000000000000ULL)
#define KVM_PMU_MASKED_ENTRY_UMASK_MATCH (0x000000000000FF00ULL)
#define KVM_PMU_MASKED_ENTRY_EXCLUDE (1ULL << 55)
#define KVM_PMU_MASKED_ENTRY_UMASK_MASK_SHIFT (56)

/* CPU features and CPUID: the guest has what the PMU code asks about. */
#define X86_FEATURE_PERFCTR_CORE 1
#define X86_FEATURE_PERFMON_V2 2
#define X86_FEATURE_PDCM 3
#define X86_FEATURE_RTM 4
#define X86_FEATURE_HLE 5
#define X86_FEATURE_HYBRID_CPU 6
#define X86_FEATURE_DS 7
#define guest_cpuid_has(vcpu, f) \
	((void)(vcpu), (f) == X86_FEATURE_PERFCTR_CORE)
#define guest_cpu_cap_has(vcpu, f) \
	((void)(vcpu), (f) == X86_FEATURE_PERFCTR_CORE)
#define boot_cpu_has(f) ((void)(f), 0)
#define cpu_feature_enabled(f) ((void)(f), 0)
#define x86_match_cpu(...) 0
#define X86_CR4_PCE (1UL << 8)
#define X86_CR0_PE (1UL << 0)
#define kvm_is_cr4_bit_set(vcpu, b) ((void)(vcpu), (void)(b), 1)
#define kvm_is_cr0_bit_set(vcpu, b) ((void)(vcpu), (void)(b), 1)
#define kvm_read_cr4_bits(vcpu, b) ((void)(vcpu), (b))
#define kvm_read_cr0_bits(vcpu, b) ((void)(vcpu), (b))
/* the simulated PMU overflows while the vCPU runs: an NMI from the guest */
#define kvm_handling_nmi_from_guest(vcpu) ((void)(vcpu), 1)
#define irq_work_queue(w) ((void)(w))
#define is_protmode(vcpu) ((void)(vcpu), 1)
#define rdtsc() 0ULL
#define ktime_get_boottime_ns() 0ULL
/* the LAPIC is in the kernel: kvm_pmu_deliver_pmi() reaches it (vcpu.h) */
#define lapic_in_kernel(vcpu) ((void)(vcpu), 1)
#define APIC_LVTPC 0x340
#define is_noncanonical_address(a, v) ((void)(a), (void)(v), 0)
#define is_noncanonical_msr_address(a, v) ((void)(a), (void)(v), 0)

struct msr_data {
	bool host_initiated;
	u32 index;
	u64 data;
};

struct x86_pmu_capability {
	int version;
	int num_counters_gp;
	int num_counters_fixed;
	int bit_width_gp;
	int bit_width_fixed;
	unsigned int events_mask;
	int events_mask_len;
	unsigned int pebs_ept : 1;
};

struct kvm_vcpu;
struct kvm;
struct irq_work { int unused; };
struct lbr_desc;

#endif
