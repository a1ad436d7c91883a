# tests/tools/ucpack: rewrite a pmuprof data file with its user stack copies
# packed (format version 2) or, with -d, unpacked (version 1). Built with the
# unit tests (make unit); used by tests/suites/dwarf_unwind.sh,
# tests/suites/fuzz_replay_pmufile.sh and bench/dwarf_vs_perf.sh.
UCPACK := $(BUILD)/bin/ucpack
TOOLS += $(UCPACK)
unit: $(UCPACK)
$(UCPACK): $(BUILD)/obj/tests/tools/ucpack/ucpack.o $(PMUFILE_LIB)
	$(link)
