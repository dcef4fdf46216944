// SPDX-License-Identifier: GPL-2.0
/*
 * Code from the tree under test (its pmu.c, run by the sim) runs through
 * bubblewrap: in namespaces of its own (no network, its own PIDs, IPC and
 * host name), the file system read only, a private /tmp, $HOME hidden (its
 * $HOME is an empty directory of that /tmp), none of kverify's environment
 * but the variables passed_env[] names, and writable only the directories
 * its step names.  Under root it runs as
 * nobody (setpriv, no capabilities, no_new_privs), so what only root may
 * read stays unread; under another user, in a user namespace of its own.
 * Without bubblewrap, root refuses to run such code at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/guard.h"
#include "lib/sandbox.h"
#include "lib/tree.h"

/* @dir under @top: "--perms 0755 --dir" each directory between them. */
static void make_parents(struct strvec *a, struct strvec *made,
			 const char *top, const char *dir)
{
	size_t n = strlen(top);
	char *p, *copy;

	if (strncmp(dir, top, n) || (dir[n] != '/' && dir[n]))
		return;
	copy = xstrdup(dir);
	for (p = copy + n + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (!strvec_has(made, copy)) {
			strvec_pushl(a, "--perms", "0755", "--dir", copy, NULL);
			strvec_push(made, copy);
		}
		*p = '/';
	}
	free(copy);
}

/*
 * Hand the entry @name of @dirfd (@dirfd itself for NULL), whose lstat is
 * @st, to the sandbox's user.  A file with more than one link may share
 * its inode with the pristine source (trees are hard links to it): it is,
 * or becomes again, ours, so the sandbox can replace it in a directory it
 * owns (patch(1) and as(1) do) but never write into it.  Gone before the
 * call (ENOENT): a step beside this one (the build's ccache) renames its
 * temporary files as we walk.
 */
static int chown_one(int dirfd, const char *name, const struct stat *st)
{
	uid_t to = SANDBOX_UID;
	int ret;

	if (S_ISREG(st->st_mode) && st->st_nlink > 1) {
		if (st->st_uid != SANDBOX_UID && st->st_gid != SANDBOX_UID)
			return 0;
		to = 0;
	} else if (st->st_uid == SANDBOX_UID && st->st_gid == SANDBOX_UID) {
		return 0;
	}
	if (name)
		ret = fchownat(dirfd, name, to, to, AT_SYMLINK_NOFOLLOW);
	else
		ret = fchown(dirfd, to, to);
	return ret < 0 && errno != ENOENT ? -1 : 0;
}

/* Deeper than this, a tree is refused (ELOOP) rather than walked. */
#define CHOWN_MAX_DEPTH 256

/*
 * Every entry below the directory @fd, walked by descriptors: each
 * directory is opened from its parent's descriptor with O_NOFOLLOW, and
 * each entry changed with fchownat(AT_SYMLINK_NOFOLLOW) relative to it.
 * A step beside this one may write here as we walk (the selftests' and
 * the build's sandboxes share the ccache store): a directory it swaps
 * for a symlink after we read it is not entered (ELOOP, ENOTDIR), and
 * no path is resolved again, so no change of ours leaves the directory.
 */
static int chown_below(int fd, int depth)
{
	struct dirent *e;
	int ret = 0, err;
	DIR *d;

	d = depth > CHOWN_MAX_DEPTH ? NULL : fdopendir(fd);
	if (!d) {
		err = depth > CHOWN_MAX_DEPTH ? ELOOP : errno;
		close(fd);
		errno = err;
		return -1;
	}
	while (!ret && (errno = 0, e = readdir(d))) {
		struct stat st;
		int sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				ret = -1;
			continue;
		}
		if (chown_one(fd, e->d_name, &st) < 0) {
			ret = -1;
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		sub = openat(fd, e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			if (errno != ENOENT && errno != ELOOP &&
			    errno != ENOTDIR)
				ret = -1;
			continue;
		}
		ret = chown_below(sub, depth + 1);
	}
	if (!ret && errno)
		ret = -1;
	err = errno;
	closedir(d);
	errno = err;
	return ret;
}

/*
 * @dir and all below it to the sandbox's user.  @dir itself is opened
 * without following a symlink, and, below a guarded directory (a module
 * directory in the tree, which the apply step handed to the sandbox), by
 * open_guarded(): no name on the way may be one either.
 */
