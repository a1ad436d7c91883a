# tests/tools/pscheck: tools of the page-size VM scenarios (issue 6,
# tests/vm/scenarios/pagesize_*.sh):
#   $(BUILD)/tests/pscheck  host: checks a --data-addr recording of the
#                           pagesizes workload against what the guest reported
#   $(BUILD)/guest/pskwalk  guest (static): the kernel text's page sizes from
#                           the guest's own page tables (/proc/kcore)
GUEST_BINS += $(BUILD)/guest/pskwalk
$(BUILD)/guest/pskwalk: $(BUILD)/gobj/tests/tools/pscheck/pskwalk.o
	$(link-static)

PSCHECK := $(BUILD)/tests/pscheck
unit guest-bins: $(PSCHECK)
$(PSCHECK): $(BUILD)/obj/tests/tools/pscheck/pscheck.o $(PMUFILE_LIB)
	$(link)
