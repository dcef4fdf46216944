// SPDX-License-Identifier: GPL-2.0
/*
 * sim: run a tree's own vPMU code, pristine and patched, against a
 * simulated perf PMU.  Each tree's unit (sim_gen.c) is compiled in the
 * sandbox and linked with the harness (tools/sim/: harness.c, model.c,
 * ops.c, points.c, trace.c, tracefile.c, check.c, perf.c): seeded traces,
 * a reference model, invariants, a shrinker.  No kernel code is kept here.
 * --coverage's gcov table of the trees' functions is sim_cov.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/sim_int.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/run.h"
#include "lib/sandbox.h"
#include "lib/tree.h"
#include "lib/usage.h"

/* tools/sim beside the kverify binary (build/kverify, ../tools/sim). */
char *sim_source_dir(void)
{
	char exe[4096], *slash, *dir;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			dir = xstrfmt("%s/../tools/sim", exe);
			if (is_file(dir) || is_dir(dir)) {
				char *abs = abspath(dir);

				free(dir);
				return abs;
			}
			free(dir);
		}
	}
	return abspath("tools/sim");
}

void sim_result_clear(struct sim_result *r)
{
	strbuf_release(&r->reason);
	strbuf_release(&r->output);
	strbuf_release(&r->figures);
	strbuf_release(&r->reads);
	strbuf_release(&r->coverage);
}

/*
 * The tree's vPMU code is compiled into a program of ours and run: both in
 * the sandbox (sandbox.c), which reads our sim sources and the trace file
 * and writes only the work directory.
 */
static int sandboxed(const struct sim_opts *o, struct child *c,
		     struct sim_result *r)
{
	struct sandbox sb = SANDBOX_INIT;
	char *src = sim_source_dir(), *trace = NULL;
	int ret;

	strvec_push(&sb.ro, src);
	if (o->objects && is_dir(o->objects))
		strvec_push(&sb.ro, o->objects);
	if (o->trace) {
		trace = realpath(o->trace, NULL);
		if (trace)
			strvec_push(&sb.ro, trace);
	}
	strvec_push(&sb.rw, o->work);
	ret = sandbox_child(c, &sb, &r->reason);
	r->cannot_run |= !!ret;
	sandbox_clear(&sb);
	free(trace);
	free(src);
	return ret;
}

static int compile(const struct sim_opts *o, struct strvec *args,
		   struct sim_result *r, const char *what)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	int ret;

	strvec_pushl(&c.args, "gcc", NULL);
	for (size_t i = 0; i < args->nr; i++)
		strvec_push(&c.args, args->v[i]);
	c.log = o->log;
	c.out = &out;
	c.timeout = o->timeout;
	if (sandboxed(o, &c, r)) {
		child_clear(&c);
		strbuf_release(&out);
		return -1;
	}
	ret = run_child(&c);
	if (ret) {
		r->cannot_run |= !!c.spawn_errno;
		if (c.spawn_errno == ENOENT)
			missing_tool(&r->reason, "gcc", "gcc");
		else
			strbuf_addf(&r->reason, "compiling %s failed (see the log)",
				    what);
	}
	child_clear(&c);
	strbuf_release(&out);
	return ret;
}

/*
 * Objects that do not change from run to run (our harness, a pristine or
 * baseline tree's unit) are kept in o->objects under a hash of what made
 * them: our sim sources and the compiler (sim_hash_toolchain()), the
 * flags and the text compiled.  A run that would compile the same
 * again links the kept object.  gcc writes each object into the work
 * directory, in the sandbox, and kverify copies it into the store; what
 * the trees' code runs sees the store read-only, so no run's code can
 * change the objects of another.
 */
struct sim_store {
	char *dir;		/* NULL: compile everything */
	uint64_t key;		/* the compiler and the sim sources */
};

static int hash_tool(uint64_t *h, const char *tool)
{
	char *path = path_lookup(tool), *real = path ? realpath(path, NULL) : NULL;
	int ret = real ? hash_file_fast(h, real) : -1;

	free(real);
	free(path);
	return ret;
}

