// SPDX-License-Identifier: GPL-2.0
/*
 * kverify latency: the v2 posting's table from ftrace function_graph
 * traces of the guest's __sysvec_apic_timer_interrupt (docs/lab.md).
 *
 * Each trace is one pass at one tolerance: a file the latency job wrote
 * ("# kverify-latency tolerance=T machine=TEXT" heads it) or TOLERANCE=FILE.
 * Every call of the function is a duration: a leaf line
 * (" 1)   3.194 us    |  __sysvec_apic_timer_interrupt();", what
 * max_graph_depth=1 gives) or the "}" that closes its "{" on the same CPU.
 * The figures are those of the posting: mean, p50, p99, p99.9 and max in
 * microseconds, and the number of ticks; a percentile is the nearest rank
 * (the smallest duration with at least p% of them at or below it).  Each
 * pass is a row, v2's published row beside each tolerance, and where a
 * tolerance has several passes a row of their spread.  A trace made under
 * TCG (the guest's CPU is "QEMU TCG CPU", or the header says accel=tcg)
 * gets a loud warning: no PMU, an emulated timer; its numbers mean nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

#define FUNC "__sysvec_apic_timer_interrupt"
#define MAX_CPUS 4096
#define MAX_DEPTH 64

/* v2's table: one run on an AMD EPYC 7R13, 8 vCPUs, 30 s per pass. */
static const struct {
	const char *tolerance;
	double mean, p50, p99, p999, max;
} v2[] = {
	{ "0", 148.973, 11.080, 464.200, 469.569, 919.690 },
	{ "1000", 3.194, 2.950, 7.251, 9.831, 470.100 },
	{ "100000", 2.974, 2.940, 3.869, 4.400, 8.060 },
	{ "10000000", 3.054, 2.940, 7.129, 9.211, 209.880 },
};

struct pass {
	char *file;
	char *tolerance;
	char *machine;
	int tcg;
	double *d;		/* durations, microseconds */
	size_t nr, alloc;
	long lost;		/* events the ring buffer dropped */
	double mean, p50, p99, p999, max;
};

/* Per CPU, whether each open "{" is the function's. */
struct cpu_stack {
	unsigned char is_func[MAX_DEPTH];
	int depth;
};

static void add(struct pass *p, double us)
{
	if (p->nr == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 4096;
		p->d = xrealloc(p->d, p->alloc * sizeof(*p->d));
	}
	p->d[p->nr++] = us;
}

static int bad(const char *file, int line, const char *what)
{
	error("%s:%d: %s", file, line, what);
	return -1;
}

/*
 * "key=value" of a "# kverify-latency tolerance=T accel=A machine=TEXT"
 * line: up to the next blank, machine= to the end of the line.
 */
static char *header_value(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	if (!p || p[-1] != ' ')
		return NULL;
	p += strlen(key);
	if (!strcmp(key, "machine="))
		return xstrdup(p);
	return xstrfmt("%.*s", (int)strcspn(p, " "), p);
}

/*
 * The duration column: "[marker] N.NNN us" before the "|", the markers
 * being + ! # * @ $ (over 10 us ... over 1 s).  1 with *us set, 0 when the
 * column is blank (an entry line), -1 when it is not a duration.
 */
static int duration(const char *s, size_t len, double *us)
{
	char buf[64], *end;
	size_t i = 0;

	while (i < len && strchr(" +!#*@$", s[i]))
		i++;
	if (i == len)
		return 0;
	if (len - i >= sizeof(buf))
		return -1;
	memcpy(buf, s + i, len - i);
	buf[len - i] = '\0';
	errno = 0;
	*us = strtod(buf, &end);
	if (errno || end == buf || !(*us >= 0 && *us < 1e12))
		return -1;
	while (*end == ' ')
		end++;
	if (strncmp(end, "us", 2))
		return -1;
	for (end += 2; *end == ' '; end++)
		;
	return *end ? -1 : 1;
}

