// SPDX-License-Identifier: MIT
/*
 * The HTML report in a real browser: loads a page made by `pmuconv html` in
 * headless Debian Chromium (driven by playwright-core, no browser download)
 * at 1024 and 1400 px widths, saves a full-page screenshot of each, and
 * checks what a reader sees:
 *   - no JS console errors and no uncaught exceptions;
 *   - no horizontal overflow of the page;
 *   - the flamegraph's Search button inside the viewport, and the topmost
 *     element at its centre (not clipped, not scrolled away);
 *   - the flamegraph as wide as its container (responsive, both widths),
 *     also after the window is made 300 px narrower;
 *   - Ctrl-F and / outside the flamegraph reach the browser untouched (not
 *     prevented, no prompt); on the focused flamegraph they open Search;
 *   - the sample-source split and its IRQ-off caveat are on the page;
 *   - clicking a function-table row zooms the flamegraph to that frame.
 *
 *   node html_check.js PAGE.html OUTDIR
 * Prints PASS/FAIL lines (tests/suites/html_browser.sh counts them); exits 0.
 */
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const page_file = path.resolve(process.argv[2]);
const out_dir = path.resolve(process.argv[3]);
const S = 'html_browser';
let failed = 0;

function pass(name, what) {
	console.log(`PASS: ${S}/${name}${what ? ' (' + what + ')' : ''}`);
}
function fail(name, why) {
	failed++;
	console.log(`FAIL: ${S}/${name} (${why})`);
}
function check(name, ok, why, what) {
	if (ok)
		pass(name, what);
	else
		fail(name, why);
}

// The function-row click target: the self table's row naming FN.
const ZOOM_FN = 'app+0x50', OTHER_FN = 'app+0x80';

async function frameBox(page, name) {
	return page.evaluate((name) => {
		const svg = document.querySelector('svg.pmuflame');
		for (const g of svg.querySelectorAll('g.f')) {
			if (g.querySelector('title').textContent.split('\n')[0] !== name)
				continue;
			const r = g.querySelector('rect');
			return {shown: getComputedStyle(g).display !== 'none', w: +r.getAttribute('width'),
				fw: +svg.getAttribute('width'), pad: +svg.getAttribute('data-pad')};
		}
		return null;
	}, name);
}

