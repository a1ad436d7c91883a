# tests/workloads: static test workloads for the VM guest (build/guest/),
# built with the top Makefile's $(workload) recipe; see tests/workloads/*.c
# for what each one does.
WORKLOADS := split7030 syscall_heavy demo pagesizes insnloop pmuregs nofp tlbrand numaplace \
	pebsforms
WORKLOAD_BINS := $(addprefix $(BUILD)/guest/,$(WORKLOADS))
GUEST_BINS += $(WORKLOAD_BINS)
$(WORKLOAD_BINS): $(BUILD)/guest/%: tests/workloads/%.c tests/workloads/wl_common.h tests/tools/opts.h
	$(workload)
$(BUILD)/guest/numaplace: tests/tools/common.h # tt_usage
