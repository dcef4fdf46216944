// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's walk of a step table (verify.c's run_steps()), with steps of
 * this file's: what runs, what is skipped and why, with and without
 * --keep-going, --skip, an independent step, a series that is n/a, and a
 * FAIL the machine caused.  And the real table: a line for every index.
 * Linked with the driver's other objects (t0010).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/verify.c"
#include "../../tools/steps/step_sim.h"

/* What the fake steps did, in order: "a b c ". */
static struct strbuf ran = STRBUF_INIT;
/* The status each fake step returns, by its name's letter. */
static enum step_status gives[26];

static enum step_status fake(const struct verify_ctx *ctx, void *out,
			     struct step_result *r)
{
	int i = r->name[0] - 'a';

	(void)ctx;
	(void)out;
	strbuf_addf(&ran, "%s ", r->name);
	if (gives[i] == STEP_FAIL && r->name[1] == '!')
		return blame_machine(r), STEP_FAIL;
	return gives[i];
}

/*
 * a <- b <- c: c needs b needs a; d needs a only; e is independent and
 * needs nothing; f needs e; g runs when n/a.
 */
enum { A, B, C, D, E, F, G, NR_FAKE };
static const struct step a_step = { .name = "a", .run = fake };
static const struct step b_step = { .name = "b", .run = fake,
				    .needs = NEEDS(A) };
static const struct step c_step = { .name = "c", .run = fake,
				    .needs = NEEDS(B) };
static const struct step d_step = { .name = "d", .run = fake,
				    .needs = NEEDS(A) };
static const struct step e_step = { .name = "e", .run = fake,
				    .flags = STEP_INDEPENDENT };
static const struct step f_step = { .name = "f", .run = fake,
				    .needs = NEEDS(E) };
static const struct step g_step = { .name = "g", .run = fake,
				    .flags = STEP_RUNS_WHEN_NA };
static const struct step *const fake_steps[] = {
	[A] = &a_step, [B] = &b_step, [C] = &c_step, [D] = &d_step,
	[E] = &e_step, [F] = &f_step, [G] = &g_step,
};

_Static_assert(ARRAY_SIZE(fake_steps) == NR_FAKE, "a line for each");

static char *dir;

struct run {
	struct target t;
	struct options opt;
	struct verify_ctx ctx;
	struct step_result res[NR_FAKE];
};

/* --skip's bits, as the command sets them: "b,g" names fake steps b and g. */
static unsigned int skip_bits(const char *skip)
{
	unsigned int bits = 0;
	int i;

	for (i = 0; i < NR_FAKE; i++)
		if (skip && strchr(skip, fake_steps[i]->name[0]))
			bits |= NEEDS(i);
	return bits;
}

static void start(struct run *w, const char *skip, int keep_going, int na)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->t.name = "t";
	w->opt.quiet = 1;
	w->opt.skip_steps = skip_bits(skip);
	w->opt.keep_going = keep_going;
	w->ctx.t = &w->t;
	w->ctx.opt = &w->opt;
	w->ctx.results = dir;
	w->ctx.build = dir;
	w->ctx.listed.dir = na ? NULL : dir;
	w->ctx.listed.na_reason = na ? "n/a here" : NULL;
	for (i = 0; i < NR_FAKE; i++) {
		w->res[i] = (struct step_result)STEP_RESULT_INIT(NULL);
		gives[i] = STEP_PASS;
	}
	strbuf_reset(&ran);
}

static void walk(struct run *w)
{
	run_steps(&w->ctx, fake_steps, NR_FAKE, w->res);
}

static void finish(struct run *w)
{
	int i;

	for (i = 0; i < NR_FAKE; i++) {
		strbuf_release(&w->res[i].reason);
		strbuf_release(&w->res[i].detail);
		free(w->res[i].log);
	}
}

#define assert_step(w, i, st, why) do {					\
	assert_int_equal((w)->res[i].status, (st));			\
	assert_string_equal((w)->res[i].reason.buf, (why));		\
} while (0)

/* Why it did not run, as a field: what the flavours' rows read. */
#define assert_cause(w, i, why) \
	assert_int_equal((w)->res[i].skipped, (why))

