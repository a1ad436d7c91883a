# tests/tools/ptsnap: host test tools of the DWARF unwinder (issue 18):
#   ptsnap     --call-graph dwarf recordings made with ptrace (no module)
#   nofpwork   its workload, -O2 -fomit-frame-pointer against the system libc
#   cxxwork    a C++ workload (templates, an inlined hot helper, vDSO calls),
#              g++ -O2 -fomit-frame-pointer -g
# Built with the unit tests (make unit); read by tests/suites/dwarf_unwind.sh
# and dwarf_inline.sh.
# nofpwork is also built for the guest: static (VM scenario dwarf_unwind) and
# dynamic (the guest has libc at its Debian path, copied for perf: for the
# comparison with perf record --call-graph dwarf, VM scenario dwarf_perf,
# since perf 6.1 does not unwind static binaries); cxxwork dynamic, for the
# same comparison.
PTSNAP := $(BUILD)/bin/ptsnap
NOFPWORK := $(BUILD)/tests/nofpwork
CXXWORK := $(BUILD)/tests/cxxwork
CXXWORK_FLAGS := -O2 -g -fomit-frame-pointer -momit-leaf-frame-pointer -Wall -Wextra -Werror
TOOLS += $(PTSNAP)
unit: $(PTSNAP) $(NOFPWORK) $(CXXWORK)
GUEST_BINS += $(BUILD)/guest/nofpwork $(BUILD)/guest/nofpwork_dyn $(BUILD)/guest/cxxwork_dyn
$(PTSNAP): $(BUILD)/obj/tests/tools/ptsnap/ptsnap.o $(TT_COMMON) $(PMUFILE_LIB)
	$(link)
$(PTSNAP): private LDLIBS := $(shell pkg-config --libs libelf 2>/dev/null || echo -lelf)
# no frame pointers anywhere (GCC's -O2 default, said explicitly); CFI in
# .eh_frame as every x86-64 build has; not static: qsort comes from libc.so
$(NOFPWORK) $(BUILD)/guest/nofpwork $(BUILD)/guest/nofpwork_dyn: tests/tools/ptsnap/nofpwork.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -momit-leaf-frame-pointer $(WARN) \
		$(if $(filter %/guest/nofpwork,$@),-static) -o $@ $<
$(CXXWORK) $(BUILD)/guest/cxxwork_dyn: tests/tools/ptsnap/cxxwork.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CXXWORK_FLAGS) -o $@ $<
