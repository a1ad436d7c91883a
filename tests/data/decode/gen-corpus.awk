# Turn corpus.s (one instruction per line, each with "#= expectation") into
# an assembler file that lays the instructions out back to back and builds
# a table the unit test reads (tests/unit/test_decode.c, struct corpus_case):
#   .long code offset, length, source line, mode (64/32), insn text offset,
#         expectation offset
# Usage: awk -f gen-corpus.awk corpus.s > corpus-gen.s
# Lines: blank or "#..." comments are skipped; ".code32"/".code64" switch
# the mode; anything else must carry "#=" (the build fails otherwise).
function esc(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return s
}
BEGIN {
	n = 0
	mode = 64
	print "\t.section .rodata.pp_corpus_code,\"a\""
	print "\t.globl pp_corpus_code"
	print "pp_corpus_code:"
	print "\t.section .rodata.pp_corpus_tab,\"a\""
	print "\t.balign 4"
	print "\t.globl pp_corpus_tab"
	print "pp_corpus_tab:"
	print "\t.section .rodata.pp_corpus_str,\"a\""
	print "\t.globl pp_corpus_str"
	print "pp_corpus_str:"
	print "\t.section .rodata.pp_corpus_code,\"a\""
	print "\t.code64"
}
{
	line = $0
	sub(/^[ \t]+/, "", line)
	if (line == "" || line ~ /^#/ && line !~ /^#=/)
		next
	if (line ~ /^\.code32/) { mode = 32; print "\t.code32"; next }
	if (line ~ /^\.code64/) { mode = 64; print "\t.code64"; next }
	p = index(line, "#=")
	if (p == 0) {
		printf "corpus.s:%d: no \"#=\" expectation: %s\n", NR, $0 > "/dev/stderr"
		err = 1
		exit 1
	}
	insn = substr(line, 1, p - 1)
	expect = substr(line, p + 2)
	sub(/[ \t]+$/, "", insn)
	sub(/^[ \t]+/, "", expect)
	sub(/[ \t]+$/, "", expect)
	printf ".Lc%d:\t%s\n.Le%d:\n", n, insn, n
	print "\t.pushsection .rodata.pp_corpus_tab,\"a\""
	printf "\t.long .Lc%d - pp_corpus_code, .Le%d - .Lc%d, %d, %d, .Ls%d - pp_corpus_str, .Lx%d - pp_corpus_str\n", n, n, n, NR, mode, n, n
	print "\t.popsection"
	print "\t.pushsection .rodata.pp_corpus_str,\"a\""
	printf ".Ls%d:\t.asciz \"%s\"\n.Lx%d:\t.asciz \"%s\"\n", n, esc(insn), n, esc(expect)
	print "\t.popsection"
	n++
}
END {
	if (err)
		exit 1
	print "\t.section .rodata.pp_corpus_tab,\"a\""
	print "\t.balign 4"
	print "\t.globl pp_corpus_count"
	print "pp_corpus_count:"
	printf "\t.long %d\n", n
	print "\t.section .note.GNU-stack,\"\",@progbits"
}
