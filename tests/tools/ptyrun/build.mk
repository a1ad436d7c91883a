# tests/tools/ptyrun: run a command on a pseudo-terminal (guest, static), so
# VM tests can see what pmuctl shows at a terminal (pmuctl_status scenario).
ifndef PTYRUN_BUILD_MK
PTYRUN_BUILD_MK := 1
GUEST_BINS += $(BUILD)/guest/ptyrun
$(BUILD)/guest/ptyrun: $(BUILD)/gobj/tests/tools/ptyrun/ptyrun.o
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $^
endif
