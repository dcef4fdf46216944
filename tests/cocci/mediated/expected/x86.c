// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the mediated shape, just enough around it. */
int __read_mostly pi_inject_timer = -1;
module_param(pi_inject_timer, bint, 0644);

bool __read_mostly eager_page_split = true;
module_param(eager_page_split, bool, 0644);
