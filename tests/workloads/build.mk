# tests/workloads: static test workloads for the VM guest (build/guest/).
# Frame pointers everywhere and -O1 so user stacks walk and hot functions
# stay recognisable; see tests/workloads/*.c for what each one does.
WORKLOADS := split7030 syscall_heavy demo pagesizes insnloop pmuregs nofp tlbrand
WORKLOAD_BINS := $(addprefix $(BUILD)/guest/,$(WORKLOADS))
WORKLOAD_CFLAGS := -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-std=gnu11 -D_GNU_SOURCE $(WARN)
GUEST_BINS += $(WORKLOAD_BINS)

$(WORKLOAD_BINS): $(BUILD)/guest/%: tests/workloads/%.c tests/workloads/wl_common.h
	@mkdir -p $(dir $@)
	$(CC) $(WORKLOAD_CFLAGS) -static -o $@ $<