static void all_pass(void **state)
{
	struct run w;

	(void)state;
	start(&w, NULL, 0, 0);
	walk(&w);
	assert_string_equal(ran.buf, "a b c d e f g ");
	assert_step(&w, C, STEP_PASS, "");
	finish(&w);
}

/* Without --keep-going the first failure stops every later step. */
static void fail_stops(void **state)
{
	struct run w;

	(void)state;
	start(&w, NULL, 0, 0);
	gives[B] = STEP_FAIL;
	walk(&w);
	assert_string_equal(ran.buf, "a b ");
	assert_step(&w, B, STEP_FAIL, "");
	assert_step(&w, C, STEP_SKIP, "not run: needs b, which failed");
	assert_step(&w, D, STEP_SKIP,
		    "not run: the run stopped when b failed; d does not need it: --keep-going runs it");
	assert_step(&w, G, STEP_SKIP,
		    "not run: the run stopped when b failed; g does not need it: --keep-going runs it");
	assert_cause(&w, B, SKIP_NONE);
	assert_cause(&w, C, SKIP_NEEDS);
	assert_cause(&w, D, SKIP_STOPPED);
	finish(&w);
}

/* --keep-going: only what needs the failure, directly or not, is skipped. */
static void keep_going(void **state)
{
	struct run w;

	(void)state;
	start(&w, NULL, 1, 0);
	gives[A] = STEP_FAIL;
	walk(&w);
	assert_string_equal(ran.buf, "a e f g ");
	assert_step(&w, B, STEP_SKIP, "not run: needs a, which failed");
	assert_step(&w, C, STEP_SKIP, "not run: needs b, which did not run");
	assert_step(&w, D, STEP_SKIP, "not run: needs a, which failed");
	assert_step(&w, F, STEP_PASS, "");
	assert_cause(&w, C, SKIP_NEEDS);
	finish(&w);
}

/* An independent step's failure stops only what needs it. */
static void independent(void **state)
{
	struct run w;

	(void)state;
	start(&w, NULL, 0, 0);
	gives[E] = STEP_FAIL;
	walk(&w);
	assert_string_equal(ran.buf, "a b c d e g ");
	assert_step(&w, E, STEP_FAIL, "");
	assert_step(&w, F, STEP_SKIP, "not run: needs e, which failed");
	assert_step(&w, G, STEP_PASS, "");
	finish(&w);
}

/*
 * --skip is the user's choice, said as such even after a failure; what
 * needs a skipped step still runs (it may have what it needs from before).
 */
static void skip_option(void **state)
{
	struct run w;

	(void)state;
	start(&w, "b,g", 0, 0);
	walk(&w);
	assert_string_equal(ran.buf, "a c d e f ");
	assert_step(&w, B, STEP_SKIP, "skipped with --skip");
	assert_step(&w, G, STEP_SKIP, "skipped with --skip");
	finish(&w);
	start(&w, "g", 0, 0);
	gives[A] = STEP_FAIL;
	walk(&w);
	assert_step(&w, G, STEP_SKIP, "skipped with --skip");
	assert_cause(&w, G, SKIP_USER);
	finish(&w);
}

/*
 * A flavour's rows are decided by the verdict of the pipeline's rows: what
 * failed in the pipeline is needed, a flavour's own row that did not run
 * is named with its flavour, --skip and the run's stop say the same.
 */
