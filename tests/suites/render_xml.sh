#!/bin/sh
# pmuconv's graphical outputs, checked from the outside: the flamegraph SVG,
# the differential SVG, the page-size chart and the HTML page are parsed
# with xmllint (as XML, and the page also as HTML); frame counts, widths
# and percentages are compared with numbers computed here (awk) from the
# input; names holding <script>, quotes, ampersands, "]]>", control
# characters and bytes that are not UTF-8 must come out escaped so that a
# report cannot inject markup or script. Also: determinism, the diff colour
# direction, the 100k-unique-stack time budget, and the script's syntax
# and of the HTML page (node --check, skipped without node).
#
# Prints PASS/FAIL/SKIP lines; always exits 0.
BUILD=${BUILD:-build}
PMUCONV=$BUILD/bin/pmuconv
PMUGEN=$BUILD/bin/pmugen
TR=$BUILD/tests/unit/test_render
W=$BUILD/tests/render_xml
S=render_xml

pass() { echo "PASS: $S/$1"; }
fail() { echo "FAIL: $S/$1 ($2)"; }
unmet() { echo "FAIL: $S/$1 ($2)"; }

if ! command -v xmllint >/dev/null 2>&1; then
	unmet all "xmllint not installed (apt-get install libxml2-utils, or make deps)"
	exit 0
fi
for b in "$PMUCONV" "$TR"; do
	if [ ! -x "$b" ] && ! make -s "$b" >/dev/null 2>&1; then
		fail build "cannot build $b; run make $b"
		exit 0
	fi
done
rm -rf "$W"
mkdir -p "$W"

# XPath helpers (namespace-agnostic). FRAMES selects the flamegraph frames.
FRAMES='//*[local-name()="g"][contains(concat(" ",@class," ")," f ")]'
xp() { xmllint --xpath "$2" "$1" 2>/dev/null; }

# check_frames NAME SVG FOLDED [samples]: every prefix of the folded input
# is one frame whose data-v, percentage and width match the input.
check_frames() {
	name=$1
	svg=$2
	folded=$3
	# expected: one line per unique prefix "depth<TAB>leaf<TAB>value", plus the root
	awk '{
		n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		total += n
		k = split(line, f, ";"); p = ""
		for (i = 1; i <= k; i++) {
			p = p ";" f[i]
			if (!(p in v)) { leaf[p] = f[i]; dep[p] = i }
			v[p] += n
		}
	} END {
		printf "0\tall\t%d\n", total
		for (p in v) printf "%d\t%s\t%d\n", dep[p], leaf[p], v[p]
	}' "$folded" | LC_ALL=C sort >"$W/$name.expect"
	total=$(awk -F'\t' '$1 == 0 { print $3 }' "$W/$name.expect")
	want=$(wc -l <"$W/$name.expect")
	got=$(xp "$svg" "count($FRAMES)")
	if [ "$got" != "$want" ]; then
		fail "$name/frame_count" "$got frames, input has $want unique prefixes + root"
		return
	fi
	pass "$name/frame_count ($got frames)"
	ybase=$(xp "$svg" 'string(/*/@data-ybase)')
	fh=$(xp "$svg" 'string(/*/@data-fh)')
	fw=$(xp "$svg" 'string(/*/@data-fw)')
	pad=$(xp "$svg" 'string(/*/@data-pad)')
	: >"$W/$name.got"
	bad=""
	i=1
	while [ "$i" -le "$got" ]; do
		fr="($FRAMES)[$i]"
		title=$(xp "$svg" "string($fr/*[local-name()=\"title\"])")
		leafname=$(printf '%s\n' "$title" | head -n 1)
		v=$(xp "$svg" "string($fr/@data-v)")
		y=$(xp "$svg" "string($fr/*[local-name()=\"rect\"]/@y)")
		w=$(xp "$svg" "string($fr/*[local-name()=\"rect\"]/@width)")
		d=$(((ybase - y) / fh))
		printf '%s\t%s\t%s\n' "$d" "$leafname" "$v" >>"$W/$name.got"
		# the hover text's percentage and the width agree with the value
		pct=$(awk -v v="$v" -v t="$total" 'BEGIN { printf "%.2f%%", 100 * v / t }')
		case "$title" in
		*"($pct)"*) ;;
		*) bad="$bad; frame $i ($leafname): no ($pct) in its title" ;;
		esac
		ok=$(awk -v v="$v" -v t="$total" -v w="$w" -v fw="$fw" -v pad="$pad" \
			'BEGIN { e = v / t * (fw - 2 * pad); d = e - w; if (d < 0) d = -d; print (d <= 0.006) ? 1 : 0 }')
		[ "$ok" = 1 ] || bad="$bad; frame $i ($leafname): width $w for value $v of $total"
		i=$((i + 1))
	done
	LC_ALL=C sort "$W/$name.got" -o "$W/$name.got"
	if ! cmp -s "$W/$name.expect" "$W/$name.got"; then
		fail "$name/frame_values" "depth/name/value differ from the input: diff $W/$name.expect $W/$name.got"
	else
		pass "$name/frame_values"
	fi
	if [ -n "$bad" ]; then
		fail "$name/percentages_widths" "${bad#; }"
	else
		pass "$name/percentages_widths"
	fi
}

