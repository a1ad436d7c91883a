// SPDX-License-Identifier: MIT
/*
 * The HTML report's page-size section (issue 17) in a real browser: loads a
 * page made by `pmuconv html` from tests/data/pmuconv/native_hugepages (a
 * recording with data addresses) in headless Debian Chromium at 1024 px,
 * screenshots the section, and checks what a reader sees:
 *   - no JS console errors, no uncaught exceptions, no horizontal overflow;
 *   - a user-mode and a kernel-mode view, the user view's verdict first in
 *     it, visible, naming the 64 MiB [anon] mapping as the candidate;
 *   - the per-mapping table: four rows, the share bars as wide as the
 *     shares (42.11 % of the bar for the first row), and the first row's
 *     page-size bar all 4K;
 *   - the kernel view names the first-touch zeroing (clear_page_erms);
 * and, on a second page made from a recording without data addresses, the
 * line saying how to get the section.
 *
 *   node pagesize_check.js PAGE.html NODATA.html OUTDIR
 * Prints PASS/FAIL lines (tests/suites/html_pagesize.sh counts them).
 */
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const S = 'html_pagesize';
function out(ok, name, why) {
	console.log(ok ? `PASS: ${S}/${name}` : `FAIL: ${S}/${name} (${why})`);
}

async function load(browser, file, errors) {
	const ctx = await browser.newContext({viewport: {width: 1024, height: 800}});
	const page = await ctx.newPage();
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
	page.on('pageerror', (e) => errors.push(String(e)));
	await page.goto('file://' + path.resolve(file));
	await page.waitForLoadState('load');
	return page;
}

(async () => {
	const [page_file, nodata_file, out_dir] = process.argv.slice(2);
	const browser = await chromium.launch({executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
					       args: ['--no-sandbox']});
	try {
		const errors = [];
		const page = await load(browser, page_file, errors);
		const sec = await page.$('#pagesize');
		out(!!sec, 'section', 'no #pagesize section');
		if (!sec)
			return;
		const shot = path.join(out_dir, 'pagesize-1024.png');
		await sec.screenshot({path: shot});
		out(true, 'screenshot', shot);
		const r = await page.evaluate(() => {
			const d = document.documentElement;
			const views = [...document.querySelectorAll('#pagesize .psview')];
			const user = views.find((v) => v.dataset.view === 'user');
			const kern = views.find((v) => v.dataset.view === 'kernel');
			const pre = user && user.querySelector('pre.psv');
			const first = user && user.querySelector('h3').nextElementSibling;
			const box = pre ? pre.getBoundingClientRect() : null;
			const rows = user ? [...user.querySelectorAll('table.psm tr')].slice(1) : [];
			const bar = (row, sel) => {
				const outer = row.querySelector(sel), span = outer && outer.querySelector('span');
				return outer && span ? span.getBoundingClientRect().width /
					outer.getBoundingClientRect().width : -1;
			};
			return {overflow: d.scrollWidth - d.clientWidth, views: views.map((v) => v.dataset.view),
				verdict_first: first === pre,
				verdict_shown: !!box && box.width > 100 && box.height > 40,
				verdict: pre ? pre.textContent : '', rows: rows.length,
				share0: rows.length ? bar(rows[0], '.psshare') : -1,
				page4k0: rows.length ? bar(rows[0], '.psbar') : -1,
				page4k0_cls: rows.length && rows[0].querySelector('.psbar span') ?
					rows[0].querySelector('.psbar span').className : '',
				zero: kern && kern.querySelector('.pszero') ? kern.querySelector('.pszero').textContent : ''};
		});
		out(errors.length === 0, 'no-js-errors', errors.join(' | '));
		out(r.overflow <= 0, 'no-overflow', `page ${r.overflow} px wider than the window`);
		out(r.views.join(',') === 'user,kernel', 'views', `views: ${r.views.join(',')}`);
		out(r.verdict_first && r.verdict_shown, 'verdict-on-top',
		    `verdict first in the view: ${r.verdict_first}, visible: ${r.verdict_shown}`);
		out(/CANDIDATE: \[anon\] 0x7f0000001000-0x7f0004001000/.test(r.verdict), 'verdict-names-candidate',
		    `verdict text: ${r.verdict.slice(0, 120)}`);
		out(r.rows === 4, 'mapping-rows', `${r.rows} rows`);
		out(Math.abs(r.share0 - 0.4211) < 0.02, 'share-bar', `first row's share bar ${r.share0}`);
		out(r.page4k0_cls === 'p4k' && Math.abs(r.page4k0 - 1) < 0.02, 'page-bar',
		    `first row's page bar: ${r.page4k0_cls} ${r.page4k0}`);
		out(/clear_page_erms/.test(r.zero), 'kernel-zeroing', `kernel view: '${r.zero}'`);

		const errors2 = [];
		const p2 = await load(browser, nodata_file, errors2);
		const line = await p2.evaluate(() => {
			const p = document.querySelector('#pagesize .psnone');
			return p ? p.textContent : '';
		});
		out(/pmuctl record --data-addr/.test(line) && errors2.length === 0, 'no-data-addr-line',
		    `line: '${line}', errors: ${errors2.join(' | ')}`);
	} catch (e) {
		out(false, 'run', String(e).split('\n')[0]);
	} finally {
		await browser.close();
	}
})();