static void flavour_rows(void **state)
{
	static const struct kernel_ops debian = { .boot = "distro",
						  .prebuilt = 1 };
	static const char *const stops[] = { "", "", "checkpatch failed" };
	struct step_result res[NR_STEPS + 4];
	struct target t = { .name = "t" };
	struct options opt = { .quiet = 1 };
	struct verify_ctx ctx = { .t = &t, .opt = &opt, .results = dir,
				  .cache = dir, .kernel_ops = &debian };
	int i, k;

	(void)state;
	ctx.listed.dir = dir;
	for (k = 0; k < 3; k++) {
		opt.skip_steps = k == 1 ? NEEDS(STEP_IDX_config) |
			NEEDS(STEP_IDX_build) | NEEDS(STEP_IDX_kabi) |
			NEEDS(STEP_IDX_boot) : 0;
		for (i = 0; i < NR_STEPS + 4; i++) {
			res[i] = (struct step_result)STEP_RESULT_INIT(NULL);
			if (i < NR_STEPS)
				res[i].name = verify_steps[i]->name;
		}
		if (k == 0)
			res[STEP_IDX_apply].status = STEP_ERROR;
		run_flavour(&ctx, flavour_find("rt-amd64"), res, NR_STEPS,
			    stops[k]);
		for (i = NR_STEPS; i < NR_STEPS + 4; i++)
			assert_int_equal(res[i].status, STEP_SKIP);
		switch (k) {
		case 0:
			assert_string_equal(res[NR_STEPS].reason.buf,
					    "not run: needs apply, which failed");
			assert_string_equal(res[NR_STEPS + 1].reason.buf,
					    "not run: needs config:rt-amd64, which did not run");
			for (i = NR_STEPS; i < NR_STEPS + 4; i++)
				assert_int_equal(res[i].skipped, SKIP_NEEDS);
			break;
		case 1:
			for (i = NR_STEPS; i < NR_STEPS + 4; i++) {
				assert_string_equal(res[i].reason.buf,
						    "skipped with --skip");
				assert_int_equal(res[i].skipped, SKIP_USER);
			}
			break;
		case 2:
			assert_string_equal(res[NR_STEPS].reason.buf,
					    "not run: the run stopped when checkpatch failed; config:rt-amd64 does not need it: --keep-going runs it");
			assert_int_equal(res[NR_STEPS].skipped, SKIP_STOPPED);
			break;
		}
		for (i = 0; i < NR_STEPS + 4; i++) {
			strbuf_release(&res[i].reason);
			strbuf_release(&res[i].detail);
			if (i >= NR_STEPS) {
				free((char *)res[i].name);
				free(res[i].log);
			}
		}
	}
}

/* A series that is n/a: only the steps marked so run, the rest say why. */
static void not_applicable(void **state)
{
	struct run w;

	(void)state;
	start(&w, NULL, 0, 1);
	walk(&w);
	assert_string_equal(ran.buf, "g ");
	assert_step(&w, A, STEP_NA, "n/a here");
	assert_step(&w, F, STEP_NA, "n/a here");
	assert_step(&w, G, STEP_PASS, "");
	assert_cause(&w, A, SKIP_NO_SERIES);
	assert_cause(&w, G, SKIP_NONE);
	finish(&w);
}

/*
 * What a flavour's rows cannot have of the pipeline's steps: those that
 * failed, or did not run for a failure, told by the cause, not the words:
 * a step the user skipped is not missing, whatever its reason says.
 */
static void flavours_missing(void **state)
{
	struct step_result res[NR_STEPS];
	int i;

	(void)state;
	for (i = 0; i < NR_STEPS; i++)
		res[i] = (struct step_result)STEP_RESULT_INIT(NULL);
	res[STEP_IDX_sim].status = STEP_SKIP;
	res[STEP_IDX_sim].skipped = SKIP_USER;
	strbuf_addstr(&res[STEP_IDX_sim].reason, "not run: as the user said");
	assert_int_equal(pipeline_missing(res), 0);
	res[STEP_IDX_selftests].status = STEP_SKIP;
	res[STEP_IDX_selftests].skipped = SKIP_NEEDS;
	res[STEP_IDX_checkpatch].status = STEP_SKIP;
	res[STEP_IDX_checkpatch].skipped = SKIP_STOPPED;
	res[STEP_IDX_apply].status = STEP_ERROR;
	/* amd64's own config is no other flavour's */
	res[STEP_IDX_config].status = STEP_FAIL;
	assert_int_equal(pipeline_missing(res),
			 NEEDS(STEP_IDX_selftests) | NEEDS(STEP_IDX_checkpatch) |
			 NEEDS(STEP_IDX_apply));
	for (i = 0; i < NR_STEPS; i++)
		strbuf_release(&res[i].reason);
}

