/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the harness's files share: the ops of a trace, the reference model's
 * state, one tree's run of a trace, and the functions each file gives the
 * others.  model.c is the architectural reference; ops.c runs an op on a
 * tree and on the model, through points.c's calls of the tree and checks
 * of the invariants; trace.c generates traces, tracefile.c prints and
 * parses them; check.c judges a trace (each tree against the model, then the
 * differential), shrinks a counterexample and measures the figure;
 * harness.c is the program's command line.  The trees' code never sees
 * this header (sim.h is their interface).
 */
#ifndef SIM_HARNESS_INT_H
#define SIM_HARNESS_INT_H

#include <stdint.h>
#include <stdio.h>

#include "world.h"

extern const struct sim_tree sim_tree_pristine, sim_tree_patched;

/*
 * The baseline: pristine plus the series' Fixes: patches (kverify sim
 * --baseline); a program without one has no such symbol.
 */
#define __weak __attribute__(( \
	weak))
extern const struct sim_tree sim_tree_baseline __weak;

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
#define REQ_PMI_BIT (1UL << SIM_REQ_PMI)
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#define MAX_CTR 64

enum op_type {
	OP_ENTRY, OP_EMUL, OP_NATIVE, OP_RDPMC, OP_RDMSR_CTR, OP_RDMSR_STATUS,
	OP_WR_CTR, OP_WR_EVSEL, OP_WR_FIXED_CTRL, OP_WR_GLOBAL_CTRL,
	OP_CLR_STATUS, OP_HOST_RD_CTR, OP_HOST_RD_STATUS, OP_FILTER,
	OP_PARAM, OP_SAVE_RESTORE, OP_HOST_WR_CTR, OP_HOST_WR_EVSEL,
	OP_HOST_WR_STATUS, OP_SCHED_IN, OP_PARAM_ASYNC, NR_OPS
};

/* The ops' names in trace files, by enum op_type (trace.c). */
extern const char *const op_names[NR_OPS];

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
	/*
	 * A userspace op: how the KVM_RUN before it returned (enum
	 * sim_run); a completion retires a branch if run_branch
	 */
	uint8_t run, run_branch;
};

/* enum sim_run's names in trace files, "run=NAME" (trace.c). */
extern const char *const run_names[NR_SIM_RUN];

/* --without kvm-run: every KVM_RUN returns through vcpu_run(), 0 */
#define WITHOUT_KVM_RUN (1U << NR_OPS)

/**
 * op_at_userspace() - whether an op is userspace's, after KVM_RUN returned
 * @type: the op's type
 *
 * Return: nonzero for the userspace ops (docs/sim.md, "Traces").
 */
static inline int op_at_userspace(enum op_type type)
{
	return type == OP_HOST_RD_CTR || type == OP_HOST_RD_STATUS ||
	       type == OP_FILTER || type == OP_PARAM ||
	       type == OP_SAVE_RESTORE || type == OP_HOST_WR_CTR ||
	       type == OP_HOST_WR_EVSEL || type == OP_HOST_WR_STATUS;
}

/**
 * op_reads_state() - whether a userspace op only reads the vCPU's state
 * @type: the op's type
 *
 * A completion's early return (a KVM_RUN with immediate_exit, say, as a
 * VMM makes before it saves) comes before these only.
 *
 * Return: nonzero for userspace reads and the save.
 */
static inline int op_reads_state(enum op_type type)
{
	return type == OP_HOST_RD_CTR || type == OP_HOST_RD_STATUS ||
	       type == OP_SAVE_RESTORE;
}

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
	/*
	 * 'a': by emulated events alone; 'b': joint; 'n': by native events
	 * alone after a counter write (owed where 0001 makes the period
	 * exact: owe_native)
	 */
	char kind;
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
	/*
	 * Written (guest or host) and neither counted an emulated event nor
	 * wrapped since: perf's period is the distance to the wrap
	 */
	int written;
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
	int perf;		/* raised in perf's overflow handler */
	int fold;		/* raised by KVM folding its emulated events */
};

#define MAX_SPURIOUS 8

