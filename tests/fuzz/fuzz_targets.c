// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: kernels.list parsing never crashes or leaks. */
#include <stddef.h>
#include <stdint.h>

#include "../../tools/sources/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct target_list list = { 0 };
	struct strbuf err = STRBUF_INIT;
	size_t i;

	if (targets_parse("fuzz.list", (const char *)data, size, &list, &err))
		strbuf_release(&err);
	for (i = 0; i < list.nr; i++)
		targets_find(&list, list.v[i].name, &err);
	targets_clear(&list);
	strbuf_release(&err);
	return 0;
}
