#!/bin/sh
# bench/report.sh HOST_KV VM_KV OUTDIR: turn the raw results of bench/run.sh
# into OUTDIR/results.txt (aligned table), results.md (Markdown) and
# results.json. Plain sh + awk (no python on a fresh Debian).
#
# Input: lines "KIND key=value ... [reason: text | label: text]" (see
# bench/run.sh and bench/vm/guestlib.sh). Statistics: min/median/max over
# the repetitions of each measurement; slowdowns compare medians.
set -u
[ $# -eq 3 ] || {
	echo "usage: bench/report.sh HOST_KV VM_KV OUTDIR" >&2
	exit 2
}
mkdir -p "$3" || exit 1
awk -v OUTDIR="$3" '
function parse(line,    n, i, t, p) {
	delete F
	F["_text"] = ""
	p = index(line, " reason: ")
	if (p) { F["_text"] = substr(line, p + 9); line = substr(line, 1, p - 1) }
	p = index(line, " label: ")
	if (p) { F["_text"] = substr(line, p + 8); line = substr(line, 1, p - 1) }
	n = split(line, t, " ")
	F["_kind"] = t[1]
	for (i = 2; i <= n; i++) {
		p = index(t[i], "=")
		if (p) F[substr(t[i], 1, p - 1)] = substr(t[i], p + 1)
	}
}
# sorted list helpers on "v1 v2 v3" strings
function sortlist(s, a,    n, i, j, x) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) {
		x = a[i] + 0
		for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]
		a[j + 1] = x
	}
	return n
}
function med(s,    a, n) { n = sortlist(s, a); if (!n) return ""; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function mn(s,    a, n) { n = sortlist(s, a); return n ? a[1] : "" }
function mx(s,    a, n) { n = sortlist(s, a); return n ? a[n] : "" }
function cnt(s,    a) { return s == "" ? 0 : split(s, a, " ") }
function add(arr, k, v) { arr[k] = (k in arr) ? arr[k] " " v : v }
function f3(x) { return x == "" ? "-" : sprintf("%.3f", x) }
function mmm(s) { return cnt(s) ? sprintf("%s (%s-%s)", f3(med(s)), f3(mn(s)), f3(mx(s))) : "-" }
function pct(x) { return sprintf("%+.1f %%", x * 100) }
function pctr(s) { return cnt(s) > 1 ? sprintf("%+.1f %% (%+.0f..%+.0f)", med(s) * 100, mn(s) * 100, mx(s) * 100) : pct(med(s)) }
function big(x) { return x >= 1e6 ? sprintf("%.2f M", x / 1e6) : (x >= 1e4 ? sprintf("%.1f k", x / 1e3) : sprintf("%.0f", x)) }
function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return "\"" s "\"" }
# JSON number, or null for none and for what JSON cannot hold (inf, nan)
function jnum(x) { if (x == "") return "null"; x += 0; return (x == x && x != x + 1) ? x : "null" }
function hz(x) { return x % 1000 == 0 ? (x / 1000) " kHz" : x " Hz" }

# ---- table model
function section(id, title) { NS++; S_ID[NS] = id; S_TITLE[NS] = title; S_NCOL[NS] = 0; S_NROW[NS] = 0; S_NNOTE[NS] = 0 }
function col(name) { S_NCOL[NS]++; S_HEAD[NS, S_NCOL[NS]] = name }
function row(json,    i) { S_NROW[NS]++; S_JSON[NS, S_NROW[NS]] = json; for (i = 1; i <= S_NCOL[NS]; i++) S_CELL[NS, S_NROW[NS], i] = "" }
function cell(c, v) { S_CELL[NS, S_NROW[NS], c] = v }
function note(t) { S_NNOTE[NS]++; S_NOTE[NS, S_NNOTE[NS]] = t }
function narow(text,    i) { row("{\"not_available\": " jstr(text) "}"); cell(1, "not available: " text); S_SPAN[NS, S_NROW[NS]] = 1 }

