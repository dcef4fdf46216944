// SPDX-License-Identifier: GPL-2.0
/*
 * deb: a target's source from Debian's source package, linux-source-X.Y
 * (apt, through a private apt state of the target's suite): its version
 * is the cache key, the .deb is downloaded and unpacked into the cache
 * (source.c); CONFIG=distro fetches Debian's linux-config package of the
 * same version beside it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cache.h"
#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/result.h"
#include "sources/apt.h"
#include "sources/source_int.h"

static int apt_update(const struct source_req *req, struct step_result *r,
		      struct apt_suite *as)
{
	struct child c = CHILD_INIT;
	int ret;

	if (apt_lists_fresh(as))
		return 0;
	apt_suite_args(as, &c, "apt-get");
	strvec_push(&c.args, "update");
	ret = run_tool(req->log, req->timeout, r, &c);
	child_clear(&c);
	if (!ret)
		apt_lists_touch(as);
	return ret;
}

/* The version apt would download: =VERSION if given, else the candidate. */
static char *deb_version(const struct source_req *req, struct step_result *r,
			 struct apt_suite *as)
{
	const struct target *t = req->t;
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *v = NULL;

	apt_show_args(as, &c, t->deb_package, t->deb_version);
	c.out = &out;
	if (!run_tool(req->log, req->timeout, r, &c))
		v = deb822_field(out.buf, NULL, "Version");
	if (!v && !r->reason.len) {
		struct strbuf have = STRBUF_INIT;

		strbuf_addf(&r->reason, "%s%s%s is not in %s",
			    t->deb_package, t->deb_version ? "=" : "",
			    t->deb_version ? t->deb_version : "",
			    t->deb_suite);
		if (apt_versions(as, t->deb_package, &have))
			strbuf_addf(&r->reason, "; it has %s (%s:%d: name one of them, or none for the newest)",
				    have.buf, req->opt->list, t->line);
		else if (t->deb_version)
			strbuf_addf(&r->reason, "; it lists no version of %s",
				    t->deb_package);
		strbuf_release(&have);
	}
	child_clear(&c);
	strbuf_release(&out);
	return v;
}

static int extract_deb(const struct source_req *req, struct step_result *r,
		       const char *deb, const char *tmp)
{
	struct child cs[4] = { CHILD_INIT, CHILD_INIT, CHILD_INIT, CHILD_INIT };
	int i, ret;

	strvec_pushl(&cs[0].args, "dpkg-deb", "--fsys-tarfile", deb, NULL);
	strvec_pushl(&cs[1].args, "tar", "-xO", "-f", "-", NULL);
	strvec_pushf(&cs[1].args, "./usr/src/%s.tar.xz", req->t->deb_package);
	/* Debian's tarballs are xz of many blocks: one thread a core. */
	strvec_pushl(&cs[2].args, "xz", "-dc", "-T0", NULL);
	strvec_pushl(&cs[3].args, "tar", "-x", "-f", "-", "-C", tmp, NULL);
	extract_only_members(req, &cs[3].args);
	for (i = 0; i < 4; i++) {
		cs[i].log = req->log;
		cs[i].timeout = req->timeout;
	}
	ret = run_pipeline(cs, 4);
	if (ret) {
		pipeline_describe_failure(cs, 4, &r->reason);
		step_fail_tail(r, req->log, 20);
		note_enospc(r);
	}
	for (i = 0; i < 4; i++)
		child_clear(&cs[i]);
	return ret;
}

static char *find_deb(const char *dir)
{
	struct dirent *de;
	char *found = NULL;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d)))
		if (!found && strlen(de->d_name) > 4 &&
		    !strcmp(de->d_name + strlen(de->d_name) - 4, ".deb"))
			found = xstrfmt("%s/%s", dir, de->d_name);
	if (d)
		closedir(d);
	return found;
}

/* The source package's .deb, downloaded into @tmp: its path, or NULL. */
static char *download_deb(const struct source_req *req, struct step_result *r,
			  struct apt_suite *as, const char *version,
			  const char *tmp)
{
	struct child c = CHILD_INIT;
	char *deb = NULL;
	int ret;

	apt_suite_args(as, &c, "apt-get");
	strvec_push(&c.args, "download");
	strvec_pushf(&c.args, "%s=%s", req->t->deb_package, version);
	c.dir = tmp;
	ret = run_tool(req->log, req->timeout, r, &c);
	child_clear(&c);
	if (!ret) {
		deb = find_deb(tmp);
		if (!deb)
			strbuf_addstr(&r->reason, "apt-get download left no .deb");
	}
	return deb;
}