static int chown_tree(const char *dir)
{
	struct stat st;
	int fd, e;

	fd = open_guarded(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || chown_one(fd, NULL, &st) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return chown_below(fd, 0);
}

/* A mount point for @path inside @root, made on the host before bwrap. */
static int make_mount_point(const char *root, const char *path)
{
	char *at = xstrfmt("%s%s", root, path);
	int ret = is_dir(at) ? 0 : mkdir_p(at);

	free(at);
	return ret;
}

/*
 * The directories of $PATH under /tmp, which the private /tmp hides: tools
 * put there (a test's, say) come back read-only.  $HOME's stay hidden: its
 * shims (pyenv's) need the rest of $HOME, and spatch found no python3.
 */
static void path_dirs(struct strvec *ro)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;

	if (!path)
		return;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (*dir != '/' || !is_real_dir(dir) || strvec_has(ro, dir))
			continue;
		if (path_under(dir, "/tmp"))
			strvec_push(ro, dir);
	}
	free(copy);
}

/*
 * The homes to hide: $HOME and the user's own from the password file (a
 * $HOME set elsewhere leaves the real one, mode 700, in the way of the
 * cache's path).  One under /tmp is hidden already, with /tmp.
 */
static void hidden_homes(struct strvec *homes)
{
	const struct passwd *pw = getpwuid(geteuid());
	const char *cand[2] = { getenv("HOME"), pw ? pw->pw_dir : NULL };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cand); i++) {
		const char *h = cand[i];

		if (h && *h == '/' && strcmp(h, "/") && !path_under(h, "/tmp") &&
		    is_real_dir(h) && !strvec_has(homes, h))
			strvec_push(homes, h);
	}
}

/*
 * The sandbox's user must reach what comes back: each directory above a
 * bound path that it cannot search (the chroot's own /root, mode 700,
 * when the cache is under root's home; a private directory on the host)
 * is covered by an empty tmpfs, on which make_parents() builds the way
 * down.  One inside a bound path is that path's own business.
 */
static void closed_parents(struct strvec *covers, const char *root,
			   const struct strvec *ro, const struct strvec *rw)
{
	size_t i, j, n = ro->nr + rw->nr;

	for (i = 0; i < n; i++) {
		const char *p = i < ro->nr ? ro->v[i] : rw->v[i - ro->nr];
		char *copy = xstrdup(p), *q;

		for (q = copy + 1; (q = strchr(q, '/')); q++) {
			struct stat st;
			char *at;
			int closed, inside = 0;

			*q = '\0';
			for (j = 0; j < covers->nr; j++)
				inside |= path_under(copy, covers->v[j]);
			for (j = 0; j < n; j++)
				inside |= path_under(copy, j < ro->nr ? ro->v[j] :
						     rw->v[j - ro->nr]);
			at = xstrfmt("%s%s", root ? root : "", copy);
			closed = !inside && !path_under(copy, "/tmp") &&
				 !stat(at, &st) && S_ISDIR(st.st_mode) &&
				 !(st.st_mode & 0001);
			free(at);
			if (closed) {
				strvec_push(covers, copy);
				break;
			}
			*q = '/';
		}
		free(copy);
	}
}

/*
 * What of kverify's environment the sandbox gets: the locale, the search
 * path, what make, kbuild and ccache read ("X*": every name starting with
 * X).  Nothing else (a token, an agent's socket, $HOME): the tree's code
 * would read it and could print it into a log.
 */
static const char *const passed_env[] = {
	"PATH", "LANG", "LANGUAGE", "LC_*", "TZ", "SOURCE_DATE_EPOCH",
	"MAKEFLAGS", "MAKELEVEL", "MFLAGS",
	"KBUILD_*", "ARCH", "SUBARCH", "CROSS_COMPILE", "LLVM", "LLVM_IAS",
	"KCFLAGS", "KCPPFLAGS", "KAFLAGS", "CCACHE_*",
};

static int env_passed(const char *var, size_t len)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(passed_env); i++) {
		n = strlen(passed_env[i]);
		if (passed_env[i][n - 1] == '*' ? len >= n - 1 &&
		    !strncmp(var, passed_env[i], n - 1) :
		    len == n && !strncmp(var, passed_env[i], n))
			return 1;
	}
	return 0;
}

/* "--setenv NAME VALUE" of "NAME=value" @var, if @all or passed_env[]'s. */
static void setenv_arg(struct strvec *a, const char *var, int all)
{
	const char *eq = strchr(var, '=');
	char *name;

	if (!eq || eq == var || (!all && !env_passed(var, eq - var)))
		return;
	name = xstrfmt("%.*s", (int)(eq - var), var);
	strvec_pushl(a, "--setenv", name, eq + 1, NULL);
	free(name);
}

/*
 * No supplementary group, or only the group of @dev (kvm for /dev/kvm,
 * mode 660), so that nobody may open it; never root's group.
 */
static void dev_group(struct strvec *a, const char *dev)
{
	struct stat st;

	if (dev && !stat(dev, &st) && S_ISCHR(st.st_mode) && st.st_gid)
		strvec_pushf(a, "--groups=%u", (unsigned int)st.st_gid);
	else
		strvec_push(a, "--clear-groups");
}