struct run {
	struct world w;
	struct ref r;
	int in_guest, dirty, msr_dirty;
	/*
	 * A tree without kvm_pmu_sync_to_userspace() returned from KVM_RUN
	 * after its completion retired an instruction: what it requested
	 * waits for the next VM-entry, as before 0004 (points.c)
	 */
	int unsynced;
	struct failure f;
	size_t *op_log;		/* log offset after each op */
	unsigned long emulated;
	struct spurious sp[MAX_SPURIOUS];
	int nsp, cur_op;
	/*
	 * The tree is held to 0001 by the model: a wrap by native events
	 * alone after a counter write is owed at once (ops.c, owes_native())
	 */
	int owe_native;
	unsigned long seen_pmi_other;
	const struct trace *tr;
};

/* What traces gen_trace() makes. */
struct gen_opts {
	unsigned int without;	/* op types not to generate, 1 << OP_x */
	int era_sync;		/* no AMD PerfMonV2 in the sync era */
	int era_prev;		/* 6.2-6.7: one emulated instruction per exit */
	int vendor;		/* -1 both, 0 Intel, 1 AMD */
	long tolerance;		/* -1: every one of tolerances[] */
};

/* The trees' era, from the command line: --sync, --prev (model.c). */
extern int era_sync;
extern int era_prev;	/* 6.2-6.7: each emulated instruction after an entry */

/* --fixes-only: the patched tree is its own baseline (ops.c). */
extern int fixes_only;

/**
 * owes_native() - whether a tree is held to native wraps after a write
 * @t: the tree a run drives
 *
 * Return: nonzero for the patched tree against a baseline of Fixes:
 * patches, whose 0001 makes the period after a write exact (ops.c).
 */
int owes_native(const struct sim_tree *t);

/* The generator's state: splitmix64, seeded per trace (trace.c). */
extern uint64_t rng_state;

/* The traces' tolerances, one per trace in turn (trace.c). */
extern const unsigned int trace_tolerances[10];

/**
 * ev_branch() - the branch instructions' event code of a vendor
 * @cfg: the PMU configuration
 *
 * Return: AMD's or Intel's event select of retired branch instructions.
 */
static inline uint64_t ev_branch(const struct sim_cfg *cfg)
{
	return cfg->amd ? 0x00c2 : 0x00c4;
}

/**
 * nr_ctr_idx() - whether a counter index exists in a configuration
 * @cfg: the PMU configuration
 * @i: a counter index, 0..31 gp, FIXED.. fixed
 *
 * Return: nonzero if @cfg has counter @i.
 */
static inline int nr_ctr_idx(const struct sim_cfg *cfg, int i)
{
	if (i < FIXED)
		return i < cfg->nr_gp;
	return i - FIXED < cfg->nr_fixed;
}

/* model.c: the reference model */

/**
 * valid_ctr() - the next valid counter of the reference
 * @r: the reference
 * @m: a position in r->list, moved to the counter found
 * @i: set to the counter's index
 *
 * Return: the valid counter at list position *@m or after it, NULL after
 * the last.
 */
struct ref_ctr *valid_ctr(struct ref *r, int *m, int *i);

/**
 * ref_init() - a reference PMU of a configuration, every counter at 0
 * @r: the reference to set
 * @cfg: the PMU configuration
 * @tol: the tolerance it starts with
 */
void ref_init(struct ref *r, const struct sim_cfg *cfg, unsigned int tol);

/**
 * ref_code() - the event a counter counts
 * @r: the reference
 * @i: the counter's index
 *
 * Return: the event select's event and unit mask, or a fixed counter's
 * architectural event.
 */
uint64_t ref_code(const struct ref *r, int i);

/**
 * ref_counting() - whether a counter counts, the event filter applied
 * @r: the reference
 * @i: the counter's index
 *
 * Return: nonzero if counter @i is enabled for the OS ring, globally
 * enabled, and allowed by the filter.
 */
int ref_counting(const struct ref *r, int i);

/**
 * ref_counting_emul() - whether a counter counts emulated instructions
 * @r: the reference
 * @i: the counter's index
 *
 * Before 6.2 (the sync era) the filter does not stop KVM from counting
 * emulated instructions on a counter.
 *
 * Return: nonzero if counter @i counts an emulated instruction.
 */
