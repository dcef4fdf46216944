/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SUMMARY_H
#define KVERIFY_SUMMARY_H

/**
 * cmd_summary() - write @results/summary.md and @results/index.html
 * @results: the results directory, each target's report.json in
 *	@results/<target>/
 *
 * Return: 0; 2 when a report could not be read (it says so, the others
 * are shown); 3 when a page could not be written.
 */
int cmd_summary(const char *results);

#endif
