# pmuconv: host converter (folded stacks, reports, page sizes, diffs,
# flamegraphs/HTML when the renderers host/pmuconv/render_*.c are present).
#
# Renderers are optional at link time: main.c calls them through weak
# symbols, so the objects are linked directly (not from an archive, which
# would not pull members for weak references).

ifneq ($(wildcard lib/pmufile/build.mk),)
include lib/pmufile/build.mk
PMUCONV_PMUFILE_LIB := $(PMUFILE_LIB)
else
EXTRA_CFLAGS_host_pmuconv_ += -DPMUCONV_NO_PMUFILE
PMUCONV_PMUFILE_LIB :=
endif

PMUCONV := $(BUILD)/bin/pmuconv
PMUCONV_ALL_SRCS := $(sort $(wildcard host/pmuconv/*.c))
PMUCONV_RENDER_SRCS := $(filter host/pmuconv/render_%.c,$(PMUCONV_ALL_SRCS))
# everything but main: shared with the unit tests and fuzz targets
PMUCONV_CORE_SRCS := $(filter-out host/pmuconv/main.c $(PMUCONV_RENDER_SRCS),$(PMUCONV_ALL_SRCS))
PMUCONV_CORE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUCONV_CORE_SRCS))
PMUCONV_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUCONV_ALL_SRCS))
# libiberty (Debian libiberty-dev, a static library): the C++/Rust demangler
# and libarchive (libarchive-dev): the tar of 'pmuconv archive'
PMUCONV_LIBS := $(shell pkg-config --libs libelf 2>/dev/null || echo -lelf) -liberty \
	$(shell pkg-config --libs libarchive 2>/dev/null || echo -larchive) -lm
PMUCONV_CFLAGS_ELF := $(shell pkg-config --cflags libelf 2>/dev/null)
EXTRA_CFLAGS_host_pmuconv_ += $(PMUCONV_CFLAGS_ELF) -Wa,-I$(CURDIR)
# render_assets.c embeds the script and style sheets (.incbin)
$(BUILD)/obj/host/pmuconv/render_assets.o: $(wildcard host/pmuconv/*.js host/pmuconv/*.css)

BINS += $(PMUCONV)
MAN_PAGES += host/pmuconv/pmuconv.1

$(PMUCONV): $(PMUCONV_OBJS) $(PMUCONV_PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $(PMUCONV_OBJS) $(PMUCONV_PMUFILE_LIB) $(PMUCONV_LIBS)

.PHONY: pmuconv
pmuconv: $(PMUCONV)

# --version prints the file VERSION (PMUPROF_VERSION, top Makefile).
$(BUILD)/obj/host/pmuconv/main.o: VERSION