static int parse_line(struct pass *p, struct cpu_stack *cpus,
		      const char *file, int n, const char *line)
{
	const char *bar = strchr(line, '|'), *paren, *fn;
	char *end;
	long cpu;
	double us = 0;
	int has;
	struct cpu_stack *c;

	if (strstr(line, "LOST") && strstr(line, "EVENTS")) {
		const char *l = strstr(line, "[LOST ");

		p->lost += l ? strtol(l + 6, NULL, 10) : 1;
		return 0;
	}
	/* " 1)   3.194 us    |  fn();" ; "CPU:1 ..." lines and the like */
	paren = strchr(line, ')');
	if (!bar || !paren || paren > bar)
		return 0;
	errno = 0;
	cpu = strtol(line, &end, 10);
	if (end == line || end != paren || errno || cpu < 0 || cpu >= MAX_CPUS)
		return bad(file, n, "a function_graph line without its CPU \"N)\"");
	has = duration(paren + 1, bar - paren - 1, &us);
	if (has < 0)
		return bad(file, n, "the duration column is not \"N.NNN us\"");
	c = &cpus[cpu];
	for (fn = bar + 1; *fn == ' '; fn++)
		;
	if (*fn == '}') {
		if (!has)
			return bad(file, n, "a \"}\" without its duration");
		if (c->depth == 0)
			return 0;	/* opened before the trace began */
		if (c->is_func[--c->depth])
			add(p, us);
		return 0;
	}
	if (ends_with(fn, "{") || ends_with(fn, "{ ")) {
		if (c->depth < MAX_DEPTH)
			c->is_func[c->depth] = starts_with(fn, FUNC "()");
		if (c->depth < MAX_DEPTH)
			c->depth++;
		return 0;
	}
	if (starts_with(fn, FUNC "();")) {
		if (!has)
			return bad(file, n, "a leaf call without its duration");
		add(p, us);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The nearest rank: the smallest value with @permille at or below it. */
static double rank(const struct pass *p, size_t permille)
{
	size_t k = (permille * p->nr + 999) / 1000;

	return p->d[k ? k - 1 : 0];
}

static int read_pass(struct pass *p)
{
	struct strbuf text = STRBUF_INIT;
	struct cpu_stack *cpus;
	struct line l;
	int n = 0, ret = 0, traced = 0;
	double sum = 0;
	size_t i;

	if (strbuf_read_file(&text, p->file, 1UL << 31) < 0) {
		error("%s: %s", p->file, strerror(errno));
		return -1;
	}
	cpus = calloc(MAX_CPUS, sizeof(*cpus));
	if (!cpus) {
		error("%s", "out of memory");
		strbuf_release(&text);
		return -1;
	}
	for_each_line(l, text.buf) {
		char *line = xstrfmt("%.*s", (int)l.len, l.s);

		n++;
		if (starts_with(line, "# kverify-latency ")) {
			char *t = header_value(line, "tolerance=");
			char *m = header_value(line, "machine=");
			char *a = header_value(line, "accel=");

			if (t && !p->tolerance)
				p->tolerance = t;
			else
				free(t);
			if (m && !p->machine)
				p->machine = m;
			else
				free(m);
			if (a && !strcmp(a, "tcg"))
				p->tcg = 1;
			free(a);
		} else if (starts_with(line, "# tracer: ")) {
			if (strcmp(line, "# tracer: function_graph"))
				ret = bad(p->file, n, "not a function_graph trace (echo function_graph > current_tracer)");
			traced = 1;
		} else if (line[0] != '#' && !ret) {
			ret = parse_line(p, cpus, p->file, n, line);
		}
		free(line);
		if (ret)
			break;
	}
	if (!ret && !p->tolerance)
		ret = bad(p->file, 1, "no tolerance: give TOLERANCE=FILE, or a \"# kverify-latency tolerance=T\" line");
	if (!ret && p->machine && strstr(p->machine, "QEMU TCG CPU"))
		p->tcg = 1;
	if (!ret && !traced)
		ret = bad(p->file, 1, "no \"# tracer: function_graph\" header: not a trace file");
	if (!ret && !p->nr)
		ret = bad(p->file, n, "no call of " FUNC " (set_graph_function, max_graph_depth=1)");
	if (!ret) {
		qsort(p->d, p->nr, sizeof(*p->d), cmp_double);
		for (i = 0; i < p->nr; i++)
			sum += p->d[i];
		p->mean = sum / p->nr;
		p->p50 = rank(p, 500);
		p->p99 = rank(p, 990);
		p->p999 = rank(p, 999);
		p->max = p->d[p->nr - 1];
	}
	free(cpus);
	strbuf_release(&text);
	return ret;
}

static void row(struct strbuf *sb, const char *label, double mean,
		double p50, double p99, double p999, double max,
		const char *ticks)
{
	strbuf_addf(sb, "  %-22s %9.3f %8.3f %8.3f %8.3f %9.3f  %s\n", label,
		    mean, p50, p99, p999, max, ticks);
}

/* The rows of the passes at ps[i]'s tolerance, their spread, v2's row. */
static void tolerance_rows(struct strbuf *sb, const struct pass *ps, int nr,
			   int i)
{
	int j, k, runs = 0;
	double lo[5], hi[5];
	char label[64], ticks[64];

	for (j = i; j < nr; j++) {
		const double f[5] = { ps[j].mean, ps[j].p50, ps[j].p99,
				      ps[j].p999, ps[j].max };

		if (strcmp(ps[j].tolerance, ps[i].tolerance))
			continue;
		for (k = 0; k < 5; k++) {
			lo[k] = !runs || f[k] < lo[k] ? f[k] : lo[k];
			hi[k] = !runs || f[k] > hi[k] ? f[k] : hi[k];
		}
		runs++;
		snprintf(label, sizeof(label), "%s run %d", ps[j].tolerance,
			 runs);
		snprintf(ticks, sizeof(ticks), "%zu%s", ps[j].nr,
			 ps[j].lost ? " (events lost)" : "");
		row(sb, label, f[0], f[1], f[2], f[3], f[4], ticks);
	}
	if (runs > 1)
		strbuf_addf(sb, "  %-22s %4.3f-%-4.3f %4.3f-%-4.3f %4.3f-%-4.3f %4.3f-%-4.3f %4.3f-%-4.3f\n",
			    "  spread (min-max)", lo[0], hi[0], lo[1], hi[1],
			    lo[2], hi[2], lo[3], hi[3], lo[4], hi[4]);
	for (k = 0; k < (int)ARRAY_SIZE(v2); k++)
		if (!strcmp(v2[k].tolerance, ps[i].tolerance))
			row(sb, "  v2 (EPYC 7R13, 1 run)", v2[k].mean,
			    v2[k].p50, v2[k].p99, v2[k].p999, v2[k].max,
			    "~160000");
}

/* The table, TCG's warnings around it, the machines below. */
static void table_text(struct strbuf *sb, const struct pass *ps, int nr)
{
	int i, j, tcg = 0;

	for (i = 0; i < nr; i++)
		tcg |= ps[i].tcg;
	if (tcg)
		strbuf_addstr(sb, "!!! TCG: THESE NUMBERS MEAN NOTHING.  The guest ran under QEMU's TCG:\n"
			      "!!! no PMU (the patch's code never runs), an emulated APIC timer, and\n"
			      "!!! TCG's own speed in every duration.  Only a run on a host with KVM and\n"
			      "!!! a PMU (docs/lab.md) compares with v2's row.\n\n");
	strbuf_addf(sb, "  %-22s %9s %8s %8s %8s %9s  %s\n", "tolerance (us)",
		    "mean", "p50", "p99", "p99.9", "max", "ticks");
	for (i = 0; i < nr; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(ps[j].tolerance, ps[i].tolerance))
				break;
		if (j == i)	/* else shown with its first pass */
			tolerance_rows(sb, ps, nr, i);
	}
	strbuf_addstr(sb, "\nmachine:");
	for (i = 0; i < nr; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(ps[j].machine ? ps[j].machine : "",
				    ps[i].machine ? ps[i].machine : ""))
				break;
		if (j == i)
			strbuf_addf(sb, " %s%s", i ? "; " : "",
				    ps[i].machine ? ps[i].machine : "(not recorded)");
	}
	strbuf_addstr(sb, "\nv2: one run, AMD EPYC 7R13, 8 vCPUs under an 8-thread busy load, 30 s per pass\n");
	if (tcg)
		strbuf_addstr(sb, "\n!!! TCG: THESE NUMBERS MEAN NOTHING (see above).\n");
}