async function one_width(browser, width) {
	const tag = `w${width}`;
	const ctx = await browser.newContext({viewport: {width, height: 800}});
	const page = await ctx.newPage();
	const errors = [], dialogs = [];
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
	page.on('pageerror', (e) => errors.push(String(e)));
	page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
	await page.goto('file://' + page_file);
	await page.waitForLoadState('load');
	const shot = path.join(out_dir, `report-${width}.png`);
	await page.screenshot({path: shot, fullPage: true});
	pass(`${tag}/screenshot`, shot);

	// layout
	const lay = await page.evaluate(() => {
		const d = document.documentElement, svg = document.querySelector('svg.pmuflame');
		return {scroll: d.scrollWidth, client: d.clientWidth,
			svg: svg.getBoundingClientRect().width,
			box: svg.parentNode.clientWidth};
	});
	check(`${tag}/no_horizontal_overflow`, lay.scroll <= lay.client,
	      `page is ${lay.scroll} px wide in a ${lay.client} px viewport`,
	      `${lay.scroll} <= ${lay.client} px`);
	check(`${tag}/flamegraph_fills_container`, Math.abs(lay.svg - lay.box) <= 1,
	      `flamegraph ${lay.svg} px in a ${lay.box} px container`, `${lay.svg} px`);
	// scroll the page down to the graph, never sideways (nor the graph's
	// box): what a reader sees without looking for it
	const search = page.locator('svg.pmuflame .fg-search').first();
	await page.evaluate(() => {
		const r = document.querySelector('svg.pmuflame').getBoundingClientRect();
		window.scrollTo(0, window.scrollY + r.top - 20);
	});
	const sb = await search.evaluate((el) => {
		const r = el.getBoundingClientRect();
		const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return {l: r.left, r: r.right, t: r.top, b: r.bottom, vw: window.innerWidth,
			vh: window.innerHeight, hit: hit === el};
	});
	check(`${tag}/search_in_viewport`,
	      sb.l >= 0 && sb.r <= sb.vw && sb.t >= 0 && sb.b <= sb.vh && sb.hit,
	      `Search at x ${sb.l.toFixed(0)}..${sb.r.toFixed(0)} in a ${sb.vw} px viewport` +
		      (sb.hit ? '' : ', not the topmost element at its centre'),
	      `x ${sb.l.toFixed(0)}..${sb.r.toFixed(0)} of ${sb.vw}`);

	// Ctrl-F and / outside the flamegraph: not intercepted
	await page.evaluate(() => {
		window.__keys = [];
		window.addEventListener('keydown', (e) => {
			window.__keys.push({key: e.key, prevented: e.defaultPrevented});
		});
	});
	await page.locator('h1').click();
	await page.keyboard.press('Control+f');
	await page.keyboard.press('/');
	const ours = (k) => k.key === 'f' || k.key === '/';
	let keys = (await page.evaluate(() => window.__keys.splice(0))).filter(ours);
	const took = keys.filter((k) => k.prevented).map((k) => k.key);
	check(`${tag}/ctrl_f_outside_not_intercepted`, keys.length === 2 && !took.length &&
		      !dialogs.length,
	      `outside the flamegraph: ${keys.length} keys seen, prevented: [${took}], ` +
		      `prompts: ${dialogs.length}`);
	// ... and on the focused flamegraph they open Search
	await page.locator('svg.pmuflame').first().focus();
	const focused = await page.evaluate(() =>
		document.activeElement === document.querySelector('svg.pmuflame'));
	await page.keyboard.press('Control+f');
	keys = (await page.evaluate(() => window.__keys.splice(0))).filter(ours);
	check(`${tag}/ctrl_f_in_flamegraph_opens_search`,
	      focused && dialogs.length === 1 && keys.length === 1 && keys[0].prevented,
	      `flamegraph focusable: ${focused}, prompts: ${dialogs.length}, ` +
		      `prevented: ${keys.length && keys[0].prevented}`);
	dialogs.length = 0;

	// the sample-source split and its caveat
	const text = await page.evaluate(() => document.body.innerText);
	check(`${tag}/source_split_shown`,
	      /samples by source:.*NMI.*6 \(75\.0 ?%\).*timer.*2 \(25\.0 ?%\)/i.test(text) &&
		      /cannot land in IRQ-disabled code/.test(text),
	      'no "samples by source: ... 6 (75.0 %) ... 2 (25.0 %)" line with the IRQ-off caveat');

	// a function row zooms the flamegraph to its frame
	const before = await frameBox(page, ZOOM_FN);
	await page.locator('table.self td.fn', {hasText: ZOOM_FN}).first().click();
	const after = await frameBox(page, ZOOM_FN), other = await frameBox(page, OTHER_FN);
	const full = after ? after.fw - 2 * after.pad : 0;
	const inview = await page.evaluate(() => {
		const r = document.querySelector('svg.pmuflame').getBoundingClientRect();
		return r.bottom > 0 && r.top < window.innerHeight;
	});
	check(`${tag}/function_row_zooms_frame`,
	      before && after && other && before.w < full - 1 && Math.abs(after.w - full) < 0.5 &&
		      !other.shown && inview,
	      `${ZOOM_FN}: width ${before && before.w} -> ${after && after.w} ` +
		      `(full ${full}), ${OTHER_FN} shown: ${other && other.shown}, ` +
		      `graph in view: ${inview}`,
	      `${ZOOM_FN} ${before.w} -> ${after.w} px`);
	const shot2 = path.join(out_dir, `report-${width}-zoomed.png`);
	await page.screenshot({path: shot2});

	// narrower window, same page: the graph follows (zoom kept)
	await page.setViewportSize({width: width - 300, height: 800});
	const rs = await page.evaluate(() => new Promise((done) => {
		/* after the next frame's layout and resize observations */
		requestAnimationFrame(() => requestAnimationFrame(() => {
			const svg = document.querySelector('svg.pmuflame');
			done({svg: svg.getBoundingClientRect().width, box: svg.parentNode.clientWidth,
			      attr: +svg.getAttribute('width')});
		}));
	}));
	const az = await frameBox(page, ZOOM_FN);
	check(`${tag}/follows_resize`,
	      Math.abs(rs.svg - rs.box) <= 1 && rs.attr === rs.box && az &&
		      Math.abs(az.w - (az.fw - 2 * az.pad)) < 0.5,
	      `after resizing to ${width - 300} px: graph ${rs.svg} px (width attribute ` +
		      `${rs.attr}) in a ${rs.box} px container, ${ZOOM_FN} ${az && az.w} px`,
	      `${rs.attr} px`);

	check(`${tag}/no_console_errors`, !errors.length, errors.slice(0, 3).join(' | '));
	await ctx.close();
}

(async () => {
	let browser;
	try {
		browser = await chromium.launch({
			executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
			headless: true,
			timeout: 60000,
			args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			       '--disable-background-networking', '--disable-component-update',
			       '--disable-sync'],
		});
	} catch (e) {
		fail('launch', String(e).split('\n')[0]);
		return;
	}
	for (const w of [1024, 1400]) {
		try {
			await one_width(browser, w);
		} catch (e) {
			fail(`w${w}/run`, String(e).split('\n')[0]);
		}
	}
	await browser.close();
})();
