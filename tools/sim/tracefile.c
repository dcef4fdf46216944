// SPDX-License-Identifier: GPL-2.0
/*
 * The trace file format (docs/sim.md, "Trace files"): a trace printed one
 * line per op, a counterexample's printout included, and such a file read
 * back into a trace.  trace.c generates the traces.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

/*
 * The trace file format (docs/sim.md, "Trace files"): one line per op, as
 * the parser reads it back; a counterexample is printed this way.
 */
static void print_op(FILE *f, const struct op *o, int k)
{
	char line[160];
	int n = snprintf(line, sizeof(line), "%s", op_names[o->type]);

	switch (o->type) {
	case OP_EMUL:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIu64 " %s%s%s",
			      o->a, o->b ? "branch" : "instruction",
			      o->c & EMUL_B2B ? " b2b" : "",
			      o->c & EMUL_AFTER_WRMSR ? " after-wrmsr" : "");
		break;
	case OP_NATIVE:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIu64 " %#" PRIx64,
			      o->a, o->b);
		break;
	case OP_RDPMC:
	case OP_RDMSR_CTR:
	case OP_HOST_RD_CTR:
		n += snprintf(line + n, sizeof(line) - n, " %s%s",
			      ctr_name(o->ctr),
			      o->c & CTR_LEGACY ? " legacy" : "");
		break;
	case OP_WR_CTR:
	case OP_WR_EVSEL:
	case OP_HOST_WR_CTR:
	case OP_HOST_WR_EVSEL:
		n += snprintf(line + n, sizeof(line) - n, " %s %#" PRIx64 "%s",
			      ctr_name(o->ctr), o->a,
			      o->c & CTR_LEGACY ? " legacy" : "");
		break;
	case OP_WR_FIXED_CTRL:
	case OP_WR_GLOBAL_CTRL:
	case OP_CLR_STATUS:
	case OP_HOST_WR_STATUS:
		n += snprintf(line + n, sizeof(line) - n, " %#" PRIx64, o->a);
		break;
	case OP_FILTER:
		n += snprintf(line + n, sizeof(line) - n,
			      " %s events=%#" PRIx64 " fixed=%#x",
			      o->a ? "deny" : "allow", o->b, o->c);
		break;
	case OP_PARAM:
	case OP_PARAM_ASYNC:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIu64, o->a);
		break;
	default:
		break;
	}
	if (o->run)
		n += snprintf(line + n, sizeof(line) - n, " run=%s%s",
			      run_names[o->run], !sim_run_cui(o->run) ? "" :
			      o->run_branch ? ":branch" : ":instruction");
	fprintf(f, "  %-44s # op %d\n", line, k);
}

static void print_cfg(FILE *f, const struct trace *tr)
{
	const struct sim_cfg *c = &tr->cfg;

	fprintf(f, "  vendor %s\n  version %d\n  gp %d %d\n",
		c->amd ? "amd" : "intel", c->version, c->nr_gp, c->width_gp);
	if (c->nr_fixed)
		fprintf(f, "  fixed %d %d\n", c->nr_fixed, c->width_fixed);
	fprintf(f, "  tolerance %u\n", tr->tolerance);
	if (tr->min_period)
		fprintf(f, "  min-period %" PRIu64 "\n", tr->min_period);
}

void print_trace(FILE *f, const struct trace *tr)
{
	int k;

	fprintf(f, "  # a trace file: sim --trace FILE (kverify sim --trace FILE) replays it\n");
	print_cfg(f, tr);
	for (k = 0; k < tr->n; k++)
		print_op(f, &tr->ops[k], k);
	fprintf(f, "  end\n");
}

/* ---- reading a trace file ---- */

struct parse {
	const char *file;
	int line;
};

static void __printf(2, 3) parse_die(const struct parse *p,
				     const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sim: %s:%d: ", p->file, p->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (docs/sim.md, \"Trace files\", gives the format)\n");
	exit(2);
}

