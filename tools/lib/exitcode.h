/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_EXITCODE_H
#define KVERIFY_EXITCODE_H

/* The exit status of every kverify command (README, kverify --help). */
enum exit_code {
	EXIT_PASS = 0,		/* every step passed, was skipped or n/a */
	EXIT_FAIL = 1,		/* the patch failed a step */
	EXIT_USAGE = 2,		/* bad usage or input: nothing was run */
	EXIT_TOOL = 3,		/* a tool, the source or the machine failed */
	EXIT_INTERRUPTED = 130,	/* SIGINT or SIGTERM, as a shell says it */
};

/**
 * exit_rank() - How much a status outweighs the others.
 * @e: The status.
 *
 * A pass ranks lowest, then a tool's ERROR, the patch's FAIL, bad usage,
 * and, highest, an interrupt or any status not in enum exit_code.
 *
 * Return: The rank, 0 to 4.
 */
static inline int exit_rank(enum exit_code e)
{
	switch (e) {
	case EXIT_PASS:
		return 0;
	case EXIT_TOOL:
		return 1;
	case EXIT_FAIL:
		return 2;
	case EXIT_USAGE:
		return 3;
	default:
		return 4;
	}
}

/**
 * exit_worse() - Of two runs' statuses, the one a pipeline must see.
 * @a: One run's status.
 * @b: Another's.
 *
 * A FAIL of the patch outweighs another target's tool ERROR, so that a
 * CI job sees the patch's failure first (exit_rank() gives the order).
 *
 * Return: Whichever of @a and @b ranks higher; @a when they rank alike.
 */
static inline enum exit_code exit_worse(enum exit_code a, enum exit_code b)
{
	return exit_rank(a) >= exit_rank(b) ? a : b;
}

#endif
