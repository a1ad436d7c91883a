#!/bin/sh
# check-nokprobe.sh [MODULE.ko [ROOT]]: every function of the module that the
# NMI handler ROOT (pp_nmi_handler) can reach must be in its kprobe blacklist
# (NOKPROBE_SYMBOL, PP_NOKPROBE in portable code). A kprobe inside the NMI path
# would trap inside the NMI. Exit 1 with the call chain of each one missing.
#
# Read from the built module, so it sees what the compiler kept out of line:
# edges are direct calls and jumps (objdump -d) and relocations inside a
# function (objdump -r), followed through the module's data objects (so a
# const ops table passed to the handler brings its callbacks in). Functions
# outside the module (the kernel's) are not ours to mark. Compiler clones
# (foo.constprop.0, foo.isra.0, foo.part.0, foo.cold) count as marked when foo
# is, since the source can only mark foo. VERBOSE=1 lists every function reached.
set -eu
KO=${1:-kernel/pmuprof.ko}
ROOT=${2:-pp_nmi_handler}
[ -f "$KO" ] || { echo "check-nokprobe: $KO not built (make module)" >&2; exit 2; }
{
	objdump -t "$KO" | awk '{ f = substr($0, 18, 7); split($0, p, "\t"); nf = split(p[1], a, " ");
		split(p[2], b, " "); if (f ~ /[FO]/) print "S", a[1], a[nf], b[1], b[2], (f ~ /F/ ? "F" : "O") }'
	objdump -r "$KO" | awk '/^RELOCATION RECORDS FOR/ { s = $4; gsub(/[\[\]:]/, "", s); next }
		NF == 3 && $1 ~ /^[0-9a-f]+$/ { print "R", s, $1, $2, $3 }'
	objdump -d "$KO" | awk '/^Disassembly of section/ { s = $4; sub(/:$/, "", s); next }
		/^[0-9a-f]+ <.*>:$/ { next }
		/\t(call|jmp|j[a-z]+) +[0-9a-f]+ <[^+>]+>$/ {
			split($0, p, "\t"); if (p[2] ~ /^(e8|e9) 00 00 00 00/) next
			a = $1; sub(/:$/, "", a); t = $NF; gsub(/[<>]/, "", t); print "D", s, a, t }'
} | awk -v root="$ROOT" -v verbose="${VERBOSE:-0}" '
function hex(h,   i, n, c) { n = 0; h = tolower(h); sub(/^0x/, "", h)
	for (i = 1; i <= length(h); i++) { c = index("0123456789abcdef", substr(h, i, 1)) - 1; n = n * 16 + c }
	return n }
# symbol of section s containing offset o ("" if none)
function at(s, o,   i) { for (i = 1; i <= ns; i++)
		if (ssec[i] == s && o >= sval[i] && o < sval[i] + ssz[i]) return sname[i]
	return "" }
function target(t, ty,   m, s, o) {
	if (t !~ /^\./) { sub(/[+-]0x[0-9a-f]+$/, "", t); return t }
	s = t; o = 0
	if (match(t, /[+-]0x[0-9a-f]+$/)) { s = substr(t, 1, RSTART - 1); o = hex(substr(t, RSTART + 1)) }
	if (substr(t, RSTART, 1) == "-") o = -o
	if (ty ~ /PC32|PLT32/) o += 4
	return at(s, o) }
function base(n) { sub(/\.(constprop|isra|part|cold|localalias)(\.[0-9]+)?.*$/, "", n); return n }
$1 == "S" { ns++; sval[ns] = hex($2); ssec[ns] = $3; ssz[ns] = hex($4); sname[ns] = $5; kind[$5] = $6; next }
$1 == "R" { nr++; rsec[nr] = $2; roff[nr] = hex($3); rty[nr] = $4; rtg[nr] = $5; next }
$1 == "D" { nd++; dsec[nd] = $2; doff[nd] = hex($3); dtg[nd] = $4; next }
END {
	for (i = 1; i <= nr; i++) {
		t = target(rtg[i], rty[i])
		if (rsec[i] == "_kprobe_blacklist") { if (t != "") marked[t] = 1; continue }
		f = at(rsec[i], roff[i])
		if (f != "" && t != "" && t != f && t in kind) edges[f] = edges[f] " " t
	}
	for (i = 1; i <= nd; i++) {
		f = at(dsec[i], doff[i])
		if (f != "" && dtg[i] != f && dtg[i] in kind) edges[f] = edges[f] " " dtg[i]
	}
	if (!(root in kind)) { print "check-nokprobe: no function " root " in the module" > "/dev/stderr"; exit 2 }
	q[1] = root; seen[root] = 1; n = 1
	for (h = 1; h <= n; h++) {
		k = split(edges[q[h]], e, " ")
		for (j = 1; j <= k; j++) if (!(e[j] in seen)) { seen[e[j]] = 1; from[e[j]] = q[h]; q[++n] = e[j] }
	}
	bad = 0; nf = 0
	for (h = 1; h <= n; h++) {
		f = q[h]; if (kind[f] != "F") continue
		nf++
		if (verbose) print "check-nokprobe: reachable: " f (f in marked || base(f) in marked ? "" : " (NOT MARKED)")
		if (f in marked || base(f) in marked) continue
		p = f; for (c = from[f]; c != ""; c = from[c]) p = c " -> " p
		print "check-nokprobe: " f " is reachable from NMI context but not marked PP_NOKPROBE/NOKPROBE_SYMBOL: " p
		bad++
	}
	if (bad) exit 1
	printf "check-nokprobe: %d functions reachable from %s, all in the kprobe blacklist\n", nf, root
}'