static uint64_t parse_u64(const struct parse *p, const char *tok,
			  const char *what)
{
	char *end;
	uint64_t v;

	if (!tok)
		parse_die(p, "%s missing", what);
	errno = 0;
	v = strtoull(tok, &end, 0);
	if (errno || end == tok || *end || *tok == '-')
		parse_die(p, "%s: '%s' is not a number", what, tok);
	return v;
}

static int parse_ctr(const struct parse *p, const struct sim_cfg *cfg,
		     const char *tok)
{
	unsigned int n;
	char c;

	if (!tok)
		parse_die(p, "a counter (gpN or fixedN) missing");
	if (sscanf(tok, "gp%u%c", &n, &c) == 1 && (int)n < cfg->nr_gp)
		return n;
	if (sscanf(tok, "fixed%u%c", &n, &c) == 1 && (int)n < cfg->nr_fixed)
		return FIXED + n;
	parse_die(p, "'%s' is no counter of this configuration (gp0-gp%d%s)",
		  tok, cfg->nr_gp - 1, cfg->nr_fixed ? ", fixed0-..." : "");
	return -1;
}

static uint64_t parse_event(const struct parse *p, const struct sim_cfg *cfg,
			    const char *tok)
{
	if (tok && !strcmp(tok, "instructions"))
		return EV_INSN;
	if (tok && !strcmp(tok, "branches"))
		return ev_branch(cfg);
	if (tok && !strcmp(tok, "cycles"))
		return EV_CYCLES;
	if (tok && !strcmp(tok, "ref-cycles"))
		return EV_REF;
	return parse_u64(p, tok, "the event (instructions, branches, cycles, ref-cycles or an event select)");
}

/* "vendor", "version", "gp", "fixed", "tolerance" come before the first op. */
/*
 * A configuration line of a trace file ("vendor", "version", "gp", "fixed",
 * "tolerance", "min-period"): 1 if @name is one, read into @tr.
 */
static int parse_cfg_line(const struct parse *p, struct trace *tr,
			  const char *name, char **save, int *have_vendor)
{
	struct sim_cfg *cfg = &tr->cfg;
	const char *tok;
	uint64_t a, b;
	int gp = !strcmp(name, "gp");

	if (strcmp(name, "vendor") && strcmp(name, "version") && !gp &&
	    strcmp(name, "fixed") && strcmp(name, "tolerance") &&
	    strcmp(name, "min-period"))
		return 0;
	tok = strtok_r(NULL, " \t\r\n", save);
	if (!strcmp(name, "vendor")) {
		if (!tok || (strcmp(tok, "intel") && strcmp(tok, "amd")))
			parse_die(p, "vendor is intel or amd");
		cfg->amd = !strcmp(tok, "amd");
		*have_vendor = 1;
		if (cfg->amd)
			cfg->nr_fixed = 0;
	} else if (!strcmp(name, "version")) {
		a = parse_u64(p, tok, "the PMU version");
		if (a < 1 || a > 2)
			parse_die(p, "PMU version 1 or 2, not %" PRIu64, a);
		cfg->version = a;
	} else if (!strcmp(name, "tolerance")) {
		a = parse_u64(p, tok, "the tolerance");
		if (a > 4294967295ULL)
			parse_die(p, "the tolerance is at most 4294967295");
		tr->tolerance = a;
	} else if (!strcmp(name, "min-period")) {
		a = parse_u64(p, tok, "the host's minimum period");
		if (a > 4096)
			parse_die(p, "the host's minimum period is at most 4096");
		tr->min_period = a;
	} else {
		a = parse_u64(p, tok, "the number of counters");
		b = parse_u64(p, strtok_r(NULL, " \t\r\n", save),
			      "the counters' width in bits");
		if (a > (gp ? 8U : 3U) || (gp && !a) || b < 8 || b > 48)
			parse_die(p, "%s: 1-8 gp or 0-3 fixed counters, 8-48 bits wide",
				  name);
		*(gp ? &cfg->nr_gp : &cfg->nr_fixed) = a;
		*(gp ? &cfg->width_gp : &cfg->width_fixed) = b;
	}
	tok = strtok_r(NULL, " \t\r\n", save);
	if (tok)
		parse_die(p, "'%s' after %s's values", tok, name);
	return 1;
}

