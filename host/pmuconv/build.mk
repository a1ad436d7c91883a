# pmuconv: host converter (folded stacks, reports, page sizes, diffs,
# flamegraphs/HTML when the renderers host/pmuconv/render_*.c are present).
#
# Renderers are optional at link time: main.c calls them through weak
# symbols, so the objects are linked directly (not from an archive, which
# would not pull members for weak references).

PMUCONV := $(BUILD)/bin/pmuconv
PMUCONV_ALL_SRCS := $(sort $(wildcard host/pmuconv/*.c))
PMUCONV_RENDER_SRCS := $(filter host/pmuconv/render_%.c,$(PMUCONV_ALL_SRCS))
# the exporters (pprof: protobuf-c + zlib; speedscope) and their
# commands, linked into pmuconv only
PMUCONV_EXPORT_SRCS := $(filter host/pmuconv/export_pprof.c host/pmuconv/export_speedscope.c \
	host/pmuconv/cmd_pprof.c host/pmuconv/cmd_speedscope.c,$(PMUCONV_ALL_SRCS))
# everything but main: shared with the unit tests and fuzz targets
PMUCONV_CORE_SRCS := $(filter-out host/pmuconv/main.c $(PMUCONV_RENDER_SRCS) $(PMUCONV_EXPORT_SRCS),\
	$(PMUCONV_ALL_SRCS))
PMUCONV_CORE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUCONV_CORE_SRCS))
# profile.proto -> protoc-c -> $(BUILD)/gen/host/pmuconv/profile.pb-c.[ch] (not committed)
PMUCONV_PB := $(BUILD)/gen/host/pmuconv/profile.pb-c
PMUCONV_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUCONV_ALL_SRCS)) $(BUILD)/gen-obj/profile.pb-c.o
# libiberty (Debian libiberty-dev, a static library): the C++/Rust demangler
# libarchive (libarchive-dev, the headers): the tar of 'pmuconv archive' and
# of --symfs FILE, dlopen()ed when first used (libarchive_dl.h), not linked
# libdw (libdw-dev): the DWARF CFI unwinder (unwind.c)
# jansson (libjansson-dev): every --json output and the speedscope export
#
# These are linked from their static archives when all of them are installed
# (Debian's -dev packages ship them): binding ten shared libraries at start-up
# was about a tenth of a short conversion (0.4-0.5 ms of 5 ms for an 8 s
# recording, bench/RESULTS.md 5d). glibc stays shared (libarchive is
# dlopen()ed); no libm (render_common.c's rc_round). PMUCONV_STATIC=no (the
# .deb's choice, debian/rules: security updates of zlib, xz and elfutils then
# reach pmuconv) or a missing archive (e.g. Fedora without
# elfutils-devel-static): the shared libraries as pkg-config names them.
PMUCONV_STATIC ?= auto
PMUCONV_STATIC_ARCHIVES := dw elf bz2 lzma z jansson protobuf-c
ifeq ($(PMUCONV_STATIC),no)
PMUCONV_STATIC_MISSING := all (PMUCONV_STATIC=no)
else
PMUCONV_STATIC_MISSING := $(shell for l in $(PMUCONV_STATIC_ARCHIVES); do \
	test -f "$$($(CC) -print-file-name=lib$$l.a)" || echo $$l; done)
endif
ifeq ($(PMUCONV_STATIC_MISSING),)
PMUCONV_LIBS := -Wl,-Bstatic -ldw -lelf -lbz2 -llzma -lz -ljansson -Wl,-Bdynamic -liberty
PMUCONV_EXPORT_LIBS := -Wl,-Bstatic -lprotobuf-c -lz -Wl,-Bdynamic
else
PMUCONV_LIBS := $(shell pkg-config --libs libdw 2>/dev/null || echo -ldw) \
	$(shell pkg-config --libs libelf 2>/dev/null || echo -lelf) -liberty -ljansson
PMUCONV_EXPORT_LIBS := $(shell pkg-config --libs libprotobuf-c 2>/dev/null || echo -lprotobuf-c) \
	$(shell pkg-config --libs zlib 2>/dev/null || echo -lz)
endif
PMUCONV_CFLAGS_ELF := $(shell pkg-config --cflags libelf 2>/dev/null)
EXTRA_CFLAGS_host_pmuconv_ += $(PMUCONV_CFLAGS_ELF) -Wa,-I$(CURDIR) -I$(abspath $(BUILD))/gen
# render_assets.c embeds the script and style sheets (.incbin)
$(BUILD)/obj/host/pmuconv/render_assets.o: $(wildcard host/pmuconv/*.js host/pmuconv/*.css)

BINS += $(PMUCONV)
MAN_PAGES += host/pmuconv/pmuconv.1

$(PMUCONV_PB).c $(PMUCONV_PB).h: host/pmuconv/profile.proto
	@mkdir -p $(BUILD)/gen
	@command -v protoc-c >/dev/null 2>&1 || { echo "pmuconv: protoc-c not found (apt-get" \
		"install protobuf-c-compiler libprotobuf-c-dev, or make deps)" >&2; exit 1; }
	protoc-c --c_out=$(BUILD)/gen host/pmuconv/profile.proto
# generated code: the project's warnings but not -Werror
$(BUILD)/gen-obj/profile.pb-c.o: $(PMUCONV_PB).c $(PMUCONV_PB).h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -std=gnu11 -I$(BUILD)/gen -c $< -o $@
$(BUILD)/obj/host/pmuconv/export_pprof.o: $(PMUCONV_PB).h

$(PMUCONV): $(PMUCONV_OBJS) $(PMUFILE_LIB)
	$(link)
$(PMUCONV): private LDLIBS := $(PMUCONV_LIBS) $(PMUCONV_EXPORT_LIBS)

.PHONY: pmuconv
pmuconv: $(PMUCONV)

# --version prints the file VERSION (PMUPROF_VERSION, top Makefile).
$(BUILD)/obj/host/pmuconv/main.o: VERSION