{ parse($0); k = F["_kind"] }
k == "meta" { for (x in F) META[x] = F[x] }
k == "meta_text" { mt = substr($0, length("meta_text ") + 1); p = index(mt, ": "); MT[substr(mt, 1, p - 1)] = substr(mt, p + 2) }
k == "meta_vm" { for (x in F) VMMETA[x] = F[x] }
k == "meta_end" { TOTAL_S = F["seconds"] }
k == "env" { for (x in F) ENVV[x] = F[x] }
k == "calib" { for (x in F) CAL[x] = F[x] }
k == "vmfail" { VMFAIL[F["what"]] = F["_text"] }
k == "vmrun" { VMRUN[F["scenario"]] = F["seconds"] }
k == "run" && F["ok"] == 1 {
	key = F["tool"] == "base" ? "base" : F["tool"] SUBSEP F["rate"]
	add(RUNT, key, F["work_s"])
	PAIR[F["tool"], F["rate"], F["rep"]] = F["work_s"]; if (F["rep"] > MAXREP) MAXREP = F["rep"]
	if (F["tool"] != "base" && F["samples"] ~ /^[0-9]+$/ && F["work_s"] > 0) { add(RUNR, key, F["samples"] / F["work_s"]); add(RUNN, key, F["samples"]) }
	if (F["tool"] == "pmuprof" && F["lost"] ~ /^[0-9]+$/) RUNLOST[F["rate"]] += F["lost"]
	if (F["tool"] == "perf" && F["max_rate_after"] != "") add(PERFMAX, F["rate"], F["max_rate_after"])
}
k == "run" && F["ok"] != 1 { RUNFAIL[F["tool"] SUBSEP F["rate"]]++ }
k == "slowdown" && F["na"] == 1 { SLNA[F["what"]] = F["_text"] }
k == "qthreads" {
	qk = F["tool"] == "base" ? "base" : F["tool"] SUBSEP F["rate"]
	QT[qk] = 1; add(QWALL, qk, F["wall_s"])
	for (x in F) if (x ~ /^(cpu[0-9]+|main)_(s|waits)$/) add(QV, qk SUBSEP x, F[x])
	QPAIR[F["tool"], F["rate"], F["rep"]] = 1
	for (x in F) if (x ~ /^cpu[0-9]+_s$/) QPS[F["tool"], F["rate"], F["rep"], x] = F[x]
}
k == "handler" && F["na"] == 1 { HNA[F["what"]] = F["_text"] }
k == "handler" && F["na"] != 1 { H_SAMPLES[F["what"]] = F["samples"]; H_LOST[F["what"]] = F["lost"]; H_HZ = F["hz"]; H_S = F["seconds"] }
k == "hstats" { w = F["what"]; HS[w] = 1; for (x in F) HST[w, x] = F[x] }
k == "lost" && F["na"] == 1 { LNA = (LNA == "" ? "" : LNA "; ") F["_text"] }
k == "lost" && F["na"] != 1 { NL++; for (x in F) L[NL, x] = F[x] }
k == "lostsum" { for (x in F) LS[x] = F[x] }
k == "ring" && F["na"] == 1 { RNA = F["_text"] }
k == "ring" && F["na"] != 1 { NR_++; RLAB[NR_] = F["_text"]; RVAL[NR_] = F["value"]; gsub(/_/, " ", RVAL[NR_]) }
k == "ringhead" { RHEAD = substr($0, length("ringhead ") + 1) }
k == "conv" && F["na"] == 1 { CNA[F["what"]] = F["_text"] }
k == "conv" && F["na"] != 1 {
	w = F["what"]; CV[w] = 1
	add(CW, w, F["wall_s"]); add(CR, w, F["maxrss_kb"]); add(CC, w, F["user_s"] + F["sys_s"]); CS[w] = F["samples"]; CB[w] = F["bytes"]; CK[w] = F["stacks"]
}