# well_formed NAME FILE
well_formed() {
	if err=$(xmllint --noout "$2" 2>&1); then
		pass "$1/xml_well_formed"
	else
		fail "$1/xml_well_formed" "$(printf '%s' "$err" | head -n 2 | tr '\n' ' ')"
	fi
}

# no_injection NAME FILE SCRIPTS: exactly SCRIPTS script elements (ours), no
# event-handler attributes, no external references, no raw control bytes.
no_injection() {
	n=$(xp "$2" 'count(//*[local-name()="script"])')
	on=$(xp "$2" 'count(//@*[starts-with(local-name(),"on")])')
	ext=$(xp "$2" 'count(//@src | //@*[local-name()="href"][not(starts-with(.,"#"))])')
	ctl=$(LC_ALL=C tr -d '\n\t' <"$2" | LC_ALL=C tr -dc '\000-\037\177' | wc -c)
	if [ "$n" = "$3" ] && [ "$on" = 0 ] && [ "$ext" = 0 ] && [ "$ctl" = 0 ]; then
		pass "$1/no_injection"
	else
		fail "$1/no_injection" "script elements $n (want $3), on* attributes $on, external refs $ext, raw control bytes $ctl"
	fi
}

# ---- 1. a known tree through the CLI ---------------------------------------
cat >"$W/tree.folded" <<'EOF'
main;parse;lex 30
main;parse;lex;next_char 12
main;parse;expr 20
main;eval;add 25
main;eval;mul 8
main;eval 5
main 4
other;main;parse 6
EOF
if "$PMUCONV" flamegraph -q --input-format folded --event-name cycles -o "$W/tree" \
	"$W/tree.folded" 2>"$W/tree.err"; then
	svg=$W/tree/cycles.svg
	well_formed tree "$svg"
	check_frames tree "$svg" "$W/tree.folded"
	no_injection tree "$svg" 1
	t=$(xp "$svg" 'string(//*[local-name()="svg"]/*[local-name()="title"])')
	case "$t" in
	*cycles*) pass "tree/title_names_event" ;;
	*) fail "tree/title_names_event" "document title is '$t'" ;;
	esac
	# determinism: a second run, and the input lines in reverse order
	"$PMUCONV" flamegraph -q --input-format folded --event-name cycles -o "$W/tree2" "$W/tree.folded"
	sort -r "$W/tree.folded" >"$W/tree_rev.folded"
	"$PMUCONV" flamegraph -q --input-format folded --event-name cycles -o "$W/tree3" "$W/tree_rev.folded"
	if cmp -s "$svg" "$W/tree2/cycles.svg" && cmp -s "$svg" "$W/tree3/cycles.svg"; then
		pass "tree/deterministic"
	else
		fail "tree/deterministic" "outputs differ between runs or input orders"
	fi
else
	fail tree/render "pmuconv flamegraph failed: $(head -n 1 "$W/tree.err")"
fi