/*
 * Wrap @c's command in bubblewrap as @sb says.  @c->dir, if set, is where
 * it starts, inside too.  0, or -1 with @why saying what to install.
 */
int sandbox_child(struct child *c, const struct sandbox *sb,
		  struct strbuf *why)
{
	struct strvec a = STRVEC_INIT, made = STRVEC_INIT, ro = STRVEC_INIT;
	struct strvec homes = STRVEC_INIT;
	int root = !geteuid();
	size_t i, j;

	/* A missing tool is named as such, not as the sandbox's exit 127. */
	if (!sb->root && c->args.nr && !path_has(c->args.v[0])) {
		missing_tool(why, c->args.v[0], NULL);
		return -1;
	}
	if (!path_has("bwrap") || (root && !path_has("setpriv"))) {
		missing_tool(why, path_has("bwrap") ? "setpriv" : "bwrap", NULL);
		strbuf_addstr(why, " (code from the tree under test runs in a sandbox, never with kverify's privileges)");
		return -1;
	}
	strvec_pushl(&a, "bwrap", "--die-with-parent", "--unshare-ipc",
		     "--unshare-pid", "--unshare-net", "--unshare-uts",
		     "--ro-bind", sb->root ? sb->root : "/", "/",
		     "--dev", "/dev", "--proc", "/proc",
		     "--perms", "1777", "--tmpfs", "/tmp",
		     "--perms", "0777", "--dir", SANDBOX_HOME, NULL);
	if (sb->dev)
		strvec_pushl(&a, "--dev-bind", sb->dev, sb->dev, NULL);
	/*
	 * An environment of its own: what passed_env[] names of ours, then
	 * what the caller gave the command (which comes first).
	 */
	strvec_push(&a, "--clearenv");
	for (i = 0; environ[i]; i++)
		setenv_arg(&a, environ[i], 0);
	for (i = 0; i < c->env.nr; i++)
		setenv_arg(&a, c->env.v[i], 1);
	strvec_pushl(&a, "--setenv", "TMPDIR", "/tmp",
		     "--setenv", "HOME", SANDBOX_HOME, NULL);
	if (!root)
		strvec_push(&a, "--unshare-user");
	if (!sb->root)
		hidden_homes(&homes);
	if (!sb->root)
		path_dirs(&ro);
	for (i = 0; i < sb->ro.nr; i++)
		strvec_push(&ro, sb->ro.v[i]);
	for (i = 0; sb->root && i < ro.nr + sb->rw.nr; i++) {
		const char *p = i >= ro.nr ? sb->rw.v[i - ro.nr] : ro.v[i];

		if (make_mount_point(sb->root, p) < 0) {
			strbuf_addf(why, "cannot make %s%s for the sandbox: %s",
				    sb->root, p, strerror(errno));
			strvec_clear(&a);
			strvec_clear(&ro);
			strvec_clear(&homes);
			return -1;
		}
	}
	closed_parents(&homes, sb->root, &ro, &sb->rw);
	for (i = 0; i < homes.nr; i++)
		strvec_pushl(&a, "--perms", "0755", "--tmpfs", homes.v[i], NULL);
	for (i = 0; i < ro.nr + sb->rw.nr; i++) {
		int rw = i >= ro.nr;
		const char *p = rw ? sb->rw.v[i - ro.nr] : ro.v[i];

		make_parents(&a, &made, "/tmp", p);
		for (j = 0; j < homes.nr; j++)
			make_parents(&a, &made, homes.v[j], p);
		strvec_pushl(&a, rw ? "--bind" : "--ro-bind", p, p, NULL);
		if (rw)		/* root opens nothing the sandbox plants there */
			fs_guard(p);
		if (rw && root && chown_tree(p) < 0) {
			strbuf_addf(why, "cannot hand %s to the sandbox's user: %s",
				    p, strerror(errno));
			strvec_clear(&a);
			strvec_clear(&made);
			strvec_clear(&ro);
			strvec_clear(&homes);
			return -1;
		}
	}
	if (c->dir)
		strvec_pushl(&a, "--chdir", c->dir, NULL);
	strvec_push(&a, "--");
	if (root) {
		strvec_pushl(&a, "setpriv", "--reuid=65534", "--regid=65534",
			     NULL);
		dev_group(&a, sb->dev);
		strvec_pushl(&a, "--no-new-privs", "--inh-caps=-all",
			     "--bounding-set=-all", NULL);
	}
	for (i = 0; i < c->args.nr; i++)
		strvec_push(&a, c->args.v[i]);
	strvec_clear(&c->args);
	c->args = a;
	strvec_clear(&made);
	strvec_clear(&ro);
	strvec_clear(&homes);
	return 0;
}

void sandbox_clear(struct sandbox *sb)
{
	strvec_clear(&sb->ro);
	strvec_clear(&sb->rw);
}
