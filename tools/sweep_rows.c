// SPDX-License-Identifier: GPL-2.0
/*
 * A version's row (struct sweep_version): when it was checked, the
 * variant applied, the source kept, and each step's status, seconds and
 * reason; made from verify_target()'s results (sweep_record_row()), and
 * kept as a file of "key value" lines under the cache,
 * sweep/rows/<package>_<version>, which the next sweep reuses while the
 * content hash (sweep_members.c) is the same.  Under make -jN a version's
 * process writes its row in its own $TMPDIR, and sweep.c reads it back.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/result.h"
#include "lib/cache.h"
#include "lib/fsutil.h"
#include "sweep_int.h"

/* --- rows --- */

static void one_line(char *s)
{
	for (; s && *s; s++)
		if (*s == '\n' || *s == '\t')
			*s = ' ';
}

static char *row_path(const struct sweep *sw, const struct sweep_version *v)
{
	char *name = xstrfmt("%s_%s", v->package, v->version), *p;

	cache_name(name);
	p = xstrfmt("%s/sweep/rows/%s", sw->cache, name);
	free(name);
	return p;
}

static int step_index(const char *name)
{
	size_t i;

	for (i = 0; i < nr_sweep_steps; i++)
		if (!strcmp(sweep_steps[i], name))
			return i;
	return -1;
}

/* "key value" lines; "step NAME STATUS SECONDS REASON". */
int sweep_read_row_file(const char *path, struct sweep_version *v)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	int ret = -1;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0)
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *val = strchr(line, ' ');

		if (!val)
			continue;
		*val++ = '\0';
		if (!strcmp(line, "hash"))
			v->hash = xstrdup(val);
		else if (!strcmp(line, "checked"))
			v->checked = xstrdup(val);
		else if (!strcmp(line, "variant"))
			v->variant = xstrdup(val);
		else if (!strcmp(line, "na"))
			v->na_reason = xstrdup(val);
		else if (!strcmp(line, "src_key"))
			v->src_key = xstrdup(val);
		else if (!strcmp(line, "kept"))
			v->kept = atoll(val);
		else if (!strcmp(line, "gone"))
			v->gone = !strcmp(val, "1");
		else if (!strcmp(line, "step")) {
			char name[32], status[8];
			double secs;
			int n = 0, i;

			if (sscanf(val, "%31s %7s %lf %n", name, status, &secs,
				   &n) < 3)
				continue;
			i = step_index(name);
			if (i < 0)
				continue;
			free(v->status[i]);
			free(v->reason[i]);
			v->status[i] = xstrdup(status);
			v->seconds[i] = secs;
			v->reason[i] = xstrdup(val + n);
		}
	}
	ret = v->hash && v->status[0] ? 0 : -1;
out:
	strbuf_release(&sb);
	return ret;
}

int sweep_read_row(const struct sweep *sw, struct sweep_version *v)
{
	char *path = row_path(sw, v);
	int ret = sweep_read_row_file(path, v);

	free(path);
	return ret;
}

void sweep_clear_row(struct sweep_version *v)
{
	size_t i;

	free(v->hash);
	free(v->checked);
	free(v->variant);
	free(v->na_reason);
	free(v->src_key);
	for (i = 0; i < nr_sweep_steps; i++) {
		free(v->status[i]);
		free(v->reason[i]);
	}
	v->hash = v->checked = v->variant = v->na_reason = v->src_key = NULL;
	memset(v->status, 0, sizeof(v->status));
	memset(v->reason, 0, sizeof(v->reason));
	v->have_row = v->gone = 0;
}

int sweep_write_row_file(const char *path, const struct sweep_version *v)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	strbuf_addf(&sb, "hash %s\npackage %s\nversion %s\nchecked %s\n",
		    v->hash, v->package, v->version, v->checked);
	strbuf_addf(&sb, "variant %s\nsrc_key %s\nkept %lld\n", v->variant,
		    v->src_key ? v->src_key : "-", v->kept);
	if (v->na_reason)
		strbuf_addf(&sb, "na %s\n", v->na_reason);
	if (v->gone)
		strbuf_addstr(&sb, "gone 1\n");
	for (i = 0; i < nr_sweep_steps; i++)
		strbuf_addf(&sb, "step %s %s %.1f %s\n", sweep_steps[i],
			    v->status[i], v->seconds[i], v->reason[i]);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

int sweep_write_row(const struct sweep *sw, const struct sweep_version *v)
{
	char *path = row_path(sw, v), *dir = xstrdup(path);
	int ret;

	*strrchr(dir, '/') = '\0';
	mkdir_p(dir);
	ret = sweep_write_row_file(path, v);
	free(dir);
	free(path);
	return ret;
}

static long long tree_bytes;

static int add_bytes(const char *path, const struct stat *st, int flag,
		     struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	tree_bytes += (long long)st->st_blocks * 512;
	return 0;
}

long long sweep_disk_usage(const char *dir)
{
	tree_bytes = 0;
	if (nftw(dir, add_bytes, 32, FTW_PHYS))
		return -1;
	return tree_bytes;
}

void sweep_record_steps(struct sweep_version *v,
			const struct step_result *res, int n)
{
	char stamp[32];
	time_t now = time(NULL);
	int i, j;

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%MZ", gmtime(&now));
	v->checked = xstrdup(stamp);
	one_line(v->na_reason);
	/* apt's "Failed to fetch URI  404  Not Found" */
	v->gone = res[0].status != STEP_PASS &&
		  strstr(res[0].detail.buf, "Failed to fetch") &&
		  strstr(res[0].detail.buf, " 404 ");
	for (i = 0; i < n; i++) {
		j = step_index(res[i].name);
		if (j < 0)
			continue;
		v->status[j] = xstrdup(step_status_name(res[i].status));
		v->reason[j] = xstrdup(res[i].reason.buf);
		one_line(v->reason[j]);
		v->seconds[j] = res[i].seconds;
	}
	v->have_row = 1;
}
