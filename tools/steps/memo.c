// SPDX-License-Identifier: GPL-2.0
/* A step's last PASS, kept under the hash of its inputs (memo.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/series.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/run.h"
#include "steps/memo.h"

void memo_init_bare(struct memo *m, const struct verify_ctx *ctx,
		    const char *step)
{
	m->hash = hash_bytes(HASH_INIT, step, strlen(step) + 1);
	m->path = cache_path(ctx, "memo/%s.%s", ctx->t->name, step);
	m->log = ctx->log;
	m->incomplete = 0;
	m->force = ctx->opt->force || ctx->opt->verify_cache;
	memo_add_file(m, "/proc/self/exe");
}

void memo_init(struct memo *m, const struct verify_ctx *ctx, const char *step)
{
	char *stamp = tree_stamp(ctx);

	memo_init_bare(m, ctx, step);
	memo_add_string(m, stamp);
	if (!*stamp)
		m->incomplete = 1;
	free(stamp);
}

void memo_add_file(struct memo *m, const char *path)
{
	char *real = realpath(path, NULL);

	if (!real || hash_file_fast(&m->hash, real))
		m->incomplete = 1;
	free(real);
}

void memo_add_optional_file(struct memo *m, const char *path)
{
	memo_add_string(m, path);
	if (is_file(path))
		memo_add_file(m, path);
	else
		memo_add_string(m, "(absent)");
}

/*
 * @s without its C comments, each block comment's newlines kept so that
 * every line keeps its number (__LINE__ is code); strings and character
 * constants are copied as they are.
 */
static void strip_c_comments(struct strbuf *out, const char *s, size_t n)
{
	const char *end = s + n;
	char quote;

	while (s < end) {
		if (*s == '"' || *s == '\'') {
			quote = *s;
			strbuf_addch(out, *s++);
			while (s < end && *s != quote && *s != '\n') {
				if (*s == '\\' && s + 1 < end)
					strbuf_addch(out, *s++);
				strbuf_addch(out, *s++);
			}
			if (s < end)
				strbuf_addch(out, *s++);
		} else if (s + 1 < end && s[0] == '/' && s[1] == '*') {
			for (s += 2; s < end && !(s[0] == '*' && s + 1 < end &&
						 s[1] == '/'); s++)
				if (*s == '\n')
					strbuf_addch(out, '\n');
			s += 2;
			strbuf_addch(out, ' ');
		} else if (s + 1 < end && s[0] == '/' && s[1] == '/') {
			while (s < end && *s != '\n')
				s++;
		} else {
			strbuf_addch(out, *s++);
		}
	}
}

void memo_add_optional_code(struct memo *m, const char *path)
{
	struct strbuf text = STRBUF_INIT, code = STRBUF_INIT;

	memo_add_string(m, path);
	if (!is_file(path)) {
		memo_add_string(m, "(absent)");
		return;
	}
	if (strbuf_read_file(&text, path, 64 << 20)) {
		m->incomplete = 1;
	} else {
		strip_c_comments(&code, text.buf, text.len);
		m->hash = hash_bytes(m->hash, code.buf, code.len);
	}
	strbuf_release(&text);
	strbuf_release(&code);
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

/* What seals a file's @body (all but its first line) under @m's key. */
static uint64_t seal(const struct memo *m, const char *body, size_t len)
{
	return hash_bytes(hash_bytes(m->hash, "seal", 4), body, len);
}

/* The next line of [*p, end), NUL-terminated in place; NULL at the end. */
static char *memo_line(char **p, char *end)
{
	char *s = *p, *nl = memchr(s, '\n', end - s);

	if (!nl)
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	return s;
}

/*
 * The file: "kverify memo2 <key> <seal>", "PASS <time>", the reason, the
 * length of the data, the data, then the detail.
 */
int memo_reuse_data(const struct memo *m, struct step_result *r,
		    struct strbuf *data)
{
	struct strbuf sb = STRBUF_INIT;
	char *head = xstrfmt("kverify memo2 %016llx ",
			     (unsigned long long)m->hash);
	char *p, *end, *line, *stamp, *reason, *len_s, *endp;
	const char *when;
	unsigned long long sealed;
	unsigned long len;
	FILE *log;
	int ok = 0;

	if (m->incomplete || m->force ||
	    strbuf_read_file(&sb, m->path, 256 << 20) < 0 ||
	    !starts_with(sb.buf, head))
		goto out;
	p = sb.buf;
	end = sb.buf + sb.len;
	line = memo_line(&p, end);
	if (!line || sscanf(line + strlen(head), "%llx", &sealed) != 1 ||
	    sealed != seal(m, p, end - p))
		goto out;
	stamp = memo_line(&p, end);
	reason = memo_line(&p, end);
	len_s = memo_line(&p, end);
	if (!stamp || !reason || !len_s || !skip_prefix(stamp, "PASS ", &when))
		goto out;
	len = strtoul(len_s, &endp, 10);
	if (*endp || endp == len_s || len > (size_t)(end - p))
		goto out;
	if (data) {
		strbuf_reset(data);
		strbuf_add(data, p, len);
	}
	p += len;
	strbuf_reset(&r->reason);
	strbuf_addf(&r->reason, "up to date: inputs unchanged since the PASS of %s: %s",
		    when, reason);
	strbuf_reset(&r->detail);
	strbuf_add(&r->detail, p, end - p);
	ok = 1;
	log = m->log ? fopen(m->log, "a") : NULL;
	if (log) {
		fprintf(log, "up to date: %s kept at %s for inputs of hash %016llx; nothing run\n",
			m->path, when, (unsigned long long)m->hash);
		fclose(log);
	}
out:
	strbuf_release(&sb);
	free(head);
	return ok;
}

int memo_reuse(const struct memo *m, struct step_result *r)
{
	return memo_reuse_data(m, r, NULL);
}

void memo_keep_data(const struct memo *m, enum step_status st,
		    const struct step_result *r, const struct strbuf *data)
{
	struct strbuf body = STRBUF_INIT, sb = STRBUF_INIT;
	char when[32];
	time_t now = time(NULL);
	char *dir;

	if (st != STEP_PASS || m->incomplete ||
	    strchr(r->reason.buf, '\n')) {
		unlink(m->path);
		return;
	}
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	strbuf_addf(&body, "PASS %s\n%s\n%zu\n", when, r->reason.buf,
		    data ? data->len : 0);
	if (data)
		strbuf_add(&body, data->buf, data->len);
	strbuf_add(&body, r->detail.buf, r->detail.len);
	strbuf_addf(&sb, "kverify memo2 %016llx %016llx\n",
		    (unsigned long long)m->hash,
		    (unsigned long long)seal(m, body.buf, body.len));
	strbuf_add(&sb, body.buf, body.len);
	dir = xstrdup(m->path);
	*strrchr(dir, '/') = '\0';
	if (!mkdir_p(dir))
		write_file_atomic(m->path, sb.buf, sb.len);
	free(dir);
	strbuf_release(&body);
	strbuf_release(&sb);
}

void memo_keep(const struct memo *m, enum step_status st,
	       const struct step_result *r)
{
	memo_keep_data(m, st, r, NULL);
}

void memo_clear(struct memo *m)
{
	free(m->path);
	m->path = NULL;
}
