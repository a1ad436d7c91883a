# tests/tools/ptsnap: host test tools of the DWARF unwinder (issue 18):
#   ptsnap     --call-graph dwarf recordings made with ptrace (no module)
#   nofpwork   its workload, -O2 -fomit-frame-pointer against the system libc
# Built with the unit tests (make unit); read by tests/suites/dwarf_unwind.sh.
ifndef PTSNAP_BUILD_MK
PTSNAP_BUILD_MK := 1
PTSNAP := $(BUILD)/bin/ptsnap
NOFPWORK := $(BUILD)/tests/nofpwork
TOOLS += $(PTSNAP)
$(PTSNAP): $(BUILD)/obj/tests/tools/ptsnap/ptsnap.o $(BUILD)/obj/tests/tools/common.o $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(shell pkg-config --libs libelf 2>/dev/null || echo -lelf)
# no frame pointers anywhere (GCC's -O2 default, said explicitly); CFI in
# .eh_frame as every x86-64 build has; not static: qsort comes from libc.so
$(NOFPWORK): tests/tools/ptsnap/nofpwork.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -momit-leaf-frame-pointer $(WARN) -o $@ $<
unit: $(PTSNAP) $(NOFPWORK)
# the same workload, static, for the guest (VM scenario dwarf_unwind)
GUEST_BINS += $(BUILD)/guest/nofpwork
$(BUILD)/guest/nofpwork: tests/tools/ptsnap/nofpwork.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -momit-leaf-frame-pointer $(WARN) -static -o $@ $<
# and dynamic (the guest has libc at its Debian path, copied for perf): for
# the comparison with perf record --call-graph dwarf (VM scenario
# dwarf_perf), since perf 6.1 does not unwind static binaries
GUEST_BINS += $(BUILD)/guest/nofpwork_dyn
$(BUILD)/guest/nofpwork_dyn: tests/tools/ptsnap/nofpwork.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -momit-leaf-frame-pointer $(WARN) -o $@ $<
endif
