// SPDX-License-Identifier: GPL-2.0
/*
 * make range-diff and make reroll: series/ against an older revision, and
 * the next revision's changelog from the range-diff against the posted one.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4/b4_int.h"
#include "core/series.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/usage.h"

/* The revisions series/old/ keeps, highest first. */
static int old_revisions(int *revs, int max)
{
	struct dirent **names;
	int i, j, nr = 0, n = scandir("series/old", &names, NULL, alphasort);

	for (i = 0; i < n; i++) {
		int r = parse_revision(names[i]->d_name);

		if (r && names[i]->d_name[0] == 'v' && nr < max) {
			for (j = nr++; j > 0 && revs[j - 1] < r; j--)
				revs[j] = revs[j - 1];
			revs[j] = r;
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return nr;
}

int do_range_diff(struct b4 *b)
{
	int rev = series_revision("series/ holds"), revs[64], nr, i, from = 0;
	struct strbuf kept = STRBUF_INIT;

	if (!rev)
		return EXIT_USAGE;
	nr = old_revisions(revs, ARRAY_SIZE(revs));
	for (i = 0; i < nr; i++)
		strbuf_addf(&kept, " v%d", revs[i]);
	if (b->a->from) {
		from = parse_revision(b->a->from);
		if (!from) {
			error("FROM='%s' is not a revision (vN, 1 to %d)",
			      b->a->from, MAX_REVISION);
			strbuf_release(&kept);
			return EXIT_USAGE;
		}
		for (i = 0; i < nr && revs[i] != from; i++)
			;
		if (i == nr)
			from = 0;
	} else {
		/* The previous revision; the same one after a re-import. */
		for (i = 0; i < nr && !from; i++)
			if (revs[i] < rev)
				from = revs[i];
		for (i = 0; i < nr && !from; i++)
			if (revs[i] == rev)
				from = revs[i];
	}
	if (!from) {
		if (nr)
			error("series/old/%s%s does not exist; series/old/ keeps%s: give FROM=vN",
			      b->a->from ? "v" : "",
			      b->a->from ? b->a->from + (b->a->from[0] == 'v') :
			      "(a revision before this one)", kept.buf);
		else
			error("nothing to compare series/ (v%d) with: series/old/ keeps no revision (make am keeps the previous one there when it imports a posting)",
			      rev);
		strbuf_release(&kept);
		return 1;
	}
	strbuf_release(&kept);
	if (import_tree(b))
		return 1;
	am_abort(b);
	return show_range_diff(b, from, rev) ? 1 : 0;
}

/*
 * The mails of @sent (cover first) without the cover and with LF line
 * ends (as a mail server delivers them), into @dir; 0 or -1.
 */
static int sent_patches(const char *sent, const char *dir,
			struct strvec *out)
{
	struct strvec emls = STRVEC_INIT;
	size_t i;
	int ret = list_dir(sent, ".eml", &emls);

	rm_rf(dir);
	mkdir_p(dir);
	for (i = 1; i < emls.nr && !ret; i++) {
		struct strbuf sb = STRBUF_INIT, lf = STRBUF_INIT;
		char *to = xstrfmt("%s/%04zu.eml", dir, i);
		size_t j;

		ret = strbuf_read_file(&sb, emls.v[i], 16 << 20) < 0;
		for (j = 0; j < sb.len; j++)
			if (sb.buf[j] != '\r')
				strbuf_addch(&lf, sb.buf[j]);
		ret = ret || write_file(to, lf.buf, lf.len);
		strvec_push(out, to);
		strbuf_release(&sb);
		strbuf_release(&lf);
		free(to);
	}
	if (!ret && emls.nr < 2)
		ret = -1;
	strvec_clear(&emls);
	return ret;
}

/*
 * series/old/v@rev/ as v@rev went out: the patches from the mails of
 * @sent, the sender's From:/Signed-off-by: taken off as make am does
 * (series/ keeps none), the cover letter, revision and change-id of
 * series/, and the posting's @msgid.
 */
static int keep_as_posted(struct b4 *b, const char *sent, int rev,
			  const char *msgid)
{
	char *lf = xstrfmt("%s/sent-lf", b->a->work);
	char *fmt = xstrfmt("%s/sent-patches", b->a->work);
	char *dir = xstrfmt("series/old/v%d", rev);
	struct strvec mails = STRVEC_INIT, files = STRVEC_INIT;
	struct strbuf series = STRBUF_INIT;
	static const char *const keep[] = {
		"cover-letter", "revision", "change-id",
	};
	size_t i;
	int ret;

	ret = sent_patches(sent, lf, &mails) ||
	      branch_from(b, "kverify-sent", &mails, 0) ||
	      format_patches(b, BASE_TAG "..kverify-sent", fmt) ||
	      unstamp_dir(b, fmt) || list_dir(fmt, ".patch", &files);
	if (ret) {
		error("cannot read back what %s holds as patches (log: %s)",
		      sent, b->log);
		goto out;
	}
	rm_rf(dir);
	ret = mkdir_p(dir);
	for (i = 0; i < files.nr && !ret; i++) {
		char *to = xstrfmt("%s/%s", dir, patch_name(files.v[i]));

		ret = copy_file(files.v[i], to);
		strbuf_addf(&series, "%s\n", patch_name(files.v[i]));
		free(to);
	}
	for (i = 0; i < ARRAY_SIZE(keep) && !ret; i++) {
		char *from = xstrfmt("series/%s", keep[i]);
		char *to = xstrfmt("%s/%s", dir, keep[i]);

		ret = copy_file(from, to);
		free(from);
		free(to);
	}
	if (!ret) {
		char *path = xstrfmt("%s/series", dir);
		char *v = xstrfmt("%s\n", msgid);
		char *mp = xstrfmt("%s/message-id", dir);

		ret = write_file(path, series.buf, series.len) ||
		      write_file(mp, v, strlen(v));
		free(path);
		free(v);
		free(mp);
	}
	if (!ret)
		printf("v%d as posted kept in %s/ (from %s)\n", rev, dir, sent);
out:
	strvec_clear(&mails);
	strvec_clear(&files);
	strbuf_release(&series);
	free(lf);
	free(fmt);
	free(dir);
	return ret;
}

/*
 * series/cover-letter with the section "Changes in v@rev:" (@changes, then
 * the link to the previous posting) before the first changelog section it
 * has, or at its end.
 */
static int add_changelog(int rev, const char *changes, const char *link)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT, sec = STRBUF_INIT;
	const char *at = NULL;
	struct line l;
	int ret;

	if (strbuf_read_file(&sb, "series/cover-letter", 1 << 20) < 0)
		return -1;
	strbuf_addf(&sec, "Changes in v%d:\n%s- Link to v%d: %s\n", rev,
		    changes, rev - 1, link);
	for_each_line(l, sb.buf)
		if (!at && (starts_with(l.s, "Changes in v") ||
			    starts_with(l.s, "Changes since v")))
			at = l.s;
	if (at) {
		strbuf_add(&out, sb.buf, at - sb.buf);
		strbuf_addf(&out, "%s\n%s", sec.buf, at);
	} else {
		strbuf_addstr(&out, sb.buf);
		strbuf_trim_trailing(&out);
		strbuf_addf(&out, "\n\n%s", sec.buf);
	}
	ret = write_file("series/cover-letter", out.buf, out.len);
	strbuf_release(&sb);
	strbuf_release(&out);
	strbuf_release(&sec);
	return ret;
}

/*
 * make reroll: the next revision, as b4 send's reroll starts it.  The
 * posted one (results/send/vN/message-id, written by a real send) is kept
 * as it went out in series/old/vN/; the cover gets "Changes in vN+1:",
 * a line per patch the range-diff finds changed (EDITME: the author says
 * how) and "Link to vN:"; series/revision says N+1, series/message-id
 * goes (N+1 is not posted).
 */
int do_reroll(struct b4 *b)
{
	int rev = series_revision("series/ holds"), next = rev + 1, ret = EXIT_USAGE;
	char *rel = xstrfmt("%s/send/v%d", b->a->results, rev);
	char *nrel = xstrfmt("%s/send/v%d", b->a->results, next);
	char *out = abspath(rel), *nout = abspath(nrel);
	char *sent = xstrfmt("%s/sent", out), *id = NULL, *nid = NULL;
	char *rd = xstrfmt("%s/range-diff.txt", b->a->work), *v;
	struct strbuf diff = STRBUF_INIT, changes = STRBUF_INIT;

	if (!rev)
		goto out;
	id = b4_posted(out);
	if (!id) {
		error("v%d is not posted (no %s/message-id): 'make send SEND=1' posts it; nothing was changed",
		      rev, rel);
		goto out;
	}
	nid = b4_posted(nout);
	if (nid && !b->a->resend) {
		error("v%d was posted already as <%s> (%s/message-id); nothing was changed: series/revision says %d, set it to the revision you work on",
		      next, nid, nrel, rev);
		goto out;
	}
	if (next > MAX_REVISION) {
		error("v%d is the last revision kverify counts to", rev);
		goto out;
	}
	ret = 1;
	if (!is_dir(sent))	/* sent through SMTP: the checked set */
		sent[strlen(out)] = '\0';
	if (import_tree(b) || load_patches(b))
		goto out;
	am_abort(b);
	if (keep_as_posted(b, sent, rev, id) ||
	    show_range_diff(b, rev, next) ||
	    strbuf_read_file(&diff, rd, 16 << 20) < 0)
		goto out;
	reroll_changelog(diff.buf, &changes);
	v = xstrfmt(LORE "%s", id);
	ret = add_changelog(next, changes.buf, v);
	free(v);
	if (ret)
		goto out;
	v = xstrfmt("%d\n", next);
	ret = write_file("series/revision", v, strlen(v));
	free(v);
	unlink("series/message-id");
	if (!ret)
		printf("series/ is v%d now; series/cover-letter has 'Changes in v%d:' with the link to v%d: edit its EDITME lines, then make verify-all and make send\n",
		       next, next, rev);
out:
	strbuf_release(&diff);
	strbuf_release(&changes);
	free(rel);
	free(nrel);
	free(out);
	free(nout);
	free(sent);
	free(id);
	free(nid);
	free(rd);
	return ret;
}
