// SPDX-License-Identifier: GPL-2.0
/*
 * warnmod: the VM harness's negative test. Loading it triggers one kernel
 * WARNING; tests/vm/scenarios/harness_detects_warn.sh loads it inside an
 * otherwise passing scenario and the harness must report that scenario as
 * failed. Never load it on a real machine.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int warnmod_trigger = 1;
module_param_named(trigger, warnmod_trigger, int, 0444);
MODULE_PARM_DESC(trigger, "WARN on load when non-zero (default 1)");

static int __init warnmod_init(void)
{
	WARN_ON_ONCE(warnmod_trigger);
	pr_info("warnmod: loaded (trigger=%d)\n", warnmod_trigger);
	return 0;
}

static void __exit warnmod_exit(void)
{
	pr_info("warnmod: unloaded\n");
}

module_init(warnmod_init);
module_exit(warnmod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("pmuprof VM harness negative test: WARN on load");