END {
	accel = VMMETA["accel"] != "" ? VMMETA["accel"] : ENVV["accel"]
	emul = accel == "tcg" ? "TCG software emulation" : (accel == "kvm" ? "KVM" : "no VM")
	vmtag = accel == "tcg" ? "guest, QEMU TCG emulation" : "guest, " emul

	# ---------------------------------------------------------------- (1)
	section("slowdown", "(1) Workload slowdown: benchwork (" (ENVV["depth"] != "" ? ENVV["depth"] : 24) " nested frames, fixed work) pinned to one guest CPU, cpu-clock with call stacks [" vmtag "]")
	col("rate"); col("unprofiled s, median (min-max)"); col("perf s"); col("pmuprof s")
	col("perf slowdown"); col("pmuprof slowdown"); col("pmuprof/perf time"); col("overhead ratio pmuprof/perf")
	col("perf samples/s"); col("pmuprof samples/s"); col("cost/sample us perf / pmuprof"); col("runs base/perf/pmuprof")
	if ("slowdown" in VMFAIL) narow(VMFAIL["slowdown"])
	else if (!cnt(RUNT["base"])) narow("no unprofiled run completed (see out/bench/raw/vm-slowdown.log)")
	else {
		nr = split(ENVV["rates"], rates, ",")
		b = med(RUNT["base"])
		for (i = 1; i <= nr; i++) {
			r = rates[i]; kp = "perf" SUBSEP r; kq = "pmuprof" SUBSEP r
			tp = med(RUNT[kp]); tq = med(RUNT[kq])
			cp_ = (tp != "" && med(RUNN[kp]) > 0) ? (tp - b) / med(RUNN[kp]) * 1e6 : ""
			cq_ = (tq != "" && med(RUNN[kq]) > 0) ? (tq - b) / med(RUNN[kq]) * 1e6 : ""
			# Paired ratios: each profiled run against the unprofiled run of
			# the same repetition and rate (run next to it), so slow drift of
			# a shared host cancels out; medians of those.
			sp = ""; sq = ""; sr = ""
			for (rp = 1; rp <= MAXREP; rp++) {
				bb = PAIR["base", r, rp]; pp = PAIR["perf", r, rp]; qq = PAIR["pmuprof", r, rp]
				if (bb > 0 && pp > 0) sp = sp " " (pp / bb - 1)
				if (bb > 0 && qq > 0) sq = sq " " (qq / bb - 1)
				if (pp > 0 && qq > 0) sr = sr " " (qq / pp)
			}
			row("{\"rate_hz\": " r ", \"unprofiled_s\": {\"min\": " jnum(mn(RUNT["base"])) ", \"median\": " jnum(b) ", \"max\": " jnum(mx(RUNT["base"])) "}" \
			    ", \"perf_s\": {\"min\": " jnum(mn(RUNT[kp])) ", \"median\": " jnum(tp) ", \"max\": " jnum(mx(RUNT[kp])) "}" \
			    ", \"pmuprof_s\": {\"min\": " jnum(mn(RUNT[kq])) ", \"median\": " jnum(tq) ", \"max\": " jnum(mx(RUNT[kq])) "}" \
			    ", \"perf_overhead_paired\": {\"min\": " jnum(mn(sp)) ", \"median\": " jnum(med(sp)) ", \"max\": " jnum(mx(sp)) "}" \
			    ", \"pmuprof_overhead_paired\": {\"min\": " jnum(mn(sq)) ", \"median\": " jnum(med(sq)) ", \"max\": " jnum(mx(sq)) "}" \
			    ", \"pmuprof_over_perf_paired\": {\"min\": " jnum(mn(sr)) ", \"median\": " jnum(med(sr)) ", \"max\": " jnum(mx(sr)) "}" \
			    ", \"perf_overhead_of_medians\": " (tp != "" ? tp / b - 1 : "null") ", \"pmuprof_overhead_of_medians\": " (tq != "" ? tq / b - 1 : "null") \
			    ", \"perf_samples_per_s\": " jnum(med(RUNR[kp])) ", \"pmuprof_samples_per_s\": " jnum(med(RUNR[kq])) \
			    ", \"perf_max_sample_rate_after\": " jnum(mn(PERFMAX[r])) ", \"pmuprof_lost\": " jnum(RUNLOST[r]) \
			    ", \"perf_cost_per_sample_us\": " jnum(cp_) ", \"pmuprof_cost_per_sample_us\": " jnum(cq_) \
			    ", \"samples_median\": {\"perf\": " jnum(med(RUNN[kp])) ", \"pmuprof\": " jnum(med(RUNN[kq])) "}" \
			    ", \"runs\": {\"base\": " cnt(RUNT["base"]) ", \"perf\": " cnt(RUNT[kp]) ", \"pmuprof\": " cnt(RUNT[kq]) "}}")
			cell(1, hz(r)); cell(2, mmm(RUNT["base"]))
			cell(3, "perf" in SLNA ? "not available: " SLNA["perf"] : mmm(RUNT[kp]))
			cell(4, "pmuprof" in SLNA ? "not available: " SLNA["pmuprof"] : mmm(RUNT[kq]))
			cell(5, cnt(sp) ? pctr(sp) : "-"); cell(6, cnt(sq) ? pctr(sq) : "-")
			cell(7, cnt(sr) ? sprintf("%.2fx", med(sr)) (cnt(sr) > 1 ? sprintf(" (%.2f-%.2f)", mn(sr), mx(sr)) : "") : "-")
			cell(8, tp != "" && tq != "" && tp - b > 0 ? sprintf("%.2f", (tq - b) / (tp - b)) : "-")
			cell(9, cnt(RUNR[kp]) ? sprintf("%.0f", med(RUNR[kp])) : "-")
			cell(10, cnt(RUNR[kq]) ? sprintf("%.0f", med(RUNR[kq])) : "-")
			cell(11, (cp_ != "" ? sprintf("%.0f", cp_) : "-") " / " (cq_ != "" ? sprintf("%.0f", cq_) : "-"))
			cell(12, cnt(RUNT["base"]) "/" cnt(RUNT[kp]) "/" cnt(RUNT[kq]))
			if (RUNFAIL["perf" SUBSEP r] + RUNFAIL["pmuprof" SUBSEP r]) note("at " hz(r) ": " (RUNFAIL["perf" SUBSEP r] + 0) " perf and " (RUNFAIL["pmuprof" SUBSEP r] + 0) " pmuprof runs failed (see out/bench/raw/vm/bench_slowdown/scenario.log)")
			if (RUNLOST[r] > 0) note("pmuprof lost " RUNLOST[r] " samples in the " hz(r) " runs")
			if (mn(PERFMAX[r]) != "" && mn(PERFMAX[r]) < r) note("at " hz(r) " the kernel lowered perf_event_max_sample_rate to " mn(PERFMAX[r]) " during perf runs (perf: interrupts took too long), so perf sampled less than asked; see perf samples/s")
		}
		note("slowdown = median over repetitions of (profiled / unprofiled - 1), each profiled run paired with the unprofiled run of the same repetition and rate (run next to it, order alternating), with (min..max); pmuprof/perf time = median of the paired pmuprof / perf times")
		note("unprofiled column: all " cnt(RUNT["base"]) " unprofiled runs pooled; overhead ratio = (median pmuprof - median unprofiled) / (median perf - median unprofiled); cost/sample = (median profiled - median unprofiled) / median samples per run: workload time lost per sample taken, which corrects for the two tools reaching different sampling rates")
		note("times are the workload'\''s own wall time (CLOCK_MONOTONIC, first to last round; tool start-up and file finishing excluded); samples/s = samples the tool reported / workload seconds")
		note("perf: perf record -e cpu-clock -g -F HZ -o /tmp/perf.data -- benchwork (" (ENVV["perf"] != "" ? "perf " ENVV["perf"] : "perf") ", kernel defaults reset before each perf run); pmuprof: pmuctl record -e cpu-clock -F HZ -g -o /tmp/pp.pmu -- benchwork; files on tmpfs")
		if (accel == "tcg") note("TCG: the guest has no PMU; perf cpu-clock is a software hrtimer event on the workload CPU; pmuprof cpu-clock is its NMI-IPI source: an hrtimer on CPU 0 (which samples CPU 0 itself from that interrupt) sends the workload CPU one NMI per sample. Emulation makes every interrupt and the handlers far more expensive than on hardware: read these as relative figures only")
	}

	# ---------------------------------------------------------------- (1b)
	# The host view of the same runs (bench/tools/qemu_threads.sh): how much
	# CPU the emulator gave each guest CPU and how often the workload'\''s
	# CPU blocked, which the guest'\''s own clock cannot separate.
	section("qthreads", "(1b) The same runs seen from the host: QEMU threads during the workload'\''s timed work [host view of the " (accel == "tcg" ? "TCG " : "") "emulator]")
	col("tool @ rate"); col("runs"); col("window s"); col("workload vCPU host CPU s"); col("vs unprofiled")
	col("workload vCPU on-CPU %"); col("workload vCPU blocked /s"); col("other vCPU %"); col("main loop %")
	wc = CAL["cpu"] != "" ? CAL["cpu"] : 1; oc = wc == 0 ? 1 : 0
	wk = "cpu" wc "_s"; ok_ = "cpu" oc "_s"
	if (!("base" in QT)) narow("no host thread figures (see out/bench/raw/qthreads.err; needs the harness'\''s -name debug-threads=on)")
	else {
		nr = split(ENVV["rates"], rates, ",")
		nq = 0; QROW[++nq] = "base"
		for (i = 1; i <= nr; i++) { QROW[++nq] = "perf" SUBSEP rates[i]; QROW[++nq] = "pmuprof" SUBSEP rates[i] }
		for (j = 1; j <= nq; j++) {
			qk = QROW[j]
			if (!(qk in QT)) continue
			split(qk, parts, SUBSEP)
			label = qk == "base" ? "unprofiled" : parts[1] " @ " hz(parts[2])
			# paired: workload vCPU CPU s of each profiled run / the
			# unprofiled run of the same repetition and rate
			pr = ""
			if (qk != "base") for (rp = 1; rp <= MAXREP; rp++) {
				bq = QPS["base", parts[2], rp, wk]; pq = QPS[parts[1], parts[2], rp, wk]
				if (bq + 0 > 0 && pq + 0 > 0) pr = pr " " (pq / bq - 1) # numeric, not string, >
			}
			wall = med(QWALL[qk]); wcpu = med(QV[qk SUBSEP wk]); ocpu = med(QV[qk SUBSEP ok_])
			mcpu = med(QV[qk SUBSEP "main_s"]); wwait = med(QV[qk SUBSEP "cpu" wc "_waits"])
			row("{\"what\": " jstr(label) ", \"runs\": " cnt(QWALL[qk]) ", \"wall_s\": " jnum(wall) \
			    ", \"workload_vcpu_cpu_s\": " jnum(wcpu) ", \"workload_vcpu_cpu_vs_unprofiled\": " jnum(med(pr)) \
			    ", \"workload_vcpu_blocked\": " jnum(wwait) ", \"other_vcpu_cpu_s\": " jnum(ocpu) ", \"main_loop_cpu_s\": " jnum(mcpu) "}")
			cell(1, label); cell(2, cnt(QWALL[qk])); cell(3, f3(wall)); cell(4, mmm(QV[qk SUBSEP wk]))
			cell(5, cnt(pr) ? pctr(pr) : "-")
			cell(6, wall > 0 && wcpu != "" ? sprintf("%.0f", 100 * wcpu / wall) : "-")
			cell(7, wall > 0 && wwait != "" ? sprintf("%.0f", wwait / wall) : "-")
			cell(8, wall > 0 && ocpu != "" ? sprintf("%.0f", 100 * ocpu / wall) : "-")
			cell(9, wall > 0 && mcpu != "" ? sprintf("%.0f", 100 * mcpu / wall) : "-")
		}
		note("one row per tool and rate, medians over the repetitions; window = benchwork'\''s timed work (first to last round, the times of (1)), bracketed by its BENCH-PHASE console lines (benchwork -M) and timed on the host, so it includes a few ms of console latency")
		note("host CPU s = user+sys CPU time of the QEMU thread that emulates the guest CPU (/proc/PID/task/TID/stat, 1/" (META["clk_tck"] != "" ? META["clk_tck"] : 100) " s resolution): the emulation work on that CPU, whatever the host did to the thread meanwhile; vs unprofiled = median of each profiled run over the unprofiled run of the same repetition and rate")
		note("blocked /s = voluntary context switches of that thread per second: under TCG a busy guest CPU blocks when it waits for QEMU'\''s big lock (taken to deliver interrupts and for every APIC access, by the main loop and the other vCPU too), so a profiler that keeps another guest CPU busy (sending IPIs) stalls the workload'\''s CPU through the emulator, not through the guest; other vCPU % and main loop % show that activity")
	}

	# ---------------------------------------------------------------- (2)
	section("handler", "(2) pmuprof NMI handler cost per sample, ns, from GET_STATS (" (H_HZ != "" ? hz(H_HZ) : "?") " cpu-clock on one busy CPU, " (H_S != "" ? H_S : "?") " s each) [" vmtag "]")
	col("configuration"); col("samples"); col("kernel-mode %"); col("frames/sample k+u")
	col("min"); col("median"); col("p99"); col("max"); col("mean"); col("lost")
	if ("handler" in VMFAIL) narow(VMFAIL["handler"])
	else {
		split("ip stack32 stack32-addr", hc, " ")
		hl["ip"] = "IP only (no -g)"; hl["stack32"] = "-g --depth 32 (kernel+user)"; hl["stack32-addr"] = "-g --depth 32 --data-addr"
		for (i = 1; i <= 3; i++) {
			w = hc[i]
			if (w in HNA) { row("{\"config\": " jstr(w) ", \"not_available\": " jstr(HNA[w]) "}"); cell(1, hl[w]); cell(2, "not available: " HNA[w]); continue }
			if (!(w in HS)) { row("{\"config\": " jstr(w) ", \"not_available\": \"no data file came back\"}"); cell(1, hl[w]); cell(2, "not available: no data file came back"); continue }
			n = HST[w, "rec_samples"]
			p50 = HST[w, "p50_ns"] != "" ? HST[w, "p50_ns"] "-" HST[w, "p50_hi_ns"] : "-"
			p99 = HST[w, "p99_ns"] != "" ? HST[w, "p99_ns"] "-" HST[w, "p99_hi_ns"] : "-"
			if (HST[w, "p99_hi_ns"] == "0") p99 = ">=" HST[w, "p99_ns"]
			if (HST[w, "p50_hi_ns"] == "0") p50 = ">=" HST[w, "p50_ns"]
			row("{\"config\": " jstr(w) ", \"samples\": " jnum(n) ", \"kernel_mode\": " jnum(HST[w, "kmode"]) ", \"avg_kframes\": " jnum(HST[w, "avg_kframes"]) ", \"avg_uframes\": " jnum(HST[w, "avg_uframes"]) \
			    ", \"handler_ns\": {\"min\": " jnum(HST[w, "handler_min_ns"]) ", \"p50_bucket\": [" jnum(HST[w, "p50_ns"]) ", " jnum(HST[w, "p50_hi_ns"]) "], \"p99_bucket\": [" jnum(HST[w, "p99_ns"]) ", " jnum(HST[w, "p99_hi_ns"]) "], \"max\": " jnum(HST[w, "handler_max_ns"]) ", \"mean\": " jnum(HST[w, "handler_mean_ns"]) ", \"runs\": " jnum(HST[w, "hist_runs"]) "}" \
			    ", \"with_data_addr\": " jnum(HST[w, "with_addr"]) ", \"lost\": " jnum(HST[w, "lost"]) "}")
			cell(1, hl[w]); cell(2, n); cell(3, n > 0 ? sprintf("%.1f", 100 * HST[w, "kmode"] / n) : "-")
			cell(4, sprintf("%.1f+%.1f", HST[w, "avg_kframes"], HST[w, "avg_uframes"]))
			cell(5, HST[w, "handler_min_ns"]); cell(6, p50); cell(7, p99); cell(8, HST[w, "handler_max_ns"]); cell(9, HST[w, "handler_mean_ns"])
			cell(10, HST[w, "lost"] != "" ? HST[w, "lost"] : H_LOST[w])
		}
		note("median and p99 are histogram buckets [low-high) ns (pmuprof_hist_bucket: 4 sub-buckets per power of two); min, max, mean are exact. Handler time covers the whole NMI handler run (capture, stack walks, data-address decode and page walk, ring write)")
		note("workload: benchwork -d 40 with a getppid/read(/dev/zero) mix on the sampled CPU; pmuctl record -C CPU (only that CPU) pinned to the other CPU")
		if (accel == "tcg") note("TCG: every instruction of the handler is emulated, so these are far above hardware figures; the hardware targets do not apply here (reported, not judged)")
	}

	# ---------------------------------------------------------------- (3)
	section("lost", "(3) Lost samples under pressure: pmuctl record -a -e cpu-clock -F HZ -g --depth 64, default ring size, every CPU busy with 70-frame stacks [" vmtag "]")
	col("rate per CPU"); col("CPUs"); col("seconds"); col("samples"); col("samples/s per CPU"); col("NMIs/s per CPU"); col("lost"); col("throttled"); col("file")
	if ("lost" in VMFAIL) narow(VMFAIL["lost"])
	else if (LNA != "" && !NL) narow(LNA)
	else if (!NL) narow("no results came back (see out/bench/raw/vm-lost.log)")
	else {
		for (i = 1; i <= NL; i++) {
			sps = (L[i, "seconds"] > 0 && L[i, "cpus"] > 0) ? L[i, "samples"] / L[i, "seconds"] / L[i, "cpus"] : ""
			row("{\"rate_hz_per_cpu\": " L[i, "hz"] ", \"cpus\": " jnum(L[i, "cpus"]) ", \"seconds\": " jnum(L[i, "seconds"]) ", \"samples\": " jnum(L[i, "samples"]) ", \"lost\": " jnum(L[i, "lost"]) ", \"throttled\": " jnum(L[i, "throttled"]) ", \"nmis\": " jnum(L[i, "nmis"]) ", \"target\": " jstr(L[i, "target"]) "}")
			cell(1, hz(L[i, "hz"])); cell(2, L[i, "cpus"]); cell(3, L[i, "seconds"]); cell(4, L[i, "samples"])
			nps = (L[i, "seconds"] > 0 && L[i, "cpus"] > 0 && L[i, "nmis"] != "") ? L[i, "nmis"] / L[i, "seconds"] / L[i, "cpus"] : ""
			cell(5, sps != "" ? sprintf("%.0f", sps) : "-"); cell(6, nps != "" ? sprintf("%.0f", nps) : "-")
			cell(7, L[i, "lost"]); cell(8, L[i, "throttled"]); cell(9, L[i, "target"])
			if (sps != "" && sps < L[i, "hz"] / 2) THR = 1
		}
		if (LNA != "") note("not available: " LNA)
		if (NL && L[1, "hz"] == 10000) note("10 kHz on every CPU: lost " L[1, "lost"] (L[1, "lost"] == "0" ? " (target: 0, met)" : " (target: 0, MISSED)"))
		if (LS["first_loss_hz"] != "") note(LS["first_loss_hz"] == "none" ? "no loss at any step up to " hz(LS["max_tried_hz"]) " per CPU (rates tried: " LS["rates"] "; the module allows at most 50 kHz)" : "loss begins at " hz(LS["first_loss_hz"]) " per CPU (rates tried in order: " LS["rates"] ")")
		if (THR) note("the achieved sampling rate (samples/s, and NMIs actually taken per /proc/interrupts) stayed far below the requested rate, with the module'\''s throttle count shown beside it: no loss here means no loss at the achieved rate, not at the requested one")
		note("the data file goes to the guest'\''s raw block device (/dev/vda: virtio-blk, page cache, fsync at the end) unless the file column says otherwise; throttled = times the module lowered the rate because handlers took too long (not loss); NMIs/s from /proc/interrupts over the whole pmuctl run (start-up and file finishing included, so it undercounts the sampling rate a little), averaged over the CPUs: with every CPU sampled, CPU 0 samples itself from its own timer interrupt (the sender plan, docs/KERNEL.md), so NMIs/s per CPU is about half of samples/s per CPU on 2 CPUs")
	}

	# ---------------------------------------------------------------- (4)
	section("ring", "(4) Per-CPU ring microbenchmark, bench/ring [host" (RHEAD != "" ? "; " RHEAD : "") "]")
	col("metric"); col("value")
	if (RNA != "") narow(RNA)
	else for (i = 1; i <= NR_; i++) { row("{\"metric\": " jstr(RLAB[i]) ", \"value\": " jstr(RVAL[i]) "}"); cell(1, RLAB[i]); cell(2, RVAL[i]) }
	note("instructions from valgrind callgrind (deterministic); rates are wall clock on the host")

	# ---------------------------------------------------------------- (5)
	section("converter", "(5) Converter throughput: pmuconv folded --weight period, and the pprof/speedscope/perf.data exports, one core [host]")
	col("input"); col("size MB"); col("samples"); col("unique stacks"); col("wall s, median (min-max)"); col("CPU s (user+sys)"); col("samples/s wall / per CPU-s"); col("MB/s wall / per CPU-s"); col("peak RSS MiB"); col("RSS beyond input MiB")
	nconv = split("native-sym export-pprof export-speedscope export-perfdata native-nosym perfscript-sym perfscript-nosym unwind-dwarf unwind-fp", cc, " ")
	cl["native-sym"] = "pmuprof file (pmugen, 32 frames), symbolized (ELF + kallsyms)"
	cl["export-pprof"] = "the same file -> pmuconv pprof (gzip profile.proto, labels per sample)"
	cl["export-speedscope"] = "the same file -> pmuconv speedscope (JSON)"
	cl["native-nosym"] = "pmuprof file (pmugen, 32 frames), binaries absent (bin+0xoff)"
	cl["perfscript-sym"] = "perf script text (32 frames), with symbol names"
	cl["perfscript-nosym"] = "perf script text (32 frames), [unknown] symbols"
	cl["export-perfdata"] = "the same file -> pmuconv perf-data (PERFILE2, no symbolization)"
	cl["unwind-dwarf"] = "--call-graph dwarf: 8 KiB stack copies (ptsnap, nofpwork + libc) unwound with libdwfl"
	cl["unwind-fp"] = "the same file, --call-graph fp (copies read, not unwound): the baseline"
	for (i = 1; i <= nconv; i++) {
		w = cc[i]
		if (w in CNA) { row("{\"input\": " jstr(w) ", \"not_available\": " jstr(CNA[w]) "}"); cell(1, cl[w]); cell(2, "not available: " CNA[w]); continue }
		if (!(w in CV)) { row("{\"input\": " jstr(w) ", \"not_available\": \"not run\"}"); cell(1, cl[w]); cell(2, "not run"); continue }
		t = med(CW[w])
		row("{\"input\": " jstr(w) ", \"bytes\": " CB[w] ", \"samples\": " CS[w] ", \"stacks\": " jnum(CK[w] ~ /^[0-9]+$/ ? CK[w] : "") ", \"wall_s\": {\"min\": " mn(CW[w]) ", \"median\": " t ", \"max\": " mx(CW[w]) "}, \"samples_per_s\": " (t > 0 ? CS[w] / t : "null") ", \"mb_per_s\": " (t > 0 ? CB[w] / 1e6 / t : "null") ", \"peak_rss_kb\": " mx(CR[w]) "}")
		cell(1, cl[w]); cell(2, sprintf("%.0f", CB[w] / 1e6)); cell(3, CS[w]); cell(4, CK[w]); cell(5, mmm(CW[w]))
		u = med(CC[w]); cell(6, mmm(CC[w]))
		cell(7, (t > 0 ? big(CS[w] / t) : "-") " / " (u > 0 ? big(CS[w] / u) : "-"))
		cell(8, (t > 0 ? sprintf("%.0f", CB[w] / 1e6 / t) : "-") " / " (u > 0 ? sprintf("%.0f", CB[w] / 1e6 / u) : "-"))
		cell(9, sprintf("%.0f", mx(CR[w]) / 1024))
		ex = mx(CR[w]) / 1024 - CB[w] / 1048576; cell(10, sprintf("%.0f", ex > 0 ? ex : 0))
	}
	note("whole process (start to exit: open, parse, symbolize, aggregate, write folded) measured with wait4() rusage; input files in the page cache; MB = 10^6 bytes")
	note("pmuconv is single-threaded: per CPU-s = samples or bytes / (user + sys) is what one core does; on a shared machine (load above the CPU count) wall time also includes waiting for a CPU")
	note("peak RSS counts the input file'\''s pages the reader maps: perf script input is mapped whole, so RSS beyond input = peak RSS - input size estimates the converter'\''s own memory (tables of unique stacks, symbols, output); native input is read frame by frame (only frame headers and metadata are mapped), so for it peak RSS itself bounds the converter'\''s memory and RSS beyond input shows 0")
	note("unwinding (issue 18): samples/s per CPU-s of the unwind-dwarf row is the whole conversion of a file whose every sample is unwound; target >= 200 k samples/s per core at 8 KiB stacks")
	note("targets (issue 5): >= 10 M samples/s native, >= 200 MB/s perf script text; (issue 19): >= 2 M samples/s per core for the pprof and perf.data exports with stacks")
	note("exports: unique stacks shows ? (they print pprof samples or events, not stacks); pprof keeps threads and CPUs apart (labels), so it has more unique rows than folded")

	render()
}