/* A FAIL the machine caused is an ERROR, and stops the run as a FAIL does. */
static void machine_error(void **state)
{
	static const struct step machine_a = { .name = "a!", .run = fake };
	static const struct step machine_b = { .name = "b", .run = fake,
					       .needs = NEEDS(0) };
	static const struct step *const machine_steps[] = {
		&machine_a, &machine_b,
	};
	struct run w;

	(void)state;
	start(&w, NULL, 1, 0);
	gives[A] = STEP_FAIL;
	run_steps(&w.ctx, machine_steps, 2, w.res);
	assert_string_equal(ran.buf, "a! ");
	assert_int_equal(w.res[0].status, STEP_ERROR);
	assert_step(&w, 1, STEP_SKIP, "not run: needs a!, which failed");
	finish(&w);
}

/*
 * A STEP_BESIDE step "s" runs in a process of its own: "c", which does not
 * need it, runs while it still works; "n", which needs it, only once it
 * ended, and sees its FAIL; its result and its output (the sim's type,
 * which the engine allocates) come back by its pipe.
 */
static char *beside_done;
static int beside_exit;		/* the step's process exits at once */

static enum step_status fake_beside(const struct verify_ctx *ctx, void *out,
				    struct step_result *r)
{
	struct sim_out *sim = out;

	(void)ctx;
	strbuf_addf(&r->reason, "pid %d", (int)getpid());
	strbuf_addstr(&r->detail, "detail\nwith lines\n");
	if (beside_exit)
		_exit(3);
	usleep(500 * 1000);
	sim->era = xstrdup("fake era");
	sim->traces = 7;
	sim->seed = 9;
	strbuf_addstr(&sim->figures, "T=0:1");
	strbuf_addstr(&sim->reads, "T=0:2");
	write_file(beside_done, "", 0);
	return gives['s' - 'a'];
}

/* Says in @ran whether "s" had ended when it ran. */
static enum step_status fake_sees(const struct verify_ctx *ctx, void *out,
				  struct step_result *r)
{
	(void)ctx;
	(void)out;
	strbuf_addf(&ran, "%s%s ", r->name, is_file(beside_done) ? "+" : "-");
	return STEP_PASS;
}

/* "s" writes the sim's output, and sends it as the sim step does. */
static struct step s_step = {
	.name = "s", .run = fake_beside,
	.flags = STEP_INDEPENDENT | STEP_BESIDE, .needs = NEEDS(0),
	STEP_OWN_OUTPUT(struct sim_out),
};
static const struct step sees_c = { .name = "c", .run = fake_sees,
				    .needs = NEEDS(0) };
static const struct step sees_n = { .name = "n", .run = fake_sees,
				    .needs = NEEDS(1) };
static const struct step *const beside_steps[] = {
	&a_step, &s_step, &sees_c, &sees_n,
};

static struct step s_late;

/* The sim's output, as step @s of @w's table wrote it. */
static const struct sim_out *sim_in(struct run *w, const struct step *s)
{
	return step_output(&w->ctx, s);
}

/* Both "s" steps: the sim's output, as the engine sets it up. */
static void beside_start_clean(struct run *w, int jobserver)
{
	start(w, NULL, 0, 0);
	w->opt.make_jobserver = jobserver;
	s_step.init_out = s_late.init_out = sim_step.init_out;
	s_step.clear_out = s_late.clear_out = sim_step.clear_out;
	s_step.save_out = s_late.save_out = sim_step.save_out;
	s_step.load_out = s_late.load_out = sim_step.load_out;
	step_out_init(&w->ctx, &s_step);
	step_out_init(&w->ctx, &s_late);
	unlink(beside_done);
	beside_exit = 0;
	gives['s' - 'a'] = STEP_PASS;
}

static void beside_finish(struct run *w)
{
	step_out_clear(&w->ctx, &s_step);
	step_out_clear(&w->ctx, &s_late);
	assert_null(sim_in(w, &s_step));
	finish(w);
}

