// SPDX-License-Identifier: GPL-2.0
/*
 * The versions make sweep checks (sweep_list_versions()): every
 * linux-source-X.Y version the Debian suites offer, as the archive lists
 * them (sources/archive.c: the mirror's suites, or the test hook's list,
 * KVERIFY_TEST_SWEEP_LIST), narrowed to --only (make sweep ONLY=); one
 * entry a version, with the suites that offer it, in Debian's version
 * order (debian/debversion.c).  A suite the mirror lacks is kept, with
 * why, to be reported.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "debian/debversion.h"
#include "lib/options.h"
#include "lib/usage.h"
#include "sources/archive.h"
#include "sources/targets.h"
#include "sweep_int.h"

/* --- the versions the archive offers (sources/archive.c lists them) --- */

static int by_version(const void *x, const void *y)
{
	const struct sweep_version *a = x, *b = y;
	int c = debversion_cmp(a->package + 13, b->package + 13);

	return c ? c : debversion_cmp(a->version, b->version);
}

static struct sweep_version *find_version(struct sweep *sw, const char *pkg,
					  const char *version)
{
	size_t i;

	for (i = 0; i < sw->nr; i++)
		if (!strcmp(sw->v[i].package, pkg) &&
		    !strcmp(sw->v[i].version, version))
			return &sw->v[i];
	return NULL;
}

static int wanted(const struct sweep *sw, const char *pkg,
		  const char *version, const char *suite)
{
	const char *only = sw->only;
	size_t n;

	if (!only)
		return 1;
	n = strcspn(only, "=");
	if (strlen(pkg) != n || strncmp(only, pkg, n) || !only[n])
		return 0;
	only += n + 1;
	n = strcspn(only, "@");
	if (strlen(version) != n || strncmp(only, version, n))
		return 0;
	return !only[n] || !strcmp(only + n + 1, suite);
}

/* archive_list()'s callback: a version of a suite, into the rows. */
static void add_version(void *data, const char *suite, const char *pkg,
			const char *version, const char *source)
{
	struct sweep *sw = data;
	struct sweep_version *v;

	if (!wanted(sw, pkg, version, suite))
		return;
	if (!plain_chars(version, ".+~:-") || !isalnum(*version)) {
		error("sweep: %s: %s version '%s' is not a Debian version, left out",
		      suite, pkg, version);
		return;
	}
	v = find_version(sw, pkg, version);
	if (!v) {
		sw->v = xrealloc(sw->v, (sw->nr + 1) * sizeof(*sw->v));
		v = &sw->v[sw->nr++];
		memset(v, 0, sizeof(*v));
		v->package = xstrdup(pkg);
		v->version = xstrdup(version);
		v->source = source ? xstrdup(source) : NULL;
	}
	if (!strvec_has(&v->suites, suite))
		strvec_push(&v->suites, suite);
}

int sweep_list_versions(struct sweep *sw)
{
	const char *only_suite = sw->only ? strchr(sw->only, '@') : NULL;
	struct archive_query q = {
		.opt = sw->opt,
		.suite = only_suite ? only_suite + 1 : NULL,
		.log_dir = sw->results,
		.list_file = sw->opt->test ? sw->opt->test->sweep_list : NULL,
		.add = add_version,
		.data = sw,
		.suites = &sw->suites,
		.missing = &sw->missing,
	};

	if (archive_list(&q))
		return 2;
	qsort(sw->v, sw->nr, sizeof(*sw->v), by_version);
	return 0;
}