# ---- 2. hostile names through the CLI ---------------------------------------
printf '%s\n' \
	'main;<script>alert("pwn")</script> 5' \
	"main;a&b'c\"d;]]>x 3" \
	"main;<img src=x onerror=alert(1)> 2" \
	"main;ctl$(printf '\001\033')[31m;bad$(printf '\377\300')utf 4" \
	'main;ok 10' >"$W/hostile.folded"
if "$PMUCONV" flamegraph -q --input-format folded --event-name 'ev<"&>' -o "$W/hostile" \
	"$W/hostile.folded" 2>"$W/hostile.err"; then
	svg=$(ls "$W"/hostile/*.svg | head -n 1)
	well_formed cli_hostile_svg "$svg"
	no_injection cli_hostile_svg "$svg" 1
	# the parsed (decoded) title text is the name itself, character for character
	nt=$(xp "$svg" "count($FRAMES[starts-with(*[local-name()=\"title\"],'<script>alert(\"pwn\")</script>')])")
	nq=$(xp "$svg" "count($FRAMES[starts-with(*[local-name()=\"title\"],concat('a&b',\"'\",'c\"d'))])")
	if [ "$nt" = 1 ] && [ "$nq" = 1 ]; then
		pass "cli_hostile_svg/names_kept_as_text"
	else
		fail "cli_hostile_svg/names_kept_as_text" "frames titled <script>...: $nt, a&b'c\"d: $nq (want 1 each)"
	fi
	nimg=$(xp "$svg" 'count(//*[local-name()="img"])')
	[ "$nimg" = 0 ] && pass "cli_hostile_svg/no_img_element" ||
		fail "cli_hostile_svg/no_img_element" "$nimg img elements"
else
	fail cli_hostile_svg/render "pmuconv flamegraph failed: $(head -n 1 "$W/hostile.err")"
fi
if "$PMUCONV" html -q --input-format folded --event-name 'ev<"&>' -o "$W/hostile.html" \
	"$W/hostile.folded" 2>"$W/hostile_html.err"; then
	well_formed cli_hostile_html "$W/hostile.html"
	no_injection cli_hostile_html "$W/hostile.html" 1
else
	fail cli_hostile_html/render "pmuconv html failed: $(head -n 1 "$W/hostile_html.err")"
fi

# ---- 3. raw control characters (straight from the renderers) ------------------
if "$TR" --emit "$W/emit" >"$W/emit.log" 2>&1; then
	for f in hostile.svg hostile_diff.svg pagesize.svg hostile.html; do
		n=emit_$(echo "$f" | tr . _)
		well_formed "$n" "$W/emit/$f"
		case $f in
		pagesize.svg) no_injection "$n" "$W/emit/$f" 0 ;;
		*) no_injection "$n" "$W/emit/$f" 1 ;;
		esac
	done
	if grep -q 'x01\\x1B\]\]&gt;\\xFF' "$W/emit/hostile.svg"; then
		pass "emit_hostile_svg/controls_visible_escaped"
	else
		fail "emit_hostile_svg/controls_visible_escaped" "control bytes not shown as \\xNN"
	fi
else
	fail emit "$TR --emit failed: $(head -n 1 "$W/emit.log")"
fi

# html_ok NAME FILE: HTML parse; libxml2's HTML4 parser does not know HTML5
# and SVG element names, so only "Tag ... invalid" is tolerated.
html_ok() {
	xmllint --html --noout "$2" >"$W/$1.htmlerr" 2>&1
	other=$(grep 'parser error' "$W/$1.htmlerr" | grep -vc 'Tag [a-zA-Z]* invalid')
	if [ "$other" = 0 ]; then
		pass "$1/html_parses"
	else
		fail "$1/html_parses" "$(grep 'parser error' "$W/$1.htmlerr" | grep -v 'Tag [a-zA-Z]* invalid' | head -n 1)"
	fi
}

# ---- 4. HTML page and page-size chart from a pmuprof recording ------------------
if [ -x "$PMUGEN" ] || make -s "$PMUGEN" >/dev/null 2>&1; then
	"$PMUGEN" -o "$W/rec.pmu" -n 4000 -e 2 -S 300 -d 12 -a -s 7 >/dev/null 2>&1
	if "$PMUCONV" html -q "$W/rec.pmu" -o "$W/rec.html" 2>"$W/rec.err"; then
		well_formed html "$W/rec.html"
		html_ok html "$W/rec.html"
		no_injection html "$W/rec.html" 1
		nev=$(xp "$W/rec.html" 'count(//*[local-name()="section"][@class="event"])')
		nfg=$(xp "$W/rec.html" 'count(//*[local-name()="svg"][@class="pmuflame"])')
		nps=$(xp "$W/rec.html" 'count(//*[local-name()="svg"][@class="pmupages"])')
		ntab=$(xp "$W/rec.html" 'count(//*[local-name()="h3"][starts-with(.,"Top functions by")])')
		if [ "$nev" = 2 ] && [ "$nfg" = 2 ] && [ "$nps" = 1 ] && [ "$ntab" = 4 ]; then
			pass "html/sections (2 events, 2 flamegraphs, 4 top tables, 1 page-size chart)"
		else
			fail "html/sections" "events $nev, flamegraphs $nfg, top tables $ntab, page-size charts $nps"
		fi
		# each embedded flamegraph's root equals that event's total in `report`
		"$PMUCONV" report -q "$W/rec.pmu" >"$W/rec.report" 2>&1
		ok=1
		for k in 1 2; do
			tot=$(xp "$W/rec.html" "string((//*[local-name()=\"svg\"][@class=\"pmuflame\"])[$k]/@data-total)")
			ev=$(xp "$W/rec.html" "string((//*[local-name()=\"section\"][@class=\"event\"])[$k]/*[local-name()=\"h2\"])")
			ev=${ev#Event }
			samples=$(grep -E "^== event $ev: " "$W/rec.report" | sed -E 's/.*: ([0-9]+) samples.*/\1/')
			root=$(xp "$W/rec.html" "string((//*[local-name()=\"svg\"][@class=\"pmuflame\"])[$k]//*[local-name()=\"g\"][contains(@class,\"f r\")]/*[local-name()=\"title\"])")
			case "$root" in
			*"$(printf '%s' "$samples" | awk '{ n = $1; s = ""; while (n >= 1000) { s = sprintf(",%03d", n % 1000) s; n = int(n / 1000) } print n s }') samples (100.00%)"*) ;;
			*) ok=0 ;;
			esac
			[ -n "$tot" ] && [ "$tot" -gt 0 ] || ok=0
		done
		[ "$ok" = 1 ] && pass "html/flamegraph_totals_match_report" ||
			fail "html/flamegraph_totals_match_report" "root frame samples differ from pmuconv report"
	else
		fail html/render "pmuconv html failed: $(head -n 1 "$W/rec.err")"
	fi
	if "$PMUCONV" pagesize -q "$W/rec.pmu" --svg "$W/pages.svg" >"$W/pages.txt" 2>&1; then
		well_formed pagesize "$W/pages.svg"
		no_injection pagesize "$W/pages.svg" 0
		# text output: "  4K  samples share weight share" under "Data page size"
		bad=""
		# one block per (event, view): "== event EV, user-mode samples: ..."
		for key in $(sed -n -E 's/^== event ([^,]*), ([a-z]+)-mode samples:.*/\1@\2/p' "$W/pages.txt"); do
			ev=${key%@*} view=${key#*@}
			for pg in 4K 2M 1G unknown; do
				want=$(awk -v key="$ev, $view-mode samples:" -v pg="$pg" '
					/^== event / { cur = index($0, "== event " key) == 1; sect = "" }
					/^Data page size/ { sect = "data" }
					/^Code page size/ { sect = "code" }
					cur && sect == "data" && $1 == pg { v = $NF; sub(/%$/, "", v); print v; exit }' "$W/pages.txt")
				got=$(xp "$W/pages.svg" "string(//*[@data-event=\"$ev\"][@data-view=\"$view\"]//*[@data-kind=\"data\"][@data-page=\"$pg\"]/@data-pct)")
				[ -n "$want" ] || want=0.00
				[ -n "$got" ] || got=0.00
				[ "$want" = "$got" ] || bad="$bad $ev/$view/$pg: text $want% chart $got%;"
			done
		done
		if [ -z "$bad" ] && grep -q '^== event ' "$W/pages.txt"; then
			pass "pagesize/chart_matches_text_report"
		else
			fail "pagesize/chart_matches_text_report" "${bad:-no events in the text report}"
		fi
	else
		fail pagesize/render "pmuconv pagesize --svg failed: $(head -n 1 "$W/pages.txt")"
	fi
else
	unmet html "pmugen not built"
fi

# ---- 5. differential flamegraph -------------------------------------------------
printf 'main;grows 40\nmain;shrinks 40\nmain;same 20\n' >"$W/before.folded"
printf 'main;grows 140\nmain;shrinks 20\nmain;same 40\n' >"$W/after.folded"
if "$PMUCONV" diff -q --input-format folded "$W/before.folded" "$W/after.folded" \
	--svg "$W/diff.svg" >"$W/diff.txt" 2>&1; then
	well_formed diff "$W/diff.svg"
	no_injection diff "$W/diff.svg" 1
	fill() { xp "$W/diff.svg" "string($FRAMES[starts-with(*[local-name()=\"title\"],\"$1\")]/*[local-name()=\"rect\"]/@fill)"; }
	g=$(fill grows)
	s=$(fill shrinks)
	m=$(fill same)
	case "$g|$s|$m" in
	"rgb(255,"*"|rgb("*",255)|rgb(250,250,250)")
		pass "diff/colour_direction (grew $g, shrank $s, same share $m)" ;;
	*) fail "diff/colour_direction" "grows $g, shrinks $s, same $m" ;;
	esac
	wv=$(xp "$W/diff.svg" "string($FRAMES[starts-with(*[local-name()=\"title\"],\"grows\")]/@data-v)")
	[ "$wv" = 140 ] && pass "diff/widths_from_after" || fail "diff/widths_from_after" "grows has $wv, want 140"