static int hash_cc1(uint64_t *h)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	char *real = NULL;
	int ret = -1;

	strvec_pushl(&c.args, "gcc", "-print-prog-name=cc1", NULL);
	c.out = &out;
	c.timeout = 30;
	if (!run_child(&c)) {
		strbuf_trim_trailing(&out);
		real = out.len ? realpath(out.buf, NULL) : NULL;
		if (real)
			ret = hash_file_fast(h, real);
	}
	free(real);
	child_clear(&c);
	strbuf_release(&out);
	return ret;
}

int sim_hash_toolchain(uint64_t *h)
{
	char *src = sim_source_dir();
	struct dirent **names;
	int n = scandir(src, &names, NULL, alphasort), i, ret = n < 0;

	for (i = 0; i < n; i++) {
		char *p = xstrfmt("%s/%s", src, names[i]->d_name);

		/* By name, not path: another checkout's sim is the same. */
		if (names[i]->d_name[0] != '.' && is_file(p)) {
			*h = hash_bytes(*h, names[i]->d_name,
					strlen(names[i]->d_name) + 1);
			ret |= hash_file_fast(h, p);
		}
		free(p);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	free(src);
	return ret || hash_tool(h, "gcc") || hash_cc1(h) ||
	       hash_tool(h, "as") || hash_tool(h, "ld");
}

/* No store with --coverage: gcov wants each object beside its notes. */
static void store_init(const struct sim_opts *o, struct sim_store *st)
{
	uint64_t h = HASH_INIT;

	st->dir = NULL;
	if (!o->objects || o->coverage || sim_hash_toolchain(&h) ||
	    mkdir_p(o->objects))
		return;
	st->dir = xstrdup(o->objects);
	st->key = h;
}

/* The store's name for @text compiled with @flags, or NULL: no store. */
static char *store_name(const struct sim_store *st, const struct strvec *flags,
			const char *text, size_t len)
{
	uint64_t h;
	size_t i;

	if (!st->dir)
		return NULL;
	h = st->key;
	for (i = 0; i < flags->nr; i++)
		h = hash_bytes(h, flags->v[i], strlen(flags->v[i]) + 1);
	h = hash_bytes(h, text, len);
	return xstrfmt("%s/%016llx.o", st->dir, (unsigned long long)h);
}

/* Keep @obj, just compiled, as @kept; a failure only costs a compile. */
static void store_put(const char *obj, const char *kept)
{
	struct strbuf sb = STRBUF_INIT;

	if (!strbuf_read_file(&sb, obj, (size_t)64 << 20))
		write_file_atomic(kept, sb.buf, sb.len);
	strbuf_release(&sb);
}

/*
 * Compile @c (@text) with @flags into @obj in the work directory, or take
 * @kept from the store; *@linked: the object to link.
 */
static int compile_object(const struct sim_opts *o, const struct strvec *flags,
			  const char *c, const char *obj, const char *kept,
			  char **linked, struct sim_result *r)
{
	struct strvec args = STRVEC_INIT;
	size_t i;
	int ret;

	if (kept && is_file(kept)) {
		*linked = xstrdup(kept);
		return 0;
	}
	unlink(obj);
	for (i = 0; i < flags->nr; i++)
		strvec_push(&args, flags->v[i]);
	strvec_pushl(&args, "-c", c, "-o", obj, NULL);
	ret = compile(o, &args, r, c);
	strvec_clear(&args);
	if (ret)
		return ret;
	if (kept)
		store_put(obj, kept);
	*linked = xstrdup(obj);
	return 0;
}

/* How a tree's unit is compiled: -O1, for gcc's time on 3,000 lines. */
static void unit_flags(const struct sim_opts *o, const char *src,
		       struct strvec *flags)
{
	strvec_pushl(flags, "-std=gnu11", "-O1", "-pipe",
		     "-fno-strict-aliasing",
		     "-Werror=implicit-function-declaration",
		     "-Werror=implicit-int", "-Werror=incompatible-pointer-types",
		     "-Werror=int-conversion", NULL);
	strvec_pushf(flags, "-I%s", src);
	if (o->coverage)
		strvec_push(flags, "--coverage");
}

/*
 * How our sources (sim_ours[]) are compiled, and the program linked.
 * -flto: the harness is nine files, and a trace's hot path crosses them
 * (ops.c into model.c for every counter of every emulated instruction);
 * linked as one, the program runs as fast as the single file it was.
 */
static void our_flags(const struct sim_opts *o, const char *src,
		      struct strvec *flags)
{
	strvec_pushl(flags, "-std=gnu11", "-O2", "-pipe", "-flto", "-Wall",
		     "-Wextra", "-Werror", NULL);
	strvec_pushf(flags, "-I%s", src);
	if (o->coverage)
		strvec_push(flags, "--coverage");
}

/*
 * A tree's generated unit, @unit, into @gen and WORK/@unit.c; -1 with the
 * reason in @r.
 */
static int gen_unit(const struct sim_opts *o, const char *tree,
		    enum sim_era era, const char *unit, const char *src,
		    struct strbuf *gen, struct sim_result *r)
{
	struct strbuf err = STRBUF_INIT;
	int gen_ret = sim_generate(tree, era, unit, src, o->debug, gen, &err);
	char *c = xstrfmt("%s/%s.c", o->work, unit);
	int ret = -1;

	if (gen_ret) {
		strbuf_addstr(&r->reason, err.buf);
		/* a definition the sim runs is missing: bad input, exit 2 */
		r->bad_input = gen_ret == -2;
	} else if (write_file(c, gen->buf, gen->len)) {
		strbuf_addf(&r->reason, "cannot write %s: %s", c,
			    strerror(errno));
	} else {
		ret = 0;
	}
	strbuf_release(&err);
	free(c);
	return ret;
}

/*
 * Compile @dir/@name.c, with the flags @add_flags makes, into the work
 * directory; through the store under @key (@len bytes), unless @key is
 * NULL.  A tree's unit is keyed by its text, one of ours by its name (the
 * store's key holds our sources' bytes).
 */
static int build_object(const struct sim_opts *o, const struct sim_store *st,
			const char *dir, const char *name, const char *src,
			void (*add_flags)(const struct sim_opts *o,
					  const char *src, struct strvec *flags),
			const void *key, size_t len, char **linked,
			struct sim_result *r)
{
	struct strvec flags = STRVEC_INIT;
	char *c = xstrfmt("%s/%s.c", dir, name);
	char *obj = xstrfmt("%s/%s.o", o->work, name);
	char *kept;
	int ret;

	add_flags(o, src, &flags);
	kept = key ? store_name(st, &flags, key, len) : NULL;
	ret = compile_object(o, &flags, c, obj, kept, linked, r);
	strvec_clear(&flags);
	free(kept);
	free(obj);
	free(c);
	return ret;
}

/*
 * Our sources of the program, each a .c of tools/sim/: the harness
 * (harness_int.h: its command line, the reference model, the ops, the
 * traces, the judging), the run the tree's code reports into, and the
 * simulated perf PMU.
 */
static const char *const sim_ours[] = {
	"harness", "model", "ops", "points", "trace", "tracefile", "check",
	"world", "perf",
};

static void parse_output(struct sim_result *r)
{
	const char *p = r->output.buf;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *result;
		unsigned long t;
		double rate, reads;
		int nf = sscanf(p, "FIGURE tolerance=%lu reprograms_per_million=%lf reads_per_million=%lf",
				&t, &rate, &reads);

		if (skip_prefix(p, "RESULT ", &result)) {
			strbuf_reset(&r->reason);
			strbuf_add(&r->reason, result, len - (result - p));
			if (sscanf(p, "RESULT PASS %ld traces", &r->traces) != 1)
				r->traces = 0;
		} else if (nf >= 2) {
			strbuf_addf(&r->figures, "%sT=%lu:%.0f", r->figures.len ?
				    " " : "", t, rate);
			if (nf == 3)
				strbuf_addf(&r->reads, "%sT=%lu:%.0f",
					    r->reads.len ? " " : "", t, reads);
		}
		p += len + (e ? 1 : 0);
	}
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Whether @tree has the parameter: then batching must be in effect
 * (invariant v); the pristine trees reprogram on every instruction.
 */
static int has_knob(const char *tree)
{
	struct strbuf b = STRBUF_INIT;
	char *p = xstrfmt("%s/arch/x86/kvm/pmu.c", tree);
	int ret = strbuf_read_file(&b, p, 4 << 20) >= 0 &&
		  strstr(b.buf, "emulated_counter_reprogram_tolerance");

	strbuf_release(&b);
	free(p);
	return ret;
}

/* unlink(), where a missing file is no failure */
static int unlink_if_any(const char *path)
{
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

/* The trees' units, by their index in build_program()'s arrays. */
static const char *const sim_units[] = {
	"sim_tree_pristine", "sim_tree_patched", "sim_tree_baseline",
};

/*
 * The program linked from the units @gen and ours, kept in the work
 * directory under a name that hashes what makes it: the compiler and our
 * sources (the store's key), the flags, and the units' text.  A check that
 * runs the same trees again in the same work directory (a replay, another
 * option) compiles and links nothing.  The trees' code runs with the work
 * directory writable, so a kept program is run only if its sha256 is the
 * one recorded in the store, which that code cannot write (kept_digest()).
 * NULL without a store (--coverage).
 */
static char *program_name(const struct sim_opts *o,
			  const struct sim_store *st, const char *src,
			  const struct strbuf *gen)
{
	struct strvec flags = STRVEC_INIT;
	uint64_t h;
	size_t i;

	if (!st->dir)
		return NULL;
	h = st->key;
	unit_flags(o, src, &flags);
	our_flags(o, src, &flags);
	for (i = 0; i < flags.nr; i++)
		h = hash_bytes(h, flags.v[i], strlen(flags.v[i]) + 1);
	strvec_clear(&flags);
	for (i = 0; i < ARRAY_SIZE(sim_units); i++) {
		h = hash_bytes(h, sim_units[i], strlen(sim_units[i]) + 1);
		h = hash_bytes(h, gen[i].buf, gen[i].len);
	}
	return xstrfmt("%s/sim-%016llx", o->work, (unsigned long long)h);
}

/* The sha256 of the regular file @path (not a link) into @sum; -1: none. */
static int file_sha256(const char *path, struct strbuf *sum)
{
	struct child c = CHILD_INIT;
	struct stat st;
	int ret = -1;

	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return -1;
	strvec_pushl(&c.args, "sha256sum", "--", path, NULL);
	c.out = sum;
	if (!run_child(&c) && sum->len >= 64 &&
	    strspn(sum->buf, "0123456789abcdef") == 64) {
		strbuf_setlen(sum, 64);
		ret = 0;
	}
	child_clear(&c);
	return ret;
}

/*
 * The store's record of kept program @kept's sha256: written after the
 * link (@write), else compared with the program; 0: it matches, or it was
 * written.
 */
static int kept_digest(const struct sim_store *st, const char *kept,
		       int write)
{
	struct strbuf sum = STRBUF_INIT, rec = STRBUF_INIT;
	char *path = xstrfmt("%s/%s.sha256", st->dir, strrchr(kept, '/') + 1);
	int ret = file_sha256(kept, &sum);

	if (!ret && write)
		ret = write_file_atomic(path, sum.buf, sum.len);
	else if (!ret)
		ret = strbuf_read_file(&rec, path, 128) < 0 ||
		      strcmp(rec.buf, sum.buf) ? -1 : 0;
	strbuf_release(&sum);
	strbuf_release(&rec);
	free(path);
	return ret;
}

/* Link the units and ours (@objs) into @prog; see build_program(). */
static int link_program(const struct sim_opts *o, const struct sim_store *st,
			const char *src, const char *prog, char **objs,
			size_t n, int *forgot, struct sim_result *r)
{
	struct strvec flags = STRVEC_INIT;
	size_t i;
	int ret;

	our_flags(o, src, &flags);
	strvec_pushl(&flags, "-o", prog, NULL);
	for (i = 0; i < n; i++)
		if (objs[i])
			strvec_push(&flags, objs[i]);
	ret = compile(o, &flags, r, "the harness");
	for (i = 0; ret && st->dir && i < n; i++)
		if (objs[i] && path_under(objs[i], st->dir))
			*forgot |= !unlink(objs[i]);
	strvec_clear(&flags);
	return ret;
}

/*
 * The three units and ours, linked into @prog, or the program linked from
 * the same before (program_name()).  A kept object ld cannot read (cut
 * short, or no object at all) fails the link: *@forgot says that the kept
 * objects it linked were removed, to be compiled again.
 */
static int build_program(const struct sim_opts *o, const struct sim_store *st,
			 enum sim_era era, const char *src, const char *prog,
			 int *forgot, struct sim_result *r)
{
	char *objs[3 + ARRAY_SIZE(sim_ours)] = { NULL };	/* the units, ours */
	struct strbuf gen[ARRAY_SIZE(sim_units)] = {
		STRBUF_INIT, STRBUF_INIT, STRBUF_INIT
	};
	const char *trees[ARRAY_SIZE(sim_units)] = {
		o->pristine, o->patched, o->baseline
	};
	char *linked = NULL;
	size_t i;
	int ret = -1;

	*forgot = 0;
	for (i = 0; i < ARRAY_SIZE(sim_units); i++)
		if (trees[i] &&
		    gen_unit(o, trees[i], era, sim_units[i], src, &gen[i], r))
			goto out;
	linked = program_name(o, st, src, gen);
	if (linked && !kept_digest(st, linked, 0) && !unlink_if_any(prog) &&
	    !link(linked, prog)) {
		ret = 0;
		goto out;
	}
	/* the store keeps the pristine and baseline units, not the patched (1) */
	for (i = 0; i < ARRAY_SIZE(sim_units); i++)
		if (trees[i] &&
		    build_object(o, st, o->work, sim_units[i], src, unit_flags,
				 i != 1 ? gen[i].buf : NULL, gen[i].len,
				 &objs[i], r))
			goto out;
	for (i = 0; i < ARRAY_SIZE(sim_ours); i++)
		if (build_object(o, st, src, sim_ours[i], src, our_flags,
				 sim_ours[i], strlen(sim_ours[i]) + 1,
				 &objs[3 + i], r))
			goto out;
	/* prog may be another kept program's link: never write through it */
	if (unlink_if_any(prog)) {
		strbuf_addf(&r->reason, "cannot remove %s: %s", prog,
			    strerror(errno));
		goto out;
	}
	ret = link_program(o, st, src, prog, objs, ARRAY_SIZE(objs), forgot,
			   r);
	/* kept for the next run on the same trees; a failure costs a link */
	if (!ret && linked && !unlink_if_any(linked) &&
	    (link(prog, linked) || kept_digest(st, linked, 1)))
		unlink(linked);
out:
	for (i = 0; i < ARRAY_SIZE(objs); i++)
		free(objs[i]);
	for (i = 0; i < ARRAY_SIZE(sim_units); i++)
		strbuf_release(&gen[i]);
	free(linked);
	return ret;
}

/*
 * The harness's options but its time limits.  -1 when --fixes-only meets a
 * patched tree with the parameter: that series is not fixes only.
 */
static int harness_args(const struct sim_opts *o, enum sim_era pe,
			struct strvec *args, struct sim_result *r)
{
	int knob = has_knob(o->patched);

	if (o->fixes_only && knob) {
		strbuf_addf(&r->reason, "fixes only, but %s/arch/x86/kvm/pmu.c has emulated_counter_reprogram_tolerance",
			    o->patched);
		r->bad_input = 1;
		return -1;
	}
	strvec_push(args, "--seed");
	strvec_pushf(args, "%llu", o->seed);
	strvec_push(args, "--traces");
	strvec_pushf(args, "%ld", o->traces);
	if (o->tolerance >= 0) {
		strvec_push(args, "--tolerance");
		strvec_pushf(args, "%ld", o->tolerance);
	}
	if (o->min_period >= 0) {
		strvec_push(args, "--min-period");
		strvec_pushf(args, "%ld", o->min_period);
	}
	if (o->vendor)
		strvec_pushl(args, "--vendor", o->vendor, NULL);
	if (o->without)
		strvec_pushl(args, "--without", o->without, NULL);
	if (o->trace) {
		char *abs = abspath(o->trace);

		strvec_pushl(args, "--trace", abs, NULL);
		free(abs);
	}
	if (pe == SIM_ERA_SYNC)
		strvec_push(args, "--sync");
	if (pe == SIM_ERA_PREV)
		strvec_push(args, "--prev");
	if (knob)
		strvec_push(args, "--batching");
	if (o->fixes_only)
		strvec_push(args, "--fixes-only");
	return 0;
}

/* The harness's time limits: shrinking, and what is left of the budget. */
static void time_args(const struct sim_opts *o, double t0,
		      struct strvec *args)
{
	double budget = o->max_seconds;

	strvec_push(args, "--shrink-seconds");
	strvec_pushf(args, "%g", o->shrink_seconds);
	if (o->total_seconds > 0) {
		double left = o->total_seconds - (mono() - t0);

		if (left < 3)
			left = 3;
		if (budget <= 0 || left < budget)
			budget = left;
	}
	if (budget > 0) {
		strvec_push(args, "--max-seconds");
		strvec_pushf(args, "%.1f", budget);
	}
}

/* The harness ended other than with its verdict (0 or 1): why, into @r. */
static int harness_failed(const struct sim_opts *o, const struct child *c,
			  struct sim_result *r)
{
	if (!c->spawn_errno && !c->timed_out && !c->interrupted &&
	    (c->status == 0 || c->status == 1))
		return 0;
	strbuf_reset(&r->reason);
	child_describe_failure(c, &r->reason);
	r->cannot_run |= !!c->spawn_errno;
	/* the harness refuses a trace it cannot read with exit 2 */
	r->bad_input = c->status == 2 && o->trace;
	return 1;
}

/* Build the trees' units and the harness under o->work, then run it. */
int sim_run(const struct sim_opts *o, struct sim_result *r)
{
	double t0 = mono();
	struct strbuf why = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *src = sim_source_dir(), *prog = NULL;
	struct sim_store st = { NULL, 0 };
	enum sim_era pe, qe;
	int ret = -1, forgot;

	r->passed = -1;
	pe = sim_detect_era(o->pristine, &why);
	qe = pe ? sim_detect_era(o->patched, &why) : pe;
	if (!pe || !qe) {
		strbuf_addstr(&r->reason, why.buf);
		r->bad_input = 1;
		goto out;
	}
	/*
	 * The pristine tree decides: a backport may well bring a later
	 * era's shape (a 6.1 batch with an emulated_counter, say).
	 */
	r->era = pe;
	if (mkdir_p(o->work)) {
		strbuf_addf(&r->reason, "cannot create %s: %s", o->work,
			    strerror(errno));
		r->cannot_run = 1;
		goto out;
	}
	if (o->baseline && sim_detect_era(o->baseline, &why) != pe) {
		strbuf_addf(&r->reason, "the baseline %s is not of the pristine tree's era (%s)%s%s",
			    o->baseline, sim_era_name(pe), why.len ? ": " : "",
			    why.buf);
		r->bad_input = 1;
		goto out;
	}
	store_init(o, &st);
	prog = xstrfmt("%s/sim", o->work);
	strvec_push(&c.args, prog);
	if (harness_args(o, pe, &c.args, r))
		goto out;
	if (build_program(o, &st, pe, src, prog, &forgot, r)) {
		if (!forgot)
			goto out;
		strbuf_reset(&r->reason);
		if (build_program(o, &st, pe, src, prog, &forgot, r))
			goto out;
	}

	time_args(o, t0, &c.args);
	c.log = o->log;
	c.out = &r->output;
	c.timeout = o->timeout;
	if (o->coverage)
		forget_coverage(o);
	if (sandboxed(o, &c, r))
		goto out;
	run_child(&c);
	parse_output(r);
	if (o->coverage)
		coverage_table(o, r);
	if (harness_failed(o, &c, r))
		goto out;
	r->passed = c.status == 0;
	if (!r->reason.len)
		strbuf_addstr(&r->reason, "the harness printed no RESULT line");
	ret = 0;
out:
	free(st.dir);
	child_clear(&c);
	strbuf_release(&why);
	free(prog);
	free(src);
	return ret;
}
