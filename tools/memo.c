// SPDX-License-Identifier: GPL-2.0
/* A step's last PASS, kept under the hash of its inputs (memo.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "memo.h"
#include "run.h"
#include "series.h"

void memo_init(struct memo *m, const struct verify_ctx *ctx, const char *step)
{
	char *stamp = tree_stamp(ctx);

	m->hash = hash_bytes(HASH_INIT, stamp, strlen(stamp));
	m->path = cache_path(ctx, "memo/%s.%s", ctx->t->name, step);
	m->log = ctx->log;
	m->incomplete = !*stamp;
	free(stamp);
	memo_add_file(m, "/proc/self/exe");
}

void memo_add_file(struct memo *m, const char *path)
{
	char *real = realpath(path, NULL);

	if (!real || hash_file_fast(&m->hash, real))
		m->incomplete = 1;
	free(real);
}

void memo_add_string(struct memo *m, const char *s)
{
	m->hash = hash_bytes(m->hash, s, strlen(s) + 1);
}

void memo_add_tool(struct memo *m, const char *tool)
{
	char *path = path_lookup(tool);

	if (path)
		memo_add_file(m, path);
	else
		m->incomplete = 1;
	free(path);
}

/*
 * The file: "kverify memo <hash>", the time of the PASS, its reason, then
 * its detail.
 */
int memo_reuse(const struct memo *m, struct step_result *r)
{
	struct strbuf sb = STRBUF_INIT;
	char *head = xstrfmt("kverify memo %016llx\n",
			     (unsigned long long)m->hash);
	const char *p, *when, *reason;
	FILE *log;
	char *nl;
	int ok = 0;

	if (m->incomplete || strbuf_read_file(&sb, m->path, 1 << 20) < 0 ||
	    !skip_prefix(sb.buf, head, &when))
		goto out;
	nl = strchr(when, '\n');
	if (!nl)
		goto out;
	*nl = '\0';
	reason = nl + 1;
	nl = strchr(reason, '\n');
	if (!nl)
		goto out;
	*nl = '\0';
	p = nl + 1;
	strbuf_reset(&r->reason);
	strbuf_addf(&r->reason, "up to date: inputs unchanged since the PASS of %s: %s",
		    when, reason);
	strbuf_reset(&r->detail);
	strbuf_addstr(&r->detail, p);
	ok = 1;
	log = m->log ? fopen(m->log, "a") : NULL;
	if (log) {
		fprintf(log, "up to date: %s holds the PASS of %s for inputs of hash %016llx; nothing run\n",
			m->path, when, (unsigned long long)m->hash);
		fclose(log);
	}
out:
	strbuf_release(&sb);
	free(head);
	return ok;
}

void memo_keep(const struct memo *m, enum step_status st,
	       const struct step_result *r)
{
	struct strbuf sb = STRBUF_INIT;
	char when[32];
	time_t now = time(NULL);
	char *dir;

	if (st != STEP_PASS || m->incomplete ||
	    strchr(r->reason.buf, '\n')) {
		unlink(m->path);
		return;
	}
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	strbuf_addf(&sb, "kverify memo %016llx\n%s\n%s\n%s",
		    (unsigned long long)m->hash, when,
		    r->reason.buf, r->detail.buf);
	dir = xstrdup(m->path);
	*strrchr(dir, '/') = '\0';
	if (!mkdir_p(dir))
		write_file_atomic(m->path, sb.buf, sb.len);
	free(dir);
	strbuf_release(&sb);
}

void memo_clear(struct memo *m)
{
	free(m->path);
	m->path = NULL;
}
