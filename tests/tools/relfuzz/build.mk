# tests/tools/relfuzz: static guest tools of the reliability tests (issue 8)
#   relfuzz    multi-threaded /dev/pmuprof ioctl abuse with state checks
#   relchurn   fork/exec/thread/exit churn workload
#   relreader  slow or killed reader with exact accounting checks
#   relcaps    run a command as another uid with an exact capability set
#   relcheck   checker of the data files (also on the host: files the
#              reliability scenarios bring back, $(BUILD)/tests/relcheck)
RELFUZZ_GUEST := relfuzz relchurn relreader relcaps relcheck
GUEST_BINS += $(addprefix $(BUILD)/guest/,$(RELFUZZ_GUEST))
$(addprefix $(BUILD)/guest/,$(RELFUZZ_GUEST)): $(BUILD)/guest/%: $(BUILD)/gobj/tests/tools/relfuzz/%.o
	$(link-static)
$(BUILD)/guest/relfuzz $(BUILD)/guest/relreader $(BUILD)/guest/relcheck: $(TT_COMMON_GUEST) \
	$(PMUFILE_GUEST_LIB)
$(BUILD)/guest/relfuzz $(BUILD)/guest/relchurn: private LDLIBS := -pthread

RELCHECK := $(BUILD)/tests/relcheck
unit guest-bins: $(RELCHECK)
$(RELCHECK): $(BUILD)/obj/tests/tools/relfuzz/relcheck.o $(TT_COMMON) $(PMUFILE_LIB)
	$(link)
