// SPDX-License-Identifier: GPL-2.0
/*
 * make am and make trailers: a posted revision (a message-id or a local
 * mbox) into series/, the previous one kept in series/old/vN/, and the
 * trailers of review replies onto the right patches of series/.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4/b4_int.h"
#include "core/series.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/usage.h"

/*
 * series/cover-letter from b4's .cover: its subject and text (up to the
 * "---"), as git mailinfo reads them, and no base.
 */
static int write_cover(struct b4 *b, const char *cover_mail)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	char *subject = mail_subject(b, cover_mail);
	const char *s = subject ? strchr(subject, ']') : NULL;
	int ret = -1;

	if (!subject || mail_message(b, cover_mail, &msg))
		goto out;
	strbuf_addf(&sb, "%s\n\n", s ? s + 1 + (s[1] == ' ') : subject);
	strbuf_addstr(&sb, msg.buf);
	strbuf_trim_trailing(&sb);
	strbuf_addch(&sb, '\n');
	ret = write_file("series/cover-letter", sb.buf, sb.len);
out:
	strbuf_release(&sb);
	strbuf_release(&msg);
	free(subject);
	return ret;
}

static int archive_series(struct b4 *b, int old_rev)
{
	char *dir = xstrfmt("series/old/v%d", old_rev);
	static const char *const keep[] = {
		"series", "cover-letter", "revision", "change-id", "message-id",
		"message-ids",
	};
	size_t i;
	int ret;

	rm_rf(dir);
	ret = mkdir_p(dir);
	for (i = 0; i < b->patches.nr && !ret; i++) {
		char *to = xstrfmt("%s/%s", dir, patch_name(b->patches.v[i]));

		ret = rename(b->patches.v[i], to);
		free(to);
	}
	for (i = 0; i < ARRAY_SIZE(keep) && !ret; i++) {
		char *from = xstrfmt("series/%s", keep[i]);
		char *to = xstrfmt("%s/%s", dir, keep[i]);
		struct strbuf sb = STRBUF_INIT;

		if (!strbuf_read_file(&sb, from, 1 << 20))
			ret = write_file(to, sb.buf, sb.len);
		else
			unlink(to);
		strbuf_release(&sb);
		free(from);
		free(to);
	}
	if (!ret)
		printf("previous revision kept in %s/\n", dir);
	free(dir);
	return ret;
}

/*
 * The "Xxx-by:" trailers of a patch (git interpret-trailers --parse, in
 * mail_trailers()), "N<TAB>Key: value".
 */
static void trailers_of(struct b4 *b, const char *path, int n,
			struct strvec *out)
{
	struct strvec all = STRVEC_INIT;
	size_t i;

	mail_trailers(b, path, &all);
	for (i = 0; i < all.nr; i++) {
		const char *colon = strchr(all.v[i], ':');

		if (colon && colon - all.v[i] > 3 && starts_with(colon - 3, "-by"))
			strvec_pushf(out, "%d\t%s", n, all.v[i]);
	}
	strvec_clear(&all);
}