function header_lines(    s) {
	H1 = "pmuprof benchmarks: " META["mode"] " run, " META["date"]
	H2 = "host: " MT["cpu"] ", " META["ncpu"] " CPUs, " META["mem_gib"] " GiB, " MT["os"] ", kernel " META["host_kernel"]
	H3 = "guest: " (VMMETA["accel"] != "" ? "QEMU " META["qemu"] " " (VMMETA["accel"] == "tcg" ? "TCG (software emulation, no hardware PMU)" : "KVM") ", " VMMETA["smp"] " vCPUs, " VMMETA["mem_mib"] " MiB, Debian kernel " VMMETA["guest_kernel"] : "not run")
	H4 = MT["perf"] != "" ? "perf: " MT["perf"] : "perf: not found on the host"
	H6 = "host load average (1/5/15 min) at start: " MT["load_start"] ", at end: " MT["load_end"] " (on " META["ncpu"] " CPUs; above that the machine was shared and timings are noisy)"
	H5 = "figures marked [guest, QEMU TCG emulation] come from emulation and are not hardware numbers; [host] figures are native on the host CPU"
}

function render(    s, c, r, n, wdt, line, f, fm, fj, first) {
	header_lines()
	f = OUTDIR "/results.txt"; fm = OUTDIR "/results.md"; fj = OUTDIR "/results.json"
	printf "" > f; printf "" > fm; printf "" > fj
	print H1 > f; print H2 > f; print H3 > f; print H4 > f; print H6 > f; print H5 > f
	print "# " H1 "\n" > fm
	print "- " H2 "\n- " H3 "\n- " H4 "\n- " H6 "\n- " H5 "\n" > fm
	printf "{\n  \"mode\": %s,\n  \"date\": %s,\n  \"host\": {\"cpu\": %s, \"cpus\": %s, \"mem_gib\": %s, \"os\": %s, \"kernel\": %s},\n", jstr(META["mode"]), jstr(META["date"]), jstr(MT["cpu"]), jnum(META["ncpu"]), jnum(META["mem_gib"]), jstr(MT["os"]), jstr(META["host_kernel"]) > fj
	printf "  \"guest\": {\"accel\": %s, \"emulation\": %s, \"qemu\": %s, \"vcpus\": %s, \"kernel\": %s},\n  \"perf\": %s,\n  \"total_seconds\": %s,\n  \"sections\": [\n", jstr(VMMETA["accel"]), (VMMETA["accel"] == "tcg" ? "true" : "false"), jstr(META["qemu"]), jnum(VMMETA["smp"]), jstr(VMMETA["guest_kernel"]), jstr(MT["perf"]), jnum(TOTAL_S) > fj
	for (s = 1; s <= NS; s++) {
		# text: column widths
		for (c = 1; c <= S_NCOL[s]; c++) {
			wdt[c] = length(S_HEAD[s, c])
			for (r = 1; r <= S_NROW[s]; r++) if (!S_SPAN[s, r] && length(S_CELL[s, r, c]) > wdt[c]) wdt[c] = length(S_CELL[s, r, c])
		}
		print "\n" S_TITLE[s] > f
		line = ""
		for (c = 1; c <= S_NCOL[s]; c++) line = line (c > 1 ? " | " : "") sprintf("%-" wdt[c] "s", S_HEAD[s, c])
		print line > f
		line = ""
		for (c = 1; c <= S_NCOL[s]; c++) line = line (c > 1 ? "-+-" : "") sprintf("%" wdt[c] "s", "") 
		gsub(/ /, "-", line); print line > f
		for (r = 1; r <= S_NROW[s]; r++) {
			if (S_SPAN[s, r]) { print S_CELL[s, r, 1] > f; continue }
			line = ""
			for (c = 1; c <= S_NCOL[s]; c++) line = line (c > 1 ? " | " : "") sprintf("%-" wdt[c] "s", S_CELL[s, r, c])
			sub(/[ |]+$/, "", line)
			print line > f
		}
		for (n = 1; n <= S_NNOTE[s]; n++) print "  * " S_NOTE[s, n] > f
		# markdown
		print "## " S_TITLE[s] "\n" > fm
		line = "|"; for (c = 1; c <= S_NCOL[s]; c++) line = line " " S_HEAD[s, c] " |"; print line > fm
		line = "|"; for (c = 1; c <= S_NCOL[s]; c++) line = line (c == 1 ? " --- |" : " ---: |"); print line > fm
		for (r = 1; r <= S_NROW[s]; r++) { line = "|"; for (c = 1; c <= S_NCOL[s]; c++) { v = S_CELL[s, r, c]; gsub(/\|/, "\\|", v); line = line " " v " |" }; print line > fm }
		print "" > fm
		for (n = 1; n <= S_NNOTE[s]; n++) print "- " S_NOTE[s, n] > fm
		print "" > fm
		# json
		printf "    {\"id\": %s, \"title\": %s,\n     \"columns\": [", jstr(S_ID[s]), jstr(S_TITLE[s]) > fj
		for (c = 1; c <= S_NCOL[s]; c++) printf "%s%s", (c > 1 ? ", " : ""), jstr(S_HEAD[s, c]) > fj
		printf "],\n     \"rows\": [\n" > fj
		for (r = 1; r <= S_NROW[s]; r++) {
			printf "       {\"cells\": [" > fj
			for (c = 1; c <= S_NCOL[s]; c++) printf "%s%s", (c > 1 ? ", " : ""), jstr(S_CELL[s, r, c]) > fj
			printf "], \"values\": %s}%s\n", S_JSON[s, r], (r < S_NROW[s] ? "," : "") > fj
		}
		printf "     ],\n     \"notes\": [" > fj
		for (n = 1; n <= S_NNOTE[s]; n++) printf "%s%s", (n > 1 ? ", " : ""), jstr(S_NOTE[s, n]) > fj
		printf "]}%s\n", (s < NS ? "," : "") > fj
	}
	printf "  ]\n}\n" > fj
	if (TOTAL_S != "") { print "\n(bench took " TOTAL_S " s)" > f; print "_bench took " TOTAL_S " s_" > fm }
	close(f); close(fm); close(fj)
}
' "$1" "$2"