/*
 * The table on stdout and in @results/latency/table.txt, where kverify
 * summary shows it: 0, or -1 after an error naming the file.
 */
static int write_table(const struct pass *ps, int nr, const char *results)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = xstrfmt("%s/latency", results);
	char *path = xstrfmt("%s/table.txt", dir);
	int ret = 0;

	table_text(&sb, ps, nr);
	fwrite(sb.buf, 1, sb.len, stdout);
	fflush(stdout);
	if (mkdir_p(dir) || write_file_atomic(path, sb.buf, sb.len)) {
		error("%s: cannot write it: %s", path, strerror(errno));
		ret = -1;
	} else {
		note("latency: the table in %s (kverify summary shows it)",
		     path);
	}
	free(path);
	free(dir);
	strbuf_release(&sb);
	return ret;
}

/*
 * --lava: each figure of each pass as a line the monitor of
 * tools/lava/latency-monitor.yaml turns into a LAVA test case with a
 * measurement: "kverify-latency-measure: tolerance_0_run_1_p99 464.200 us".
 */
static void print_lava(const struct pass *ps, int nr)
{
	static const char *const names[] = { "mean", "p50", "p99", "p99_9",
					     "max" };
	int i, j, k, run;

	printf("kverify-latency-measure: start\n");
	for (i = 0; i < nr; i++) {
		const double f[] = { ps[i].mean, ps[i].p50, ps[i].p99,
				     ps[i].p999, ps[i].max };

		for (j = 0, run = 1; j < i; j++)
			run += !strcmp(ps[j].tolerance, ps[i].tolerance);
		for (k = 0; k < 5; k++)
			printf("kverify-latency-measure: tolerance_%s_run_%d_%s %.3f us\n",
			       ps[i].tolerance, run, names[k], f[k]);
		printf("kverify-latency-measure: tolerance_%s_run_%d_ticks %zu ticks\n",
		       ps[i].tolerance, run, ps[i].nr);
	}
	printf("kverify-latency-measure: done\n");
}

