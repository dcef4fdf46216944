/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SOURCE_H
#define KVERIFY_SOURCE_H

/*
 * A target's pristine source, in the cache: for the pipeline's fetch step
 * and for b4's workflows alike.
 */
#include "lib/options.h"
#include "lib/strbuf.h"
#include "sources/targets.h"

/* Seconds for each tool of a fetch: a download of ~150 MB, xz, tar. */
#define SOURCE_TIMEOUT 3600

/* What source_get() is asked: a target's source, and how to fetch it. */
struct source_req {
	const struct target *t;
	const struct options *opt;
	const char *cache;	/* the cache root, absolute */
	const char *log;	/* the tools' output */
	unsigned int timeout;	/* seconds, for each tool */
	/*
	 * Called when a deb: source, its version known, is downloaded and
	 * before it is unpacked (xz and tar: the fetch's longest part);
	 * NULL: nothing.
	 */
	void (*unpacking)(const struct source_req *req);
	void *data;		/* for @unpacking */
	/* deb: Debian's linux-config package of the version, too */
	int debian_config;
};

/* A target's pristine source, as source_get() found or fetched it. */
struct source {
	char *src;		/* pristine tree, never written */
	char *src_key;		/* its name in the cache */
	char *deb_version;	/* deb: the source package's exact version */
	char *git_commit;	/* git: the commit id the tree is, in full */
	char *git_commit_object;	/* git: that commit object, raw */
	int refetched;		/* it had changed since it was fetched */
};

/**
 * source_get() - Fetch a target's source into the cache, or reuse it.
 * @req: The target and how to fetch it.
 * @out: A zeroed source, filled in; free it with source_clear(), also
 *	when this fails.
 * @reason: Appended to: what was done ("cached KEY", "fetched and
 *	unpacked KEY", a dir: used in place) or what failed.
 * @detail: Appended to: the tail of the log of a tool that failed.
 *
 * A tree is unpacked into a temporary directory, under the source's
 * lock, and renamed into place when whole, with its manifest.  A tree
 * already there is checked against its manifest (manifest_check()): one
 * that changed is fetched again (@out->refetched).  A dir: source is used
 * in place, never written; its manifest notices an edit since its last
 * run, which also sets @out->refetched.
 *
 * Return: 0, or -1.
 */
int source_get(const struct source_req *req, struct source *out,
	       struct strbuf *reason, struct strbuf *detail);

/**
 * source_clear() - Free what a source holds.
 * @s: The source; left zeroed.
 */
void source_clear(struct source *s);

/**
 * kernel_release() - The release of a kernel tree, from its Makefile.
 * @src: The tree; the first MiB of @src/Makefile is read, and the first
 *	assignment of each of VERSION, PATCHLEVEL, SUBLEVEL and
 *	EXTRAVERSION there counts.
 * @full: 0 for "X.Y", the stable branch; nonzero for "X.Y.Z" followed by
 *	EXTRAVERSION, where a SUBLEVEL of 0 or empty leaves ".Z" out.
 *
 * Return: The release, to be freed; NULL if the Makefile cannot be read
 * or gives no VERSION or PATCHLEVEL, or an empty one.
 */
char *kernel_release(const char *src, int full);

#endif
