/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_B4_INT_H
#define KVERIFY_B4_INT_H

/*
 * What b4's workflows (b4.c and b4_*.c) share: the state of one workflow,
 * and the helpers more than one of its files calls.
 */
#include "b4/b4.h"
#include "core/ident.h"
#include "lib/run.h"
#include "lib/strbuf.h"
#include "sources/source.h"

#define BRANCH "b4/kvm-pmu-tolerance"
#define BASE_TAG "kverify-base"
#define MAGIC "--- b4-submit-tracking ---"
#define MAX_REVISION 999
#define CO_DEVELOPED "series/co-developed"
#define COCCI_INPUT "cocci/emulated_counter_reprogram_tolerance.cocci"

struct b4 {
	const struct b4_args *a;
	char *repo;		/* cache/b4/<source key> */
	struct source source;	/* the pristine tree and its cache key */
	char *log;
	char *b4_out;		/* b4's own output, last run */
	char *base;		/* the cover's base line (describe_base()) */
	char *base_commit;	/* an upstream commit id, or NULL */
	const struct target *t;
	struct ident id;	/* the sender; a local one for am/range-diff */
	int sender_ok;		/* id is the operator's real identity */
	struct strvec patches;
	const char *smtp;	/* sendemail.smtpserver for a real send */
	int real;		/* the b4 run that really sends */
	int b4_rerolled;		/* the vN b4 started after that send, or 0 */
	int crashed;		/* b4's last run ended in a Python traceback */
	int isolated;		/* git without the user's or the system's config */
	int force;		/* FORCE=1 */
	long sim_traces;	/* the traces the sim must have run (gate) */
};

/* A workflow of b4.h: cmd_b4() runs run() after what flags ask for. */
struct b4_cmd {
	int (*run)(struct b4 *b);
	unsigned int flags;
};

enum b4_cmd_flags {
	B4_SENDER = 1 << 0,	/* refused without the operator's identity */
};

/* b4_text.c: string functions, no file read, nothing run */
int valid_change_id(const char *s);
int valid_msgid(const char *s);
int parse_revision(const char *s);
int revision_of(const char *text);
int has_changelog(const char *text, int rev);
void unfold_from(struct strbuf *sb);
int mail_compare(const char *checked, const char *sent, struct strbuf *why);

/* b4_mail.c: mail read by git, series/ files */
int run_logged(struct b4 *b, struct child *c);
char *read_trim(const char *path);
int series_revision(const char *what);
int list_dir(const char *dir, const char *suffix, struct strvec *out);
char *b4_posted(const char *out);
char *mail_subject(struct b4 *b, const char *path);
int mail_message(struct b4 *b, const char *path, struct strbuf *msg);
char *mail_msgid(struct b4 *b, const char *path);
int mail_trailers(struct b4 *b, const char *path, struct strvec *out);
int mbox_has_patch(struct b4 *b, const char *path);
int mbox_msgids(struct b4 *b, const char *path, struct strvec *ids);
int install_patches(const char *dir);
int unstamp_dir(struct b4 *b, const char *dir);

/* b4_repo.c: the cache repository, git and b4 */
int b4_git(struct b4 *b, struct strbuf *out, ...);
int identities(struct b4 *b, int need);
int import_tree(struct b4 *b);
int cover_commit(struct b4 *b, int editme_ok);
int load_patches(struct b4 *b);
void am_abort(struct b4 *b);
int co_developed(const char *patch);
int am_series(struct b4 *b, int signoff);
int build_branch(struct b4 *b, int signoff);
int b4_runv(struct b4 *b, const char *in, const struct strvec *args);
int b4_run(struct b4 *b, const char *in, ...);
int branch_from(struct b4 *b, const char *name,
		const struct strvec *patches, int stamp);
int range_diff(struct b4 *b, const char *old, const char *new);
int format_patches(struct b4 *b, const char *range, const char *dir);
int show_range_diff(struct b4 *b, int old_rev, int new_rev);

/* b4_send.c: send */
int do_send(struct b4 *b);

/* b4_gate.c: the verification gate before a real send */
int b4_gate(struct b4 *b);

/* b4_am.c: am and trailers */
int do_am(struct b4 *b);
int do_trailers(struct b4 *b);

/*
 * The changelog lines of a range-diff (b4_text.c): one per patch that
 * changed, was added or dropped, EDITME where the author has to put it
 * into words (code changed, a patch added or dropped); collected trailers
 * on one line.
 */
void reroll_changelog(const char *range_diff, struct strbuf *out);

/*
 * Patch text @to with the review trailers (Reviewed-by:, Acked-by:,
 * Tested-by:) of patch text @from that it lacks, into @out: at the end of
 * its trailer block, before a "[ backport ... ]" note, as stable's
 * backports keep the upstream trailers above the note (b4_text.c).
 * Return: how many were added, or -1 when @to has no "---" line.
 */
int carry_review_trailers(const char *from, const char *to,
			  struct strbuf *out);

/* b4_reroll.c: range-diff and reroll */
int do_range_diff(struct b4 *b);
int do_reroll(struct b4 *b);

/* b4_edit.c: edit and series */
int do_edit(struct b4 *b);
int do_series(struct b4 *b);

#endif