static const char *const latency_usage[] = {
	"usage: kverify latency [--lava] [--results DIR] [TOLERANCE=]TRACE...\n"
	"\n"
	"The v2 posting's table (mean, p50, p99, p99.9, max, ticks of\n"
	"__sysvec_apic_timer_interrupt, in us) from ftrace function_graph\n"
	"traces, a pass each, v2's row beside each tolerance (docs/lab.md);\n"
	"also written to DIR/latency/table.txt (DIR: results), which\n"
	"kverify summary shows in DIR/summary.md and DIR/index.html.\n",
	NULL
};

int cmd_latency(int argc, char **argv, const char *results)
{
	struct pass *ps;
	int i, nr = 0, ret = 0, lava = 0;
	const struct option options[] = {
		OPT_BOOL(0, "lava", &lava,
			 "also each figure as a line for LAVA's monitor\n"
			 "(tools/lava/latency-monitor.yaml)"),
		OPT_STRING_F(0, "results", &results, "DIR",
			     "where latency/table.txt goes (default results)",
			     PARSE_OPT_NONEMPTY),
		OPT_END()
	};

	argc = parse_options(argc, (const char **)argv, options,
			     latency_usage, 0);
	if (argc == PARSE_OPT_HELP)
		return EXIT_PASS;
	if (argc < 0)
		return EXIT_USAGE;
	if (!argc) {
		usage_with_options(stderr, latency_usage, options);
		return EXIT_USAGE;
	}
	ps = calloc(argc, sizeof(*ps));
	if (!ps)
		return EXIT_TOOL;
	for (i = 0; i < argc; i++) {
		struct pass *p = &ps[nr++];
		const char *eq = strchr(argv[i], '=');

		if (eq && eq > argv[i] &&
		    strspn(argv[i], "0123456789") == (size_t)(eq - argv[i])) {
			p->tolerance = xstrfmt("%.*s", (int)(eq - argv[i]),
					       argv[i]);
			p->file = xstrdup(eq + 1);
		} else {
			p->file = xstrdup(argv[i]);
		}
		if (read_pass(p)) {
			ret = EXIT_USAGE;
			break;
		}
	}
	if (!ret && write_table(ps, nr, results))
		ret = EXIT_TOOL;	/* the table printed all the same */
	if (ret != EXIT_USAGE && lava)
		print_lava(ps, nr);
	for (i = 0; i < nr; i++) {
		free(ps[i].file);
		free(ps[i].tolerance);
		free(ps[i].machine);
		free(ps[i].d);
	}
	free(ps);
	return ret;
}