else
	fail diff/render "pmuconv diff --svg failed: $(head -n 1 "$W/diff.txt")"
fi

# ---- 6. 100k unique stacks: time and size ------------------------------------------
awk 'BEGIN {
	s = 12345
	for (i = 0; i < 100000; i++) {
		line = "proc" (i % 4) ";main"
		for (d = 0; d < 30; d++) {
			s = (s * 1103515245 + 12345) % 2147483648
			fan = d < 3 ? 4 : (d < 8 ? 16 : 64)
			line = line ";f" d "_" int(s / 65536) % fan
		}
		print line, 1 + i % 50
	}
}' >"$W/big.folded"
t0=$(date +%s%N)
if "$PMUCONV" flamegraph -q --input-format folded --event-name big -o "$W/big" "$W/big.folded" \
	2>"$W/big.err"; then
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	size=$(wc -c <"$W/big/big.svg")
	el=$(xp "$W/big/big.svg" 'string(/*/@data-elided)')
	if [ "$ms" -lt 5000 ] && [ "$size" -lt 41943040 ] && [ "${el:-0}" -gt 0 ]; then
		pass "big/100k_stacks (${ms} ms with parsing, $size bytes, $el frames elided)"
	else
		fail "big/100k_stacks" "${ms} ms, $size bytes, $el elided (budget 5000 ms, 40 MiB)"
	fi
	well_formed big "$W/big/big.svg"
else
	fail big/render "pmuconv flamegraph failed: $(head -n 1 "$W/big.err")"
fi

# ---- 7. the script parses ------------------------------------------------------------
# js_check NAME DOC OUT: DOC's inline script (an SVG's or an HTML page's) into
# OUT, checked by node --check
js_check() {
	if command -v node >/dev/null 2>&1 && [ -f "$2" ]; then
		xp "$2" 'string(//*[local-name()="script"])' >"$3"
		if err=$(node --check "$3" 2>&1); then
			pass "$1"
		else
			fail "$1" "$(printf '%s' "$err" | head -n 3 | tr '\n' ' ')"
		fi
	else
		unmet "$1" "node not installed"
	fi
}
js_check script/syntax "$W/tree/cycles.svg" "$W/flame.js"
# the HTML page's script: flame.js followed by report.js
js_check script/html_page_syntax "$W/rec.html" "$W/page.js"
exit 0