static void beside(void **state)
{
	char *pid = xstrfmt("pid %d", (int)getpid());
	struct run w;

	(void)state;
	beside_start_clean(&w, 0);
	run_steps(&w.ctx, beside_steps, 4, w.res);
	assert_string_equal(ran.buf, "a c- n+ ");
	assert_int_equal(w.res[1].status, STEP_PASS);
	assert_true(starts_with(w.res[1].reason.buf, "pid "));
	assert_string_not_equal(w.res[1].reason.buf, pid);
	assert_string_equal(w.res[1].detail.buf, "detail\nwith lines\n");
	assert_true(w.res[1].seconds >= 0.5);
	assert_string_equal(sim_in(&w, &s_step)->era, "fake era");
	assert_int_equal(sim_in(&w, &s_step)->traces, 7);
	assert_string_equal(sim_in(&w, &s_step)->reads.buf, "T=0:2");
	assert_null(sim_in(&w, &s_late)->era);
	beside_finish(&w);

	/* its FAIL comes back: what needs it is not run */
	beside_start_clean(&w, 0);
	gives['s' - 'a'] = STEP_FAIL;
	run_steps(&w.ctx, beside_steps, 4, w.res);
	assert_string_equal(ran.buf, "a c- ");
	assert_int_equal(w.res[1].status, STEP_FAIL);
	assert_step(&w, 3, STEP_SKIP, "not run: needs s, which failed");
	beside_finish(&w);

	/* a process that ends without a result is an ERROR that says so */
	beside_start_clean(&w, 0);
	beside_exit = 1;
	run_steps(&w.ctx, beside_steps, 4, w.res);
	assert_step(&w, 1, STEP_ERROR,
		    "its process ended (exit 3) before it said how the step ended");
	assert_null(sim_in(&w, &s_step)->era);
	beside_finish(&w);

	/* make's jobserver counts the jobs: it runs in turn, in ours */
	beside_start_clean(&w, 1);
	run_steps(&w.ctx, beside_steps, 4, w.res);
	assert_string_equal(ran.buf, "a c+ n+ ");
	assert_string_equal(w.res[1].reason.buf, pid);
	beside_finish(&w);
	free(pid);
}

/*
 * A STEP_BESIDE step that is not independent, "s" below "c" in the table:
 * it starts as soon as "a", all it needs, passed, so "c" runs while it
 * works; "n" below it waits for it, as when the steps run in turn, and
 * its FAIL stops "n" though "n" does not need it.
 */
static struct step s_late = {
	.name = "s", .run = fake_beside, .flags = STEP_BESIDE,
	.needs = NEEDS(0), STEP_OWN_OUTPUT(struct sim_out),
};
static const struct step below_n = { .name = "n", .run = fake_sees,
				     .needs = NEEDS(0) };
static const struct step *const late_steps[] = {
	&a_step, &sees_c, &s_late, &below_n,
};

static void beside_not_independent(void **state)
{
	struct run w;

	(void)state;
	beside_start_clean(&w, 0);
	run_steps(&w.ctx, late_steps, 4, w.res);
	assert_string_equal(ran.buf, "a c- n+ ");
	assert_int_equal(w.res[2].status, STEP_PASS);
	assert_string_equal(sim_in(&w, &s_late)->era, "fake era");
	beside_finish(&w);

	beside_start_clean(&w, 0);
	gives['s' - 'a'] = STEP_FAIL;
	run_steps(&w.ctx, late_steps, 4, w.res);
	assert_string_equal(ran.buf, "a c- ");
	assert_int_equal(w.res[1].status, STEP_PASS);
	assert_int_equal(w.res[2].status, STEP_FAIL);
	assert_step(&w, 3, STEP_SKIP,
		    "not run: the run stopped when s failed; n does not need it: --keep-going runs it");
	beside_finish(&w);

	/* with -k it does not stop "n" */
	beside_start_clean(&w, 0);
	w.opt.keep_going = 1;
	gives['s' - 'a'] = STEP_FAIL;
	run_steps(&w.ctx, late_steps, 4, w.res);
	assert_string_equal(ran.buf, "a c- n+ ");
	beside_finish(&w);
}

/*
 * A copy of the context (a flavour's, run_flavour()) gets an output of its
 * own for a step that owns its type; the pipeline's stays as it was.
 */