/* "legacy" after a counter op: its legacy MSR (op_ctr_msr()). */
static void parse_legacy(const struct parse *p, const struct sim_cfg *cfg,
			 struct op *o)
{
	if (o->type != OP_WR_CTR && o->type != OP_HOST_WR_CTR &&
	    o->type != OP_RDMSR_CTR && o->type != OP_HOST_RD_CTR)
		parse_die(p, "'legacy' follows only a counter's read or write");
	if (o->ctr >= FIXED || (cfg->amd && o->ctr >= 4))
		parse_die(p, "a legacy MSR is Intel's PERFCTR0-7 or AMD's K7 PERFCTR0-3");
	o->c |= CTR_LEGACY;
}

/*
 * "run=NAME[:instruction|branch]" after a userspace op: how the KVM_RUN
 * before it returned (enum sim_run); 1 if @tok is one.
 */
static int parse_run(const struct parse *p, struct op *o, const char *tok)
{
	size_t len;
	int i;

	if (strncmp(tok, "run=", 4))
		return 0;
	tok += 4;
	len = strcspn(tok, ":");
	for (i = 0; i < NR_SIM_RUN; i++)
		if (strlen(run_names[i]) == len && !strncmp(tok, run_names[i], len))
			break;
	if (i == NR_SIM_RUN)
		parse_die(p, "run=%s: no such return (normal, signal, immediate-exit, pre-run-fails, cui-exit, cui-immediate-exit, cui-pre-run-fails)",
			  tok);
	if (!op_at_userspace(o->type))
		parse_die(p, "run= follows only a userspace op: KVM_RUN returned before it");
	if (sim_run_cui(i) && !op_reads_state(o->type))
		parse_die(p, "run=%s: a completion's early return comes before a userspace read or a save only",
			  run_names[i]);
	o->run = i;
	if (!tok[len] || !sim_run_cui(i))
		o->run_branch = 0;
	else if (!strcmp(tok + len, ":branch"))
		o->run_branch = 1;
	else if (strcmp(tok + len, ":instruction"))
		parse_die(p, "run=%s: what the completion retires is :instruction or :branch",
			  tok);
	if (tok[len] && !sim_run_cui(i))
		parse_die(p, "run=%s: only a completion (cui-*) retires an instruction",
			  tok);
	return 1;
}

/* The next word of the line, NULL at its end. */
static char *next_tok(char **save)
{
	return strtok_r(NULL, " \t\r\n", save);
}

/*
 * Each op's arguments (docs/sim.md, "Trace files"), read into @o: an entry
 * of parse_args[] per enum op_type that has any.
 */
static void parse_emul(const struct parse *p, const struct sim_cfg *cfg,
		       struct op *o, char **save)
{
	const char *tok;

	(void)cfg;
	o->a = parse_u64(p, next_tok(save),
			 "the number of emulated instructions");
	if (!o->a || o->a > 1000000)
		parse_die(p, "1 to 1000000 emulated instructions");
	tok = next_tok(save);
	if (!tok || (strcmp(tok, "instruction") && strcmp(tok, "branch")))
		parse_die(p, "emulate N instruction|branch [b2b] [after-wrmsr]");
	o->b = !strcmp(tok, "branch");
	while ((tok = next_tok(save))) {
		if (!strcmp(tok, "b2b"))
			o->c |= EMUL_B2B;
		else if (!strcmp(tok, "after-wrmsr"))
			o->c |= EMUL_AFTER_WRMSR;
		else
			parse_die(p, "'%s': emulate takes b2b and after-wrmsr",
				  tok);
	}
}

static void parse_native(const struct parse *p, const struct sim_cfg *cfg,
			 struct op *o, char **save)
{
	o->a = parse_u64(p, next_tok(save), "the number of native events");
	o->b = parse_event(p, cfg, next_tok(save));
}