/*
 * CONFIG=distro: Debian's linux-config-X.Y of the same version, its amd64
 * config unpacked next to the source tree (written whole, then renamed).
 */
static enum step_status fetch_distro_config(const struct source_req *req,
					    struct step_result *r,
					    struct apt_suite *as,
					    const char *key, const char *version)
{
	const char *xy = req->t->deb_package + strlen("linux-source-");
	char *dest = xstrfmt("%s/src/%s.config-amd64", req->cache, key);
	char *tmp = xstrfmt("%s/src/.tmp-config-%s", req->cache, key);
	char *file = xstrfmt("%s.partial", dest), *deb = NULL;
	struct child cs[3] = { CHILD_INIT, CHILD_INIT, CHILD_INIT };
	struct child c = CHILD_INIT;
	enum step_status st = STEP_FAIL;
	int i, lockfd = -1;

	/* The lock owns @tmp and @file: what it finds there is abandoned. */
	if (lock_in_cache(req->cache, 1, &lockfd, &r->reason, "config-%s.lock",
			  key))
		goto out;
	if (is_file(dest)) {
		st = STEP_PASS;
		goto out;
	}
	lock_inherit(lockfd);
	rm_rf(tmp);
	mkdir_p(tmp);
	apt_suite_args(as, &c, "apt-get");
	strvec_push(&c.args, "download");
	strvec_pushf(&c.args, "linux-config-%s=%s", xy, version);
	c.dir = tmp;
	if (run_tool(req->log, req->timeout, r, &c))
		goto out;
	deb = find_deb(tmp);
	if (!deb)
		goto out;
	strvec_pushl(&cs[0].args, "dpkg-deb", "--fsys-tarfile", deb, NULL);
	strvec_pushl(&cs[1].args, "tar", "-xO", "-f", "-", NULL);
	strvec_pushf(&cs[1].args, "./usr/src/linux-config-%s/config.amd64_none_amd64.xz",
		     xy);
	strvec_pushl(&cs[2].args, "xz", "-dc", NULL);
	cs[2].out_file = file;
	for (i = 0; i < 3; i++)
		cs[i].log = req->log;
	if (run_pipeline(cs, 3)) {
		pipeline_describe_failure(cs, 3, &r->reason);
		goto out;
	}
	if (!rename(file, dest))
		st = STEP_PASS;
out:
	for (i = 0; i < 3; i++)
		child_clear(&cs[i]);
	child_clear(&c);
	if (lockfd >= 0) {
		unlink(file);
		rm_rf(tmp);
	}
	unlock_file(lockfd);
	free(deb);
	free(file);
	free(tmp);
	free(dest);
	return st;
}

static enum step_status fetch_deb(const struct source_req *req,
				  struct source *out,
				  struct step_result *r, char **key,
				  char **version, char **commit)
{
	enum step_status st = STEP_FAIL;
	struct apt_suite as;

	(void)commit;	/* a deb: source has none */
	if (apt_suite_init(&as, req->opt, req->t->deb_suite, &r->reason) ||
	    apt_suite_lock(&as, &r->reason))
		goto out;
	if (apt_update(req, r, &as))
		goto out;
	*version = deb_version(req, r, &as);
	if (!*version)
		goto out;
	free(out->deb_version);
	out->deb_version = xstrdup(*version);
	*key = xstrfmt("deb-%s-%s", req->t->deb_package, *version);
	cache_name(*key);
	st = STEP_PASS;
	if (req->debian_config)
		st = fetch_distro_config(req, r, &as, *key, *version);
out:
	apt_suite_clear(&as);
	return st;
}

static int unpack_deb(const struct source_req *req, struct step_result *r,
		      const char *version, const char *commit,
		      const char *tmp)
{
	struct apt_suite as;
	char *deb = NULL;
	int ret;

	(void)commit;
	if (!apt_suite_init(&as, req->opt, req->t->deb_suite, &r->reason) &&
	    !apt_suite_lock(&as, &r->reason))
		deb = download_deb(req, r, &as, version, tmp);
	apt_suite_clear(&as);	/* apt is free while it unpacks */
	if (!deb)
		return -1;
	if (req->unpacking)
		req->unpacking(req);
	ret = extract_deb(req, r, deb, tmp);
	unlink(deb);
	free(deb);
	return ret;
}

const struct source_ops deb_source = {
	.fetch = fetch_deb,
	.unpack = unpack_deb,
};