/* Each trailer series/ gained, on which patch; how many. */
static int print_new_trailers(struct b4 *b, const struct strvec *before)
{
	struct strvec now = STRVEC_INIT;
	char *series = read_trim("series/series"), *line, *save = NULL;
	int n = 0, added = 0;
	size_t i;

	for (line = series ? strtok_r(series, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *path = xstrfmt("series/%s", line);

		trailers_of(b, path, ++n, &now);
		free(path);
	}
	for (i = 0; i < now.nr; i++) {
		if (strvec_has(before, now.v[i]))
			continue;
		printf("  patch %.*s: + %s\n", (int)strcspn(now.v[i], "\t"),
		       now.v[i], strchr(now.v[i], '\t') + 1);
		added++;
	}
	printf("%d trailer%s added\n", added, added == 1 ? "" : "s");
	strvec_clear(&now);
	free(series);
	return added;
}

static void trailers_of_series(struct b4 *b, struct strvec *out)
{
	size_t i;

	for (i = 0; i < b->patches.nr; i++)
		trailers_of(b, b->patches.v[i], i + 1, out);
}

/* A directory of .eml files (what send -o writes) as one mbox. */
static char *mbox_from(struct b4 *b, const char *path)
{
	struct strvec emls = STRVEC_INIT;
	struct strbuf mbox = STRBUF_INIT;
	char *out;
	size_t i;

	if (!is_dir(path))
		return xstrdup(path);
	list_dir(path, ".eml", &emls);
	for (i = 0; i < emls.nr; i++) {
		strbuf_addstr(&mbox, "From kverify Mon Sep 17 00:00:00 2001\n");
		strbuf_read_file(&mbox, emls.v[i], 16 << 20);
		strbuf_addch(&mbox, '\n');
	}
	out = xstrfmt("%s/in.mbox", b->a->work);
	write_file(out, mbox.buf, mbox.len);
	strvec_clear(&emls);
	strbuf_release(&mbox);
	return out;
}

/* What a cover (or first patch) of the posting says, checked. */
struct posting {
	int rev;
	char *change_id;	/* NULL: none */
	char *msgid;		/* without <>, NULL: none */
};

/*
 * series/change-id, message-id and revision after an import: a file that
 * cannot be written stops it, or series/ would hold vN's patches under
 * the old revision's number.
 */
static int write_series_meta(const struct posting *po)
{
	const char *name[3] = {
		"series/change-id", "series/message-id", "series/revision",
	};
	char *v[3] = { NULL };
	int i, ret = 0;

	v[0] = po->change_id ? xstrfmt("%s\n", po->change_id) : NULL;
	v[1] = po->msgid ? xstrfmt("%s\n", po->msgid) : NULL;
	v[2] = xstrfmt("%d\n", po->rev);
	if (!po->msgid)
		unlink(name[1]);
	for (i = 0; i < 3 && !ret; i++) {
		if (v[i] && write_file(name[i], v[i], strlen(v[i]))) {
			error("%s: cannot write it (%s): the patches of v%d are in series/, but series/ does not say so yet; make it writable and run make am again",
			      name[i], strerror(errno), po->rev);
			ret = -1;
		}
	}
	for (i = 0; i < 3; i++)
		free(v[i]);
	return ret;
}

/*
 * series/message-ids: each patch of series/ and its own message in the
 * posting, "NNNN-name.patch <message-id>" a line, from the Message-Id
 * b4 am keeps on each mail of its .mbx @mbx, in the order the patches
 * were made from them.  None (and not the previous revision's) when the
 * mails and the patches do not pair up: a patch's link is then its
 * cover's.  0, or -1 when the file cannot be written.
 */
static int write_patch_ids(struct b4 *b, const char *mbx)
{
	struct strvec ids = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *series = read_trim("series/series"), *line, *save = NULL;
	size_t i = 0;
	int ret = 0;

	if (mbox_msgids(b, mbx, &ids))
		strvec_clear(&ids);
	for (line = series ? strtok_r(series, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save), i++)
		if (i < ids.nr)
			strbuf_addf(&sb, "%s %s\n", line, ids.v[i]);
	if (!i || i != ids.nr) {
		unlink("series/message-ids");
		printf("series/message-ids: not written: %zu patch%s, %zu mail%s with a Message-Id in b4's %s\n",
		       i, i == 1 ? "" : "es", ids.nr, ids.nr == 1 ? "" : "s",
		       mbx);
	} else if (write_file("series/message-ids", sb.buf, sb.len)) {
		error("series/message-ids: cannot write it (%s)",
		      strerror(errno));
		ret = -1;
	}
	strvec_clear(&ids);
	strbuf_release(&sb);
	free(series);
	return ret;
}

static int read_posting(struct b4 *b, const char *cover, const char *mbx,
			struct posting *po)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	char *m;
	int ret = -1;

	if (strbuf_read_file(&sb, mbx, 64 << 20) < 0)
		goto out;
	po->rev = revision_of(sb.buf);
	if (!po->rev) {
		p = strstr(sb.buf, "[PATCH v");
		error("the posting says '[PATCH v%.*s': not a revision (1 to %d); nothing was imported",
		      (int)strspn(p + 8, "0123456789"), p + 8, MAX_REVISION);
		goto out;
	}
	if (cover) {
		strbuf_release(&sb);
		if (strbuf_read_file(&sb, cover, 16 << 20) < 0)
			goto out;
	}
	p = strstr(sb.buf, "\nchange-id: ");
	if (cover && p) {
		p += 12;
		po->change_id = xstrfmt("%.*s", (int)strcspn(p, "\n"), p);
		if (!valid_change_id(po->change_id)) {
			error("the posting's cover has change-id: '%s': not a change-id (letters, digits, '.', '_' and '-'); nothing was imported",
			      po->change_id);
			goto out;
		}
	}
	m = mail_msgid(b, cover ? cover : mbx);
	if (m) {
		const char *s = m + (*m == '<');
		size_t n = strcspn(s, ">");

		po->msgid = xstrfmt("%.*s", (int)n, s);
		free(m);
		if (!valid_msgid(po->msgid) || strpbrk(po->msgid, "\"\\<>()[],;")) {
			error("the posting's Message-Id <%s> is not one: nothing was imported",
			      po->msgid);
			goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

/* What make am was given, checked: series/'s revision, or 0 after an error. */
static int am_input(struct b4 *b)
{
	if (!b->a->mbox && !b->a->msgid) {
		error("am needs MBOX=<file> or MSGID=<message-id>");
		return 0;
	}
	if (b->a->msgid && !valid_msgid(b->a->msgid)) {
		error("MSGID='%s' is not a message-id (like <id@host> or a lore link, never an option): nothing was run",
		      b->a->msgid);
		return 0;
	}
	return series_revision("series/ holds");
}

int do_am(struct b4 *b)
{
	char *dir = xstrfmt("%s/am", b->a->work), *out = xstrfmt("%s/am-patches", b->a->work);
	struct strvec mbx = STRVEC_INIT, cover = STRVEC_INIT, before = STRVEC_INIT;
	struct posting po = { 0 };
	char *mbox = NULL;
	int ret = 1, old_rev, n;

	old_rev = am_input(b);
	if (!old_rev) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (import_tree(b) || load_patches(b))
		goto out;
	am_abort(b);
	rm_rf(dir);
	mkdir_p(dir);
	/*
	 * -t: trailers given on the cover letter go onto every patch.  b4
	 * 0.12 crashes on a folded Subject with -m FILE; stdin works.
	 */
	mbox = b->a->mbox ? mbox_from(b, b->a->mbox) : NULL;
	if (b->a->msgid ? b4_run(b, NULL, "am", "-t", "-o", dir, "--", b->a->msgid,
			     NULL) :
			  b4_run(b, mbox, "--offline-mode", "am", "-t", "-m", "-",
			     "-o", dir, NULL))
		goto out;
	list_dir(dir, ".mbx", &mbx);
	list_dir(dir, ".cover", &cover);
	if (mbx.nr != 1) {
		error("b4 am wrote no series mbox in %s", dir);
		goto out;
	}
	if (read_posting(b, cover.nr ? cover.v[0] : NULL, mbx.v[0], &po)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (po.rev < old_rev && !b->force) {
		error("the posting is v%d, older than series/'s v%d (series/revision): importing it would put v%d in place of v%d; nothing was imported.  Give v%d's thread, or FORCE=1 imports v%d all the same (series/ kept as series/old/v%d/)",
		      po.rev, old_rev, po.rev, old_rev, old_rev, po.rev,
		      old_rev);
		ret = EXIT_USAGE;
		goto out;
	}
	if (branch_from(b, "kverify-am", &mbx, 0) ||
	    format_patches(b, BASE_TAG "..kverify-am", out))
		goto out;
	if (unstamp_dir(b, out)) {
		ret = EXIT_USAGE;
		goto out;
	}
	trailers_of_series(b, &before);
	if (archive_series(b, old_rev))
		goto out;
	n = install_patches(out);
	if (n < 0 || (cover.nr && write_cover(b, cover.v[0])))
		goto out;
	if (write_series_meta(&po) || write_patch_ids(b, mbx.v[0])) {
		ret = EXIT_TOOL;
		goto out;
	}
	printf("imported v%d into series/ (%d patch%s)%s%s\n", po.rev, n,
	       n == 1 ? "" : "es", po.msgid ? ", posted as " LORE : "",
	       po.msgid ? po.msgid : "");
	print_new_trailers(b, &before);
	ret = show_range_diff(b, old_rev, po.rev);
out:
	strvec_clear(&mbx);
	strvec_clear(&cover);
	strvec_clear(&before);
	free(po.change_id);
	free(po.msgid);
	free(mbox);
	free(dir);
	free(out);
	return ret;
}

int do_trailers(struct b4 *b)
{
	char *out = xstrfmt("%s/trailer-patches", b->a->work), *range;
	struct strvec before = STRVEC_INIT;
	int ret = 1;

	if (!b->a->mbox) {
		error("trailers needs MBOX=<file with the review replies>");
		return EXIT_USAGE;
	}
	if (!mbox_has_patch(b, b->a->mbox)) {
		error("MBOX=%s holds no patch, only replies: b4 finds a reply's patch in the same mailbox, so give the whole thread (the posted messages, e.g. results/send/vN/*.eml or 'b4 mbox <message-id>', and the replies)",
		      b->a->mbox);
		ret = EXIT_USAGE;
		goto out;
	}
	if (build_branch(b, 0) ||
	    b4_run(b, b->a->mbox, "--offline-mode", "trailers", "-u", "-m", "-",
	       NULL))
		goto out;
	trailers_of_series(b, &before);
	range = xstrfmt("%s~%zu..%s", BRANCH, b->patches.nr, BRANCH);
	ret = format_patches(b, range, out) || unstamp_dir(b, out) ||
	      install_patches(out) < 0;
	free(range);
	if (!ret) {
		printf("trailers collected into series/ (%zu patches)\n",
		       b->patches.nr);
		print_new_trailers(b, &before);
	}
out:
	strvec_clear(&before);
	free(out);
	return ret;
}