/* rdpmc, rdmsr-ctr, host-rdmsr-ctr: a counter. */
static void parse_read(const struct parse *p, const struct sim_cfg *cfg,
		       struct op *o, char **save)
{
	o->ctr = parse_ctr(p, cfg, next_tok(save));
}

/* A counter's or an EVENTSEL's write: a counter and the value. */
static void parse_write(const struct parse *p, const struct sim_cfg *cfg,
			struct op *o, char **save)
{
	o->ctr = parse_ctr(p, cfg, next_tok(save));
	if ((o->type == OP_WR_EVSEL || o->type == OP_HOST_WR_EVSEL) &&
	    o->ctr >= FIXED)
		parse_die(p, "fixed counters have no EVENTSEL: wrmsr-fixed-ctrl");
	o->a = parse_u64(p, next_tok(save), "the value");
}

/* A control or status MSR's write: the value. */
static void parse_value(const struct parse *p, const struct sim_cfg *cfg,
			struct op *o, char **save)
{
	o->a = parse_u64(p, next_tok(save), "the value");
	if (o->type != OP_WR_FIXED_CTRL && cfg->version < 2)
		parse_die(p, "%s needs PMU version 2", op_names[o->type]);
	if (o->type == OP_WR_FIXED_CTRL && !cfg->nr_fixed)
		parse_die(p, "no fixed counters");
}

static void parse_filter(const struct parse *p, const struct sim_cfg *cfg,
			 struct op *o, char **save)
{
	uint64_t ev = 0, fx = 0;
	const char *tok = next_tok(save);

	(void)cfg;
	if (!tok || (strcmp(tok, "allow") && strcmp(tok, "deny")))
		parse_die(p, "set-filter allow|deny events=MASK fixed=MASK");
	o->a = !strcmp(tok, "deny");
	while ((tok = next_tok(save))) {
		if (parse_run(p, o, tok))
			continue;
		if (!strncmp(tok, "events=", 7))
			ev = parse_u64(p, tok + 7, "events=");
		else if (!strncmp(tok, "fixed=", 6))
			fx = parse_u64(p, tok + 6, "fixed=");
		else
			parse_die(p, "'%s': set-filter takes events=MASK (bit 0 instructions, 1 branches, 2 cycles) and fixed=MASK",
				  tok);
	}
	if (ev > 7 || fx > 7)
		parse_die(p, "events= and fixed= are masks of 3 bits");
	o->b = ev;
	o->c = fx;
}

static void parse_param(const struct parse *p, const struct sim_cfg *cfg,
			struct op *o, char **save)
{
	(void)cfg;
	o->a = parse_u64(p, next_tok(save), "the tolerance");
	if (o->a > 4294967295ULL)
		parse_die(p, "the tolerance is at most 4294967295");
}

static void (*const parse_args[NR_OPS])(const struct parse *p,
					const struct sim_cfg *cfg,
					struct op *o, char **save) = {
	[OP_EMUL] = parse_emul,
	[OP_NATIVE] = parse_native,
	[OP_RDPMC] = parse_read,
	[OP_RDMSR_CTR] = parse_read,
	[OP_HOST_RD_CTR] = parse_read,
	[OP_WR_CTR] = parse_write,
	[OP_WR_EVSEL] = parse_write,
	[OP_HOST_WR_CTR] = parse_write,
	[OP_HOST_WR_EVSEL] = parse_write,
	[OP_WR_FIXED_CTRL] = parse_value,
	[OP_WR_GLOBAL_CTRL] = parse_value,
	[OP_CLR_STATUS] = parse_value,
	[OP_HOST_WR_STATUS] = parse_value,
	[OP_FILTER] = parse_filter,
	[OP_PARAM] = parse_param,
	[OP_PARAM_ASYNC] = parse_param,
};

