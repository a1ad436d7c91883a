# tests/tools/relfuzz: static guest tools of the reliability tests (issue 8)
#   relfuzz    multi-threaded /dev/pmuprof ioctl abuse with state checks
#   relchurn   fork/exec/thread/exit churn workload
#   relreader  slow or killed reader with exact accounting checks
#   relcaps    run a command as another uid with an exact capability set
# and a host checker for the data files the reliability scenarios bring back:
#   $(BUILD)/tests/relcheck  (lib/pmufile)
# Included from tests/unit/rel.mk (the top Makefile globs only two levels).
ifndef RELFUZZ_BUILD_MK
RELFUZZ_BUILD_MK := 1
RELFUZZ_GUEST := relfuzz relchurn relreader relcaps
GUEST_BINS += $(addprefix $(BUILD)/guest/,$(RELFUZZ_GUEST))

$(BUILD)/guest/relfuzz: $(BUILD)/gobj/tests/tools/relfuzz/relfuzz.o $(TT_COMMON_GUEST) \
		$(PMUFILE_GUEST_LIB)
	@mkdir -p $(dir $@)
	$(CC) -static -pthread -o $@ $^

$(BUILD)/guest/relchurn: $(BUILD)/gobj/tests/tools/relfuzz/relchurn.o
	@mkdir -p $(dir $@)
	$(CC) -static -pthread -o $@ $^

$(BUILD)/guest/relreader: $(BUILD)/gobj/tests/tools/relfuzz/relreader.o $(TT_COMMON_GUEST) \
		$(PMUFILE_GUEST_LIB)
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $^

$(BUILD)/guest/relcaps: $(BUILD)/gobj/tests/tools/relfuzz/relcaps.o
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $^

ifneq ($(PMUFILE_LIB),)
RELCHECK := $(BUILD)/tests/relcheck
unit: $(RELCHECK)
guest-bins: $(RELCHECK)
$(RELCHECK): $(BUILD)/obj/tests/tools/relfuzz/relcheck.o $(TT_COMMON) $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^

# the same checker in the guest (files too big to bring back)
GUEST_BINS += $(BUILD)/guest/relcheck
$(BUILD)/guest/relcheck: $(BUILD)/gobj/tests/tools/relfuzz/relcheck.o $(TT_COMMON_GUEST) \
		$(PMUFILE_GUEST_LIB)
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $^
endif
endif
