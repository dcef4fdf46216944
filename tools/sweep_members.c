// SPDX-License-Identifier: GPL-2.0
/*
 * What make sweep unpacks of each version's source (sweep_members(), which
 * sweep.c hands the fetch step): what checkpatch reads, and the
 * directories of the sim's files (sim.c's sim_files), of the semantic
 * patch's inputs (cocci.c's cocci_inputs) and of every file the patches of
 * series/ and backports/<X.Y>/ touch, read from the repository.
 *
 * And what a version's recorded row depends on (sweep_content_hash()): a
 * hash of the repository's series/, backports/, cocci/ and
 * checkpatch.allow; a row of another hash is checked again.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cocci.h"
#include "core/sim.h"
#include "lib/hash.h"
#include "lib/tree.h"
#include "sweep_int.h"

/*
 * What checkpatch reads besides the patches: scripts/ (checkpatch.pl,
 * spelling.txt, const_structs.checkpatch, get_maintainer.pl), and the
 * entries of its top_of_kernel_tree() test, a small file standing for each
 * directory there ("arch" comes with the KVM files).  Makefile also gives
 * the version (tree_version()).
 */
static const char *const checkpatch_reads[] = {
	"COPYING", "CREDITS", "Kbuild", "MAINTAINERS", "Makefile", "README",
	"scripts", "Documentation/Makefile", "drivers/Makefile",
	"fs/Makefile", "init/Makefile", "ipc/Makefile", "kernel/Makefile",
	"lib/Makefile", "include/linux/kvm_host.h",
};

/* --- the paths a sweep unpacks --- */

/*
 * The directory of a file the steps read or a variant touches, at most
 * four levels deep: tar fails on a name it does not find, and a file of
 * one variant (Makefile.kvm, x86/ or x86_64/) is absent from another
 * version, while its directory is not.
 */
static void add_dir_of(struct strvec *sv, const char *file)
{
	const char *p = file, *slash = NULL;
	int depth = 0;

	while ((p = strchr(p, '/')) && depth < 4) {
		slash = p++;
		depth++;
	}
	if (!slash)
		return;
	if (!strchr(slash + 1, '/') || depth == 4) {
		char *dir = xstrfmt("%.*s", (int)(slash - file), file);

		if (!strvec_has(sv, dir))
			strvec_push(sv, dir);
		free(dir);
	}
}

/* "+++ b/FILE" lines of a patch. */
static void patch_files(const char *path, struct strvec *files)
{
	struct strbuf sb = STRBUF_INIT;
	struct line l;

	if (strbuf_read_file(&sb, path, 16 << 20) < 0)
		return;
	for_each_line(l, sb.buf) {
		size_t n = strcspn(l.s, "\t\n");
		const char *name;
		char *f;

		if (!skip_prefix(l.s, "+++ b/", &name) || l.s + n <= name)
			continue;
		f = xstrfmt("%.*s", (int)(l.s + n - name), name);
		if (!strvec_has(files, f))
			strvec_push(files, f);
		free(f);
	}
	strbuf_release(&sb);
}

/* Every variant directory: series/ and backports/<X.Y>/. */
static void variant_dirs(const char *repo, struct strvec *rels)
{
	struct dirent **names;
	char *dir = xstrfmt("%s/backports", repo);
	int n, i;

	strvec_push(rels, "series");
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			strvec_pushf(rels, "backports/%s", names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	free(dir);
}

/* The files the patches of every variant touch. */
static void variant_files(const char *repo, struct strvec *files)
{
	struct strvec rels = STRVEC_INIT;
	size_t i;

	variant_dirs(repo, &rels);
	for (i = 0; i < rels.nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *series = xstrfmt("%s/%s/series", repo, rels.v[i]);
		char *line, *save = NULL;

		if (strbuf_read_file(&sb, series, 1 << 20) < 0)
			goto next;
		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *patch;

			line[strcspn(line, " \t")] = '\0';
			if (!*line || *line == '#' || strstr(line, ".."))
				continue;
			patch = xstrfmt("%s/%s/%s", repo, rels.v[i], line);
			patch_files(patch, files);
			free(patch);
		}
next:
		strbuf_release(&sb);
		free(series);
	}
	strvec_clear(&rels);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The one list of what a sweep unpacks of a source: what checkpatch reads,
 * and the directories of the sim's files, the semantic patch's inputs and
 * every file a variant touches; sorted, none under another.
 */
void sweep_members(const char *repo, struct strvec *out)
{
	struct strvec all = STRVEC_INIT, files = STRVEC_INIT;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(checkpatch_reads); i++)
		strvec_push(&all, checkpatch_reads[i]);
	for (i = 0; i < nr_sim_files; i++)
		add_dir_of(&all, sim_files[i] + (sim_files[i][0] == '?'));
	for (i = 0; i < nr_cocci_inputs; i++)
		add_dir_of(&all, cocci_inputs[i]);
	variant_files(repo, &files);
	for (i = 0; i < files.nr; i++)
		add_dir_of(&all, files.v[i]);
	qsort(all.v, all.nr, sizeof(*all.v), by_name);
	for (i = 0; i < all.nr; i++) {
		for (j = 0; j < all.nr; j++)
			if (j != i && path_under(all.v[i], all.v[j]) &&
			    strcmp(all.v[i], all.v[j]))
				break;
		if (j == all.nr && !strvec_has(out, all.v[i]))
			strvec_push(out, all.v[i]);
	}
	strvec_clear(&files);
	strvec_clear(&all);
}

/* --- what the rows depend on --- */

static void hash_tree(uint64_t *h, const char *root, const char *rel)
{
	char *path = xstrfmt("%s/%s", root, rel);
	struct dirent **names;
	struct stat st;
	int n, i;

	if (lstat(path, &st))
		goto out;
	*h = hash_bytes(*h, rel, strlen(rel) + 1);
	if (S_ISREG(st.st_mode)) {
		if (hash_file(h, path))
			*h = hash_bytes(*h, "unreadable", 10);
		goto out;
	}
	if (!S_ISDIR(st.st_mode))
		goto out;
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") &&
		    strcmp(names[i]->d_name, "..")) {
			char *sub = xstrfmt("%s/%s", rel, names[i]->d_name);

			hash_tree(h, root, sub);
			free(sub);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
out:
	free(path);
}

char *sweep_content_hash(const char *repo)
{
	static const char *const inputs[] = {
		"series", "backports", "cocci", "checkpatch.allow",
	};
	uint64_t h = HASH_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(inputs); i++)
		hash_tree(&h, repo, inputs[i]);
	return xstrfmt("%016llx", (unsigned long long)h);
}