int ref_counting_emul(const struct ref *r, int i);

/**
 * ref_int() - whether a counter's PMI is enabled
 * @r: the reference
 * @i: the counter's index
 *
 * Return: 1 if its event select or FIXED_CTR_CTRL field has INT, else 0.
 */
int ref_int(const struct ref *r, int i);

/**
 * cap_t() - a tolerance capped at half the counter's range
 * @c: the counter
 * @t: the tolerance
 *
 * Return: @t, or half the counter's range if smaller.
 */
uint64_t cap_t(const struct ref_ctr *c, uint64_t t);

/**
 * ref_count() - the reference counts events, wrapping as it must
 * @run: the run whose reference counts
 * @i: the counter's index
 * @n: how many events
 * @op: the op that counts them
 * @emul: nonzero for emulated instructions, 0 for native events
 */
void ref_count(struct run *run, int i, uint64_t n, int op, int emul);

/**
 * ref_fold_point() - KVM must fold a counter before the next VM-entry
 * @r: the reference
 * @i: the counter's index
 * @op: the op that makes the fold due
 */
void ref_fold_point(struct ref *r, int i, int op);

/**
 * ref_set_value() - a counter now holds exactly a value in KVM
 * @r: the reference
 * @i: the counter's index
 * @v: the value (a write, a restore), cut to the counter's width
 */
void ref_set_value(struct ref *r, int i, uint64_t v);

/**
 * ctr_name() - a counter's name in messages and trace files
 * @i: the counter's index
 *
 * Return: "gpN" or "fixedN", in one of four static buffers used in turn.
 */
const char *ctr_name(int i);

/**
 * ctr_msr() - a counter's full-width MSR
 * @cfg: the PMU configuration
 * @i: the counter's index
 *
 * Return: the MSR's index.
 */
uint32_t ctr_msr(const struct sim_cfg *cfg, int i);

/**
 * emulated_in_ref() - an emulated instruction in the reference
 * @run: the run
 * @branch: nonzero for a branch instruction
 * @k: the op's index in the trace
 */
void emulated_in_ref(struct run *run, int branch, int k);

/* ops.c: running ops on one tree */

/**
 * exec_op() - one op of a trace, on the run's tree and on its reference
 * @run: the run
 * @o: the op
 * @k: its index in the trace
 *
 * The invariants are checked after it: a failure is in run->f.
 */
void exec_op(struct run *run, const struct op *o, int k);

/**
 * do_entry() - a VM-entry, and the checks of what it must deliver
 * @run: the run
 * @op: the op it belongs to
 */
void do_entry(struct run *run, int op);

/**
 * run_init() - a run of a trace's configuration on a tree, no op yet
 * @run: the run to set up
 * @t: the tree
 * @tr: the trace (its configuration, tolerance and host's period)
 * @logging: nonzero to log the tree's calls
 *
 * A run is ended with run_fini().
 */
void run_init(struct run *run, const struct sim_tree *t,
	      const struct trace *tr, int logging);

/**
 * run_fini() - free a run's vCPU and logs
 * @run: the run
 */
void run_fini(struct run *run);

/**
 * run_trace() - a trace on a tree, to its end or its first failure
 * @run: the run, set up here; end it with run_fini()
 * @t: the tree
 * @tr: the trace
 * @logging: nonzero to log the tree's calls op by op in run->op_log
 */
void run_trace(struct run *run, const struct sim_tree *t,
	       const struct trace *tr, int logging);

/* points.c: the tree's calls for ops.c, and the invariants' checks */

/**
 * run_fail() - the run's first failure: the op, the invariant and what broke
 * @run: the run
 * @op: the op's index in the trace
 * @inv: the invariant's name ("i", "ii-a", ...)
 * @fmt: printf format of what happened, and its arguments
 *
 * A run keeps its first failure only.
 */
__printf(4, 5) void run_fail(struct run *run, int op, const char *inv,
			     const char *fmt, ...);

/**
 * op_ctr_msr() - counter @i's MSR for an op with flags @c
 * @cfg: the PMU configuration
 * @i: the counter's index
 * @c: the op's flags (CTR_LEGACY)
 *
 * Return: the legacy MSR with CTR_LEGACY (gp counters), else ctr_msr()'s.
 */