/* Before the first op: the configuration is one the sim runs. */
static void parse_check_cfg(const struct parse *p, const struct sim_cfg *cfg,
			    int have_vendor)
{
	if (!have_vendor)
		parse_die(p, "no 'vendor intel' or 'vendor amd' before the first op");
	if (cfg->amd && cfg->nr_fixed)
		parse_die(p, "AMD has no fixed counters");
	if (cfg->amd && cfg->width_gp != 48)
		parse_die(p, "AMD counters are 48 bits wide");
	if (cfg->amd && cfg->nr_gp != 4 && cfg->nr_gp != 6)
		parse_die(p, "AMD has 4 or 6 gp counters");
	if (!cfg->amd && cfg->version != 2)
		parse_die(p, "Intel is PMU version 2 here");
	if (era_sync && cfg->amd && cfg->version > 1)
		parse_die(p, "the sync era has no AMD PerfMonV2: version 1");
}

/* The op @name, its arguments and an optional "legacy", into @o. */
static void parse_op(const struct parse *p, const struct sim_cfg *cfg,
		     const char *name, char **save, struct op *o)
{
	const char *tok;
	int i;

	for (i = 0; i < NR_OPS; i++)
		if (!strcmp(name, op_names[i]))
			break;
	if (i == NR_OPS)
		parse_die(p, "no op '%s'", name);
	o->type = i;
	if (parse_args[o->type])
		parse_args[o->type](p, cfg, o, save);
	tok = o->type != OP_EMUL && o->type != OP_FILTER ? next_tok(save) :
							   NULL;
	if (tok && !strcmp(tok, "legacy")) {
		parse_legacy(p, cfg, o);
		tok = next_tok(save);
	}
	if (tok && parse_run(p, o, tok))
		tok = next_tok(save);
	if (tok)
		parse_die(p, "'%s' after %s's arguments", tok, name);
}

/* Where parse_trace() is in its file. */
struct parse_state {
	struct parse p;
	struct trace *tr;
	int alloc, seen_op, have_vendor;
};

/* One line of the file, in @buf: 1 at "end", else 0. */
static int parse_line(struct parse_state *s, char *buf)
{
	struct op o = { OP_ENTRY, 0, 0, 0, 0, 0, 0 };
	const struct parse *p = &s->p;
	char *save, *hash;
	const char *name;

	if (!strncmp(buf, "COUNTEREXAMPLE", 14))
		return 0;
	hash = strchr(buf, '#');
	if (hash)
		*hash = '\0';
	name = strtok_r(buf, " \t\r\n", &save);
	if (!name)
		return 0;
	if (!strcmp(name, "end"))
		return 1;
	if (parse_cfg_line(p, s->tr, name, &save, &s->have_vendor)) {
		if (s->seen_op)
			parse_die(p, "'%s' after the first op: the configuration comes first",
				  name);
		return 0;
	}
	if (!s->seen_op) {
		s->seen_op = 1;
		parse_check_cfg(p, &s->tr->cfg, s->have_vendor);
	}
	parse_op(p, &s->tr->cfg, name, &save, &o);
	push(s->tr, &s->alloc, o);
	return 0;
}

static void cannot_read(const char *file)
{
	fprintf(stderr, "sim: cannot read %s: %s\n", file, strerror(errno));
	exit(2);
}

void parse_trace(const char *file, struct trace *tr)
{
	struct parse_state s = { .p = { file, 0 }, .tr = tr };
	struct sim_cfg *cfg = &tr->cfg;
	char buf[1024];
	FILE *f = fopen(file, "r");

	memset(tr, 0, sizeof(*tr));
	cfg->version = 2;
	cfg->nr_gp = 1;
	cfg->width_gp = 48;
	cfg->width_fixed = 48;
	if (!f)
		cannot_read(file);
	while (fgets(buf, sizeof(buf), f)) {
		s.p.line++;
		if (!strchr(buf, '\n') && !feof(f))
			parse_die(&s.p, "line longer than %zu characters",
				  sizeof(buf) - 2);
		if (parse_line(&s, buf))
			break;
	}
	if (ferror(f))
		cannot_read(file);
	fclose(f);
	if (!s.have_vendor) {
		s.p.line++;
		parse_die(&s.p, "no 'vendor intel' or 'vendor amd': not a trace");
	}
}
