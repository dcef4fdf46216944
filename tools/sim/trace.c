// SPDX-License-Identifier: GPL-2.0
/*
 * The sim's traces: generated from a seed (a stream of splitmix64 per
 * trace, so that trace N of a seed is the same whatever ran before it).
 * tracefile.c prints them in the trace file format and reads them back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

const char *const op_names[NR_OPS] = {
	"vm-entry", "emulate", "native", "rdpmc", "rdmsr-ctr",
	"rdmsr-status", "wrmsr-ctr", "wrmsr-evtsel", "wrmsr-fixed-ctrl",
	"wrmsr-global-ctrl", "clear-status", "host-rdmsr-ctr",
	"host-rdmsr-status", "set-filter", "set-param", "save-restore",
	"host-wrmsr-ctr", "host-wrmsr-evtsel", "host-wrmsr-status",
	"sched-in", "set-param-async",
};

uint64_t rng_state;

/* splitmix64's output function: a well-mixed 64 bits of @z */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(void)
{
	return mix64(rng_state += 0x9e3779b97f4a7c15ULL);
}

static uint64_t rn(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* The traces' tolerances, one per trace in turn: small ones more often. */
const unsigned int trace_tolerances[10] = {
	0, 1, 3, 17, 1000, 0, 1, 100000, 10000000, 4294967295U,
};

/*
 * The host's minimum sample period of trace @idx of @seed (perf's
 * limit_period: none, Haswell's 32, Broadwell's 128), drawn from a stream
 * of its own so that the traces' ops stay those of the seed.
 */
uint64_t trace_min_period(uint64_t seed, long idx)
{
	static const uint64_t min_periods[] = { 0, 32, 128 };
	uint64_t z = (seed * 0x100000001b3ULL + idx) ^ 0x6c696d6974ULL;

	return min_periods[mix64(z) % ARRAY_SIZE(min_periods)];
}

const char *const run_names[NR_SIM_RUN] = {
	"normal", "signal", "immediate-exit", "pre-run-fails", "cui-exit",
	"cui-immediate-exit", "cui-pre-run-fails",
};

void trace_runs(struct trace *tr, uint64_t seed, long idx,
		unsigned int without)
{
	uint64_t z = (seed * 0x100000001b3ULL + idx) ^ 0x6b766d72756eULL;
	int k;

	for (k = 0; k < tr->n; k++) {
		struct op *o = &tr->ops[k];
		uint64_t r;

		if (!op_at_userspace(o->type) || (without & WITHOUT_KVM_RUN))
			continue;
		r = mix64(z += 0x9e3779b97f4a7c15ULL);
		o->run = r % 2 ? SIM_RUN_NORMAL :
			 1 + (r >> 1) % (op_reads_state(o->type) ?
					 NR_SIM_RUN - 1 : SIM_RUN_CUI_EXIT - 1);
		o->run_branch = r >> 8 & 1;
	}
}

void push(struct trace *tr, int *alloc, struct op o)
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

/* What each of gen_trace()'s draws needs to make its op. */
struct gen_ctx {
	const struct gen_opts *g;
	const struct sim_cfg *cfg;
	unsigned int tol;
	uint64_t mask;		/* the op's counter's */
	uint64_t all;		/* every counter's bit */
	enum op_type prev;	/* the op before it */
	struct trace *tr;
	int *alloc;
};

/*
 * The draws of gen_trace(), each its op type's share of rn(100) (up to
 * @below): make the op in @o, 0 to make none.  Each draws from the stream
 * as it always did, so that a seed's traces stay what they were.
 */
static int draw_emul(struct gen_ctx *c, struct op *o)
{
	gen_emul(o, c->g, c->tol, c->mask, c->prev);
	/*
	 * Emulate ops in a row would share an exit: an entry between them
	 * keeps a run within 130.
	 */
	if (c->prev == OP_EMUL && !(c->g->without & 1U << OP_ENTRY))
		push(c->tr, c->alloc, (struct op){ OP_ENTRY, 0, 0, 0, 0, 0, 0 });
	return 1;
}

static int draw_entry(struct gen_ctx *c, struct op *o)
{
	(void)c;
	o->type = OP_ENTRY;
	return 1;
}

static int draw_native(struct gen_ctx *c, struct op *o)
{
	static const uint64_t codes[] = { EV_INSN, 0, EV_CYCLES, EV_REF };

	o->type = OP_NATIVE;
	o->b = codes[rn(4)];
	if (!o->b)
		o->b = ev_branch(c->cfg);
	o->a = rn(3) ? 1 + rn(8) : 1 + rn(200);
	return 1;
}

static int draw_read_ctr(struct gen_ctx *c, struct op *o)
{
	(void)c;
	o->type = rn(2) ? OP_RDPMC : OP_RDMSR_CTR;
	return 1;
}

static int draw_read_status(struct gen_ctx *c, struct op *o)
{
	(void)c;
	o->type = OP_RDMSR_STATUS;
	return 1;
}

static int draw_write_ctr(struct gen_ctx *c, struct op *o)
{
	o->type = OP_WR_CTR;
	o->a = rn(3) ? near_wrap(c->mask, c->tol) : rnd() & c->mask;
	return 1;
}

/* A fixed counter's FIXED_CTR_CTRL field, or a gp counter's EVENTSEL. */
static int draw_write_ctrl(struct gen_ctx *c, struct op *o)
{
	int i;

	if (o->ctr >= FIXED) {
		uint64_t f = rn(3) ? (rn(2) ? 0xb : 0x3) : 0;

		o->type = OP_WR_FIXED_CTRL;
		o->a = 0;
		for (i = 0; i < c->cfg->nr_fixed; i++)
			o->a |= (uint64_t)(i == o->ctr - FIXED ?
				f : (rn(4) ? 0xb : 0)) << (4 * i);
	} else {
		o->type = OP_WR_EVSEL;
		o->a = rand_evsel(c->cfg);
		if (!rn(3))
			o->a &= ~EVSEL_EN;
	}
	return 1;
}

static int draw_global_ctrl(struct gen_ctx *c, struct op *o)
{
	if (c->cfg->version < 2)
		return 0;
	o->type = OP_WR_GLOBAL_CTRL;
	o->a = rn(3) ? c->all : rn(2) ? 0 : c->all & rnd();
	return 1;
}

static int draw_clr_status(struct gen_ctx *c, struct op *o)
{
	if (c->cfg->version < 2)
		return 0;
	o->type = OP_CLR_STATUS;
	o->a = rn(2) ? c->all : 1ULL << o->ctr;
	return 1;
}

static int draw_host_rd_ctr(struct gen_ctx *c, struct op *o)
{
	(void)c;
	o->type = OP_HOST_RD_CTR;
	return 1;
}

static int draw_host_rd_status(struct gen_ctx *c, struct op *o)
{
	if (c->cfg->version < 2)
		return 0;
	o->type = OP_HOST_RD_STATUS;
	return 1;
}

/*
 * The sync era counts emulated instructions on a filtered counter through
 * the stale current_config of its last reprogram: no model of that, no
 * filter ops.
 */
static int draw_filter(struct gen_ctx *c, struct op *o)
{
	if (c->g->era_sync)
		return 0;
	o->type = OP_FILTER;
	o->a = rn(2);
	o->b = rn(8);
	o->c = rn(8);
	return 1;
}

/*
 * At a userspace point, or (a bit of the stream's state, no draw: the
 * seeds' ops stay) while the vCPU runs, batches pending.
 */
static int draw_param(struct gen_ctx *c, struct op *o)
{
	o->type = rng_state >> 29 & 1 ? OP_PARAM_ASYNC : OP_PARAM;
	if (c->g->without & (1U << OP_PARAM))
		return 0;
	o->a = c->g->tolerance >= 0 ? (unsigned int)c->g->tolerance :
		trace_tolerances[rn(ARRAY_SIZE(trace_tolerances))];
	return 1;
}

static int draw_save_restore(struct gen_ctx *c, struct op *o)
{
	(void)c;
	o->type = OP_SAVE_RESTORE;
	return 1;
}

/* Userspace writes a counter, an EVENTSEL or GLOBAL_STATUS. */
static int draw_host_write(struct gen_ctx *c, struct op *o)
{
	int h = rn(3);

	if (h == 2 && c->cfg->version < 2)
		return 0;
	if (h == 1 && o->ctr >= FIXED)
		h = 0;
	o->type = h == 0 ? OP_HOST_WR_CTR : h == 1 ?
		  OP_HOST_WR_EVSEL : OP_HOST_WR_STATUS;
	o->a = h == 0 ? (rn(2) ? near_wrap(c->mask, c->tol) :
			 rnd() & c->mask) :
	       h == 1 ? rand_evsel(c->cfg) :
	       (rn(2) ? 0 : c->all & rnd());
	return 1;
}

static int draw_sched_in(struct gen_ctx *c, struct op *o)
{
	(void)c;
	o->type = OP_SCHED_IN;
	return 1;
}

static const struct {
	int below;
	int (*draw)(struct gen_ctx *c, struct op *o);
} gen_draws[] = {
	{ 33, draw_emul }, { 41, draw_entry }, { 50, draw_native },
	{ 55, draw_read_ctr }, { 57, draw_read_status },
	{ 63, draw_write_ctr }, { 70, draw_write_ctrl },
	{ 76, draw_global_ctrl }, { 80, draw_clr_status },
	{ 82, draw_host_rd_ctr }, { 84, draw_host_rd_status },
	{ 88, draw_filter }, { 90, draw_param }, { 93, draw_save_restore },
	{ 96, draw_host_write }, { 97, draw_sched_in }, { 100, draw_entry },
};

/* The counters programmed near their wrap, with their events: @all. */
static uint64_t gen_setup(struct trace *tr, int *alloc, unsigned int tol)
{
	struct sim_cfg *cfg = &tr->cfg;
	uint64_t all = 0;
	int i;

	for (i = 0; i < MAX_CTR; i++) {
		uint64_t mask;

		if (!nr_ctr_idx(cfg, i))
			continue;
		all |= 1ULL << i;
		mask = i < FIXED ? (1ULL << cfg->width_gp) - 1 :
				   (1ULL << cfg->width_fixed) - 1;
		push(tr, alloc, (struct op){ OP_WR_CTR, i,
			near_wrap(mask, tol), 0, 0, 0, 0 });
		if (i < FIXED)
			push(tr, alloc, (struct op){ OP_WR_EVSEL, i,
				rand_evsel(cfg), 0, 0, 0, 0 });
	}
	if (cfg->nr_fixed) {
		uint64_t ctrl = 0;

		for (i = 0; i < cfg->nr_fixed; i++)
			ctrl |= (uint64_t)(rn(2) ? 0xb : 0x3) << (4 * i);
		push(tr, alloc, (struct op){ OP_WR_FIXED_CTRL, 0, ctrl, 0, 0, 0, 0 });
	}
	if (cfg->version > 1)
		push(tr, alloc, (struct op){ OP_WR_GLOBAL_CTRL, 0, all, 0, 0, 0, 0 });
	return all;
}

/* One random op (or none) at the end of @c->tr. */
static void gen_op(struct gen_ctx *c)
{
	const struct sim_cfg *cfg = c->cfg;
	struct trace *tr = c->tr;
	const struct gen_opts *g = c->g;
	struct op o = { OP_ENTRY, pick_ctr(cfg), 0, 0, 0, 0, 0 };
	int r = rn(100);
	size_t d;

	c->mask = o.ctr < FIXED ? (1ULL << cfg->width_gp) - 1 :
				  (1ULL << cfg->width_fixed) - 1;
	c->prev = tr->n ? tr->ops[tr->n - 1].type : OP_ENTRY;
	for (d = 0; r >= gen_draws[d].below; d++)
		;
	if (!gen_draws[d].draw(c, &o))
		return;
	if (g->without & (1U << o.type))
		return;
	o.c |= legacy_flag(cfg, &o);
	push(tr, c->alloc, o);
	/* a write of the counter right after a wrap may have come */
	if (o.type == OP_EMUL && !rn(8) &&
	    !(g->without & (1U << OP_WR_CTR)))
		push(tr, c->alloc, (struct op){ OP_WR_CTR, o.ctr,
			rn(2) ? near_wrap(c->mask, c->tol) : rnd() & c->mask,
			0, 0, 0, 0 });
}

void gen_trace(struct trace *tr, const struct gen_opts *g, unsigned int tol)
{
	struct gen_ctx c = { .g = g, .cfg = &tr->cfg, .tol = tol, .tr = tr };
	int alloc = 0, len, k;

	memset(tr, 0, sizeof(*tr));
	gen_cfg(&tr->cfg, g);
	tr->tolerance = tol;
	c.alloc = &alloc;
	/* program the counters near their wrap */
	c.all = gen_setup(tr, &alloc, tol);
	len = 20 + rn(80);
	for (k = 0; k < len; k++)
		gen_op(&c);
}