uint32_t op_ctr_msr(const struct sim_cfg *cfg, int i, uint32_t c);

/**
 * written_value() - what a write to a counter's MSR puts in the counter
 * @r: the reference
 * @i: the counter's index
 * @data: the value written
 * @c: the op's flags (CTR_LEGACY)
 * @host: nonzero for userspace's write
 *
 * Return: the counter's value after the write.
 */
uint64_t written_value(const struct ref *r, int i, uint64_t data,
		       uint32_t c, int host);

/**
 * evsel_msr() - a gp counter's event select MSR
 * @cfg: the PMU configuration
 * @i: the counter's index
 *
 * Return: the MSR's index.
 */
uint32_t evsel_msr(const struct sim_cfg *cfg, int i);

/**
 * status_msr() - the vendor's GLOBAL_STATUS MSR
 * @cfg: the PMU configuration
 *
 * Return: the MSR's index.
 */
uint32_t status_msr(const struct sim_cfg *cfg);

/**
 * gctrl_msr() - the vendor's GLOBAL_CTRL MSR
 * @cfg: the PMU configuration
 *
 * Return: the MSR's index.
 */
uint32_t gctrl_msr(const struct sim_cfg *cfg);

/**
 * check_read() - a counter's read against the reference (invariant i)
 * @run: the run
 * @op: the op's index
 * @i: the counter's index
 * @got: what the tree read
 * @how: the read's name in messages
 */
void check_read(struct run *run, int op, int i, uint64_t got,
		const char *how);

/**
 * check_status() - after every op: owed wraps shown, spurious signals noted
 * @run: the run
 */
void check_status(struct run *run);

/**
 * native_refused() - whether native events of an event have no perf event
 * @run: the run
 * @code: the event
 *
 * Return: nonzero if the event is refused.
 */
int native_refused(const struct run *run, uint64_t code);

/**
 * check_native_late() - native events past a wrap within the batch (ii-b)
 * @run: the run
 * @op: the op's index
 */
void check_native_late(struct run *run, int op);

/**
 * note_created() - the INT KVM takes at a counter's event's creation
 * @run: the run
 */
void note_created(struct run *run);

/**
 * guest_enter() - the vCPU enters the guest, if not in it
 * @run: the run
 * @op: the op's index
 */
void guest_enter(struct run *run, int op);

/**
 * guest_exit() - the guest runs an instruction that exits to KVM
 * @run: the run
 * @op: the op's index
 * @msr_write: nonzero for a WRMSR
 */
void guest_exit(struct run *run, int op, int msr_write);

/**
 * guest_wrmsr() - the guest's WRMSR; a fault breaks invariant i
 * @run: the run
 * @op: the op's index
 * @msr: the MSR
 * @val: the value
 * @what: its name in messages
 */
void guest_wrmsr(struct run *run, int op, uint32_t msr, uint64_t val,
		 const char *what);

/**
 * host_wrmsr() - userspace's KVM_SET_MSRS of one MSR
 * @run: the run
 * @op: the op's index
 * @msr: the MSR
 * @val: the value
 * @what: its name in messages
 */
void host_wrmsr(struct run *run, int op, uint32_t msr, uint64_t val,
		const char *what);

/**
 * userspace_point() - KVM_RUN returns to userspace before a userspace op
 * @run: the run
 * @op: the op's index
 */
void userspace_point(struct run *run, int op);

/**
 * check_save() - every owed wrap signalled when userspace saves the vCPU
 * @run: the run
 * @op: the op's index
 * @status: the GLOBAL_STATUS saved
 * @v2: nonzero for PMU v2
 */
void check_save(struct run *run, int op, uint64_t status, int v2);

/**
 * read_point() - a read that traps: the guest's own, or userspace's
 * @run: the run
 * @op: the op's index
 * @by_guest: nonzero for the guest's
 */
void read_point(struct run *run, int op, int by_guest);

/**
 * save_restore() - the vCPU's PMU saved, and restored on a fresh vCPU
 * @run: the run
 * @k: the op's index
 */