static void own_output_copied(void **state)
{
	struct verify_ctx fc;
	struct sim_out *mine;
	struct run w;

	(void)state;
	beside_start_clean(&w, 0);
	mine = step_output(&w.ctx, &s_step);
	mine->traces = 7;
	fc = w.ctx;
	step_out_init(&fc, &s_step);
	assert_ptr_not_equal(step_output(&fc, &s_step), mine);
	assert_int_equal(((struct sim_out *)step_output(&fc, &s_step))->traces, 0);
	assert_ptr_equal(sim_in(&w, &s_step), mine);
	assert_int_equal(mine->traces, 7);
	step_out_clear(&fc, &s_step);
	assert_null(step_output(&fc, &s_step));
	assert_ptr_equal(sim_in(&w, &s_step), mine);
	beside_finish(&w);
}

/*
 * Step @i's output is of its own type, or a field of struct verify_ctx
 * that no other step's output overlaps; a step with an init or clear has
 * an output; a step in a process of its own sends back the output it has.
 */
static void step_outputs_are_whole(int i)
{
	const struct step *s = verify_steps[i];
	int j;

	assert_true(s->out == STEP_OUT_OWN ||
		    s->out + s->out_size <= sizeof(struct verify_ctx));
	if (s->init_out || s->clear_out || s->save_out || s->load_out)
		assert_int_not_equal(s->out_size, 0);
	if ((s->flags & STEP_BESIDE) && s->out_size) {
		assert_non_null(s->save_out);
		assert_non_null(s->load_out);
	}
	for (j = 0; j < i; j++) {
		const struct step *o = verify_steps[j];

		if (!s->out_size || !o->out_size || s->out == STEP_OUT_OWN ||
		    o->out == STEP_OUT_OWN)
			continue;
		assert_true(s->out >= o->out + o->out_size ||
			    o->out >= s->out + s->out_size);
	}
}

/* The real table: every index has its line, its name and its entry. */
static void real_table(void **state)
{
	int i;

	(void)state;
	assert_int_equal(nr_verify_steps, NR_STEPS);
	for (i = 0; i < nr_verify_steps; i++) {
		assert_non_null(verify_steps[i]->name);
		assert_non_null(verify_steps[i]->run);
		assert_int_not_equal(verify_steps[i]->timeout, 0);
		assert_int_equal(verify_step_index(verify_steps[i]->name), i);
		/* A step needs only steps before it. */
		assert_true(verify_steps[i]->needs < NEEDS(i));
	}
	assert_string_equal(verify_step_name(STEP_IDX_sim), "sim");
	/* what a sweep runs: the steps before config, which read no build */
	for (i = 0; i < nr_verify_steps; i++)
		assert_int_equal(verify_step_source_only(i),
				 i < STEP_IDX_config);
	for (i = 0; i < nr_verify_steps; i++)
		assert_int_equal(!!(verify_steps[i]->flags & STEP_COUNTS_OBJECTS),
				 i == STEP_IDX_build);
	assert_int_equal(verify_steps[STEP_IDX_boot]->needs,
			 NEEDS(STEP_IDX_config) | NEEDS(STEP_IDX_build) |
			 NEEDS(STEP_IDX_selftests));
	for (i = 0; i < nr_verify_steps; i++)
		step_outputs_are_whole(i);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_pass),
		cmocka_unit_test(fail_stops),
		cmocka_unit_test(keep_going),
		cmocka_unit_test(independent),
		cmocka_unit_test(skip_option),
		cmocka_unit_test(not_applicable),
		cmocka_unit_test(flavours_missing),
		cmocka_unit_test(flavour_rows),
		cmocka_unit_test(machine_error),
		cmocka_unit_test(beside),
		cmocka_unit_test(beside_not_independent),
		cmocka_unit_test(own_output_copied),
		cmocka_unit_test(real_table),
	};
	char tmpl[] = "/tmp/kverify-test-engine-XXXXXX";
	char *logs;
	int ret;

	dir = mkdtemp(tmpl);
	if (!dir)
		return 1;
	logs = xstrfmt("%s/logs", dir);
	mkdir_p(logs);
	beside_done = xstrfmt("%s/beside-done", dir);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	rm_rf(dir);
	free(logs);
	free(beside_done);
	strbuf_release(&ran);
	return ret;
}
