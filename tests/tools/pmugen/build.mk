# pmugen: synthetic pmuprof recordings for pmuconv tests and benchmarks.
# A test tool (TOOLS), not installed; built with the unit tests. Included
# from lib/pmufile/build.mk (this directory is below the fragment globs).
ifndef PMUGEN_MK_INCLUDED
PMUGEN_MK_INCLUDED := 1
PMUGEN := $(BUILD)/bin/pmugen
TOOLS += $(PMUGEN)
$(PMUGEN): $(BUILD)/obj/tests/tools/pmugen/pmugen.o $(BUILD)/obj/tests/tools/common.o $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^
unit: $(PMUGEN)
endif