void save_restore(struct run *run, int k);

/**
 * set_param() - the parameter becomes a tolerance
 * @run: the run
 * @tol: the new tolerance
 */
void set_param(struct run *run, unsigned int tol);

/* trace.c: generating traces */

/**
 * push() - append an op to a trace, growing its ops
 * @tr: the trace
 * @alloc: the ops allocated, updated
 * @o: the op
 */
void push(struct trace *tr, int *alloc, struct op o);

/**
 * gen_trace() - a random trace from the generator's state
 * @tr: the trace to fill (its ops are malloc()ed: free tr->ops)
 * @g: what to generate
 * @tol: the trace's tolerance
 *
 * The same rng_state and options give the same trace.
 */
void gen_trace(struct trace *tr, const struct gen_opts *g, unsigned int tol);

/**
 * trace_min_period() - the host's minimum sample period of a trace
 * @seed: the run's seed
 * @idx: the trace's index
 *
 * Drawn from a stream of its own, so that the traces' ops stay those of
 * the seed.
 *
 * Return: 0 (none), 32 or 128.
 */
uint64_t trace_min_period(uint64_t seed, long idx);

/**
 * trace_runs() - how KVM_RUN returns at each userspace op of a trace
 * @tr: the trace, its ops' run and run_branch set
 * @seed: the run's seed
 * @idx: the trace's index
 * @without: the generator's --without mask (WITHOUT_KVM_RUN: none)
 *
 * Drawn from a stream of its own, as trace_min_period(): half of the
 * userspace ops come after vcpu_run()'s normal return, the others after
 * one of the other paths of enum sim_run (a completion's only before a
 * read or a save: op_reads_state()).
 */
void trace_runs(struct trace *tr, uint64_t seed, long idx,
		unsigned int without);

/* tracefile.c: printing and reading traces */

/**
 * print_trace() - a trace in the trace file format (docs/sim.md)
 * @f: where to print
 * @tr: the trace
 */
void print_trace(FILE *f, const struct trace *tr);

/**
 * parse_trace() - read a trace file
 * @file: its path
 * @tr: the trace read (its ops are malloc()ed: free tr->ops)
 *
 * A file that cannot be read, or a line that is no part of a trace, is
 * reported as FILE:LINE and the program exits 2.
 */
void parse_trace(const char *file, struct trace *tr);

/* check.c: judging a trace, shrinking it, the figure */

/**
 * sim_now() - the monotonic clock
 *
 * Return: seconds.
 */
double sim_now(void);

/**
 * check_trace() - every invariant on a trace
 * @tr: the trace
 * @f: its first failure, if any
 * @self_only: nonzero to check the pristine tree against the model only
 *
 * Return: 1 if the trace fails (then @f says how), else 0.
 */
int check_trace(const struct trace *tr, struct failure *f, int self_only);

/**
 * shrink() - delta debugging: a shorter trace failing the same invariant
 * @tr: the failing trace, shortened in place
 * @orig: its failure
 * @budget: seconds to spend
 * @self_only: as check_trace()'s
 */
void shrink(struct trace *tr, const struct failure *orig, double budget,
	    int self_only);

/**
 * print_counterexample() - a failing trace, and the calls that show why
 * @tr: the trace
 * @where: the seed and trace, or the file, it came from
 * @f: its failure
 * @self_only: as check_trace()'s
 */
void print_counterexample(const struct trace *tr, const char *where,
			  const struct failure *f, int self_only);

/**
 * judge_figures() - print the figure at every tolerance, judge v and vi
 * @batching: nonzero if the patched tree has the parameter (invariant v)
 * @inv: set to the first invariant broken ("v", "vi"), at least 4 bytes
 * @what: set to what broke it
 * @len: @what's size
 */
void judge_figures(int batching, char *inv, char *what, size_t len);

/**
 * replay() - the one trace of a file, every invariant, no shrinking
 * @file: the trace file
 * @self_only: as check_trace()'s
 *
 * Prints the trace and the calls of the patched tree (the pristine tree's
 * with @self_only), and the RESULT line.
 *
 * Return: 1 if it fails, else 0.
 */
int replay(const char *file, int self_only);

#endif
