/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rows of a sweep (sweep.c runs the versions, sweep_rows.c keeps the
 * rows) and their reports (sweep_report.c: the headline, the Markdown
 * table, and sweep.json).  sweep.c and sweep_rows.c call sweep_report.c,
 * never the other way.
 */
#ifndef KVERIFY_SWEEP_REPORT_H
#define KVERIFY_SWEEP_REPORT_H

#include "lib/strbuf.h"

struct options;
struct sweep_args;

/*
 * The steps a sweep runs: those of the engine's table that read only the
 * source and the series, in its order (sweep.c fills them).
 */
#define MAX_SWEEP_STEPS 32
extern const char *sweep_steps[MAX_SWEEP_STEPS];
extern size_t nr_sweep_steps;

struct sweep_version {
	char *package;		/* linux-source-X.Y */
	char *version;
	struct strvec suites;
	char *source;		/* the test hook's SOURCE, else NULL */
	/* the row: checked now, or recorded before */
	int have_row, reused, passed, failed;
	int gone;		/* listed, but the mirror has no .deb (404) */
	char *hash, *checked, *variant, *na_reason, *src_key;
	long long kept;		/* bytes of the partial source kept */
	char *status[MAX_SWEEP_STEPS], *reason[MAX_SWEEP_STEPS];
	double seconds[MAX_SWEEP_STEPS];
};

struct sweep {
	const struct options *opt;
	const struct sweep_args *a;
	const char *md, *json;	/* a->md, a->json: where the report goes */
	const char *only;	/* a->only: the one version to check, or NULL */
	char *repo, *results;
	const char *cache;	/* opt->cache */
	char *hash;		/* series/, backports/, cocci/, checkpatch.allow */
	struct strvec members;
	struct strvec suites, missing;	/* missing: "suite: why" */
	struct sweep_version *v;
	size_t nr;
	int checked, reused;
};

/**
 * sweep_bad_status() - whether a step's status fails its version
 * @status: the step's status word, or NULL (not run)
 *
 * Return: nonzero for a status other than PASS, SKIP and N-A.
 */
int sweep_bad_status(const char *status);

/**
 * sweep_first_failure() - the first version that failed or was not checked
 * @sw: the sweep
 * @nr_failed: set to how many versions failed or were not checked
 *
 * Return: the first such version, or NULL when every version passed.
 */
const struct sweep_version *sweep_first_failure(const struct sweep *sw,
						int *nr_failed);

/**
 * sweep_headline() - the sweep's one-line verdict
 * @sw: the sweep
 * @sb: where it is added
 *
 * "FAIL: " with the first failing version, its step and reason, or
 * "PASS: " with the counts of versions passed, n/a, checked and reused.
 */
void sweep_headline(const struct sweep *sw, struct strbuf *sb);

/**
 * sweep_table() - the version x step table in Markdown, with its notes
 * @sw: the sweep
 * @sb: where it is added (stdout and docs/sweep.md print the same)
 */
void sweep_table(const struct sweep *sw, struct strbuf *sb);

/**
 * sweep_write_json() - write sw->json, the sweep in JSON
 * @sw: the sweep
 * @head: the headline
 * @secs: the sweep's time in seconds
 * @interrupted: the sweep was interrupted: its report goes beside the last
 *	complete one, NAME.interrupted.json for NAME.json, which a complete
 *	sweep removes
 *
 * Return: 0, or nonzero if the file cannot be written (said with error()).
 */
int sweep_write_json(const struct sweep *sw, const char *head, double secs,
		     int interrupted);

/**
 * sweep_write_md() - put the table between the markers of sw->md
 * @sw: the sweep
 * @head: the headline
 * @body: the table (sweep_table())
 *
 * The rest of the file is kept; a file without the markers is written
 * anew with a title.
 *
 * Return: 0, or nonzero if the file cannot be written (said with error()).
 */
int sweep_write_md(const struct sweep *sw, const char *head,
		   const char *body);

#endif
