/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of make sweep share: sweep.c runs the versions on what
 * a sweep unpacks and what its rows depend on (sweep_members.c), the
 * versions the archive offers (sweep_list.c) and a version's row file
 * (sweep_rows.c).  The rows themselves and their reports are
 * sweep_report.h's.
 */
#ifndef KVERIFY_SWEEP_INT_H
#define KVERIFY_SWEEP_INT_H

#include "sweep_report.h"

struct step_result;
struct verify_ctx;

/**
 * sweep_members() - The one list of what a sweep unpacks of a source.
 * @repo: The repository, whose series/ and backports/<X.Y>/ are read.
 * @out: Where the paths are added: sorted, none under another.
 *
 * What checkpatch reads, and the directories of the sim's files, of the
 * semantic patch's inputs and of every file a variant's patches touch.
 */
void sweep_members(const char *repo, struct strvec *out);

/**
 * sweep_content_hash() - What a version's row depends on.
 * @repo: The repository.
 *
 * Return: the hash of its series/, backports/, cocci/ and
 * checkpatch.allow, in 16 hex digits, for the caller to free.
 */
char *sweep_content_hash(const char *repo);

/**
 * sweep_list_versions() - The versions the archive offers, into a sweep.
 * @sw: The sweep: sw->v (sorted in Debian's version order), sw->suites and
 *	sw->missing are filled, for sw->a->only alone if it is set.
 *
 * Return: 0, or 2 if the archive cannot be listed.
 */
int sweep_list_versions(struct sweep *sw);

/**
 * sweep_read_row_file() - Read a row file into a version.
 * @path: The file of "key value" lines (sweep_write_row_file()).
 * @v: The version, whose row's fields are set from the file.
 *
 * Return: 0, or -1 if the file cannot be read or has no hash or no first
 * step.
 */
int sweep_read_row_file(const char *path, struct sweep_version *v);

/**
 * sweep_read_row() - A version's row as recorded in the cache.
 * @sw: The sweep, whose cache holds the rows.
 * @v: The version.
 *
 * Return: as sweep_read_row_file().
 */
int sweep_read_row(const struct sweep *sw, struct sweep_version *v);

/**
 * sweep_clear_row() - Free a version's row and set it to none.
 * @v: The version; its package, version and suites are kept.
 */
void sweep_clear_row(struct sweep_version *v);

/**
 * sweep_write_row_file() - Write a version's row as a file.
 * @path: The file, written whole or not at all.
 * @v: The version.
 *
 * Return: 0, or -1 with errno set.
 */
int sweep_write_row_file(const char *path, const struct sweep_version *v);

/**
 * sweep_write_row() - Record a version's row in the cache.
 * @sw: The sweep, whose cache holds the rows.
 * @v: The version.
 *
 * Return: 0, or -1 with errno set.
 */
int sweep_write_row(const struct sweep *sw, const struct sweep_version *v);

/**
 * sweep_record_steps() - A version's run, as its row.
 * @v: The version, whose variant, n/a reason and source its run set
 *	(sweep.c); its row is set: when it was checked, each step's status,
 *	reason and time, whether the archive no longer has it.
 * @res: Its steps' results.
 * @n: How many.
 */
void sweep_record_steps(struct sweep_version *v,
			const struct step_result *res, int n);

/**
 * sweep_disk_usage() - Disk a directory takes.
 * @dir: The directory.
 *
 * Hard links are counted once per walk, as du does not.
 *
 * Return: bytes, or -1 when it cannot be walked.
 */
long long sweep_disk_usage(const char *dir);

#endif
