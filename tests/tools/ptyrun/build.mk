# tests/tools/ptyrun: run a command on a pseudo-terminal (guest, static), so
# VM tests can see what pmuctl shows at a terminal (pmuctl_status scenario).
GUEST_BINS += $(BUILD)/guest/ptyrun
$(BUILD)/guest/ptyrun: $(BUILD)/gobj/tests/tools/ptyrun/ptyrun.o
	$(link-static)
