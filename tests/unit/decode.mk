# Data-address sampling unit tests (issue 6): x86 decoder (+ binutils
# corpus), page walker, and the dataaddr glue. Owned by the decoder work.
#
# The corpus tests/data/decode/corpus.s is turned by gen-corpus.awk into an
# assembler file that lays out every instruction and a table of
# (offset, length, line, mode, text, expectation); binutils `as` assembles
# it here, so the expected bytes come from the assembler, not from us.

DECODE_CORPUS_GEN := $(BUILD)/tests/decode/corpus-gen.s
DECODE_CORPUS_OBJ := $(BUILD)/tests/decode/corpus.o
DECODE_PLAT_MEM := $(BUILD)/obj/tests/unit/platform_test_mem.o

$(DECODE_CORPUS_GEN): tests/data/decode/corpus.s tests/data/decode/gen-corpus.awk
	@mkdir -p $(dir $@)
	awk -f tests/data/decode/gen-corpus.awk $< > $@.tmp && mv $@.tmp $@

$(DECODE_CORPUS_OBJ): $(DECODE_CORPUS_GEN)
	as --64 --fatal-warnings $< -o $@

UNIT_TESTS += $(BUILD)/tests/unit/test_decode $(BUILD)/tests/unit/test_pagewalk \
	$(BUILD)/tests/unit/test_dataaddr
DECODER_OBJS := $(BUILD)/obj/kernel/nmi/x86_decode.o $(BUILD)/obj/kernel/nmi/x86_opcode_map.o
$(BUILD)/tests/unit/test_decode: $(DECODER_OBJS) $(DECODE_CORPUS_OBJ)
$(BUILD)/tests/unit/test_pagewalk: $(BUILD)/obj/kernel/nmi/pagewalk.o $(DECODE_PLAT_MEM)
$(BUILD)/tests/unit/test_dataaddr: $(BUILD)/obj/kernel/nmi/dataaddr.o $(DECODER_OBJS) \
	$(BUILD)/obj/kernel/nmi/pagewalk.o $(DECODE_PLAT_MEM)
