# pmuconv-perfdata: the perf.data exporter as a static guest binary (see
# guest_export.c); the demo VM scenario runs it and the guest's perf on its
# output. Not in sanitizer builds (no static ASan).
ifneq ($(SAN),1)
PERFDATA_GUEST := $(BUILD)/guest/pmuconv-perfdata
GUEST_BINS += $(PERFDATA_GUEST)
$(PERFDATA_GUEST): $(BUILD)/obj/tests/tools/perfdata/guest_export.o \
	$(addprefix $(BUILD)/obj/host/pmuconv/,export_perfdata.o perfdata.o symbolize.o demangle.o \
	util.o hashtab.o pcagg.o atomicfile.o) $(PMUFILE_LIB)
	$(link-static)
$(PERFDATA_GUEST): private LDLIBS := $(shell pkg-config --static --libs libelf 2>/dev/null || \
	echo -lelf -lz) -liberty -ljansson -lm
endif
