# tests/tools/pscheck: tools of the page-size VM scenarios (issue 6,
# tests/vm/scenarios/pagesize_*.sh):
#   $(BUILD)/tests/pscheck  host: checks a --data-addr recording of the
#                           pagesizes workload against what the guest reported
#   $(BUILD)/guest/pskwalk  guest (static): the kernel text's page sizes from
#                           the guest's own page tables (/proc/kcore)
# Included from tests/unit/pscheck.mk (this directory is below the top
# Makefile's fragment globs).
ifndef PSCHECK_BUILD_MK
PSCHECK_BUILD_MK := 1
GUEST_BINS += $(BUILD)/guest/pskwalk

$(BUILD)/guest/pskwalk: $(BUILD)/gobj/tests/tools/pscheck/pskwalk.o
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $^

ifneq ($(PMUFILE_LIB),)
PSCHECK := $(BUILD)/tests/pscheck
unit: $(PSCHECK)
guest-bins: $(PSCHECK)
$(PSCHECK): $(BUILD)/obj/tests/tools/pscheck/pscheck.o $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^
endif
endif
