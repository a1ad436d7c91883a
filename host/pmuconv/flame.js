function pmuFlame(svg) {
	'use strict';
	var NS = 'http://www.w3.org/2000/svg';
	var fw = +svg.getAttribute('data-fw'), fh = +svg.getAttribute('data-fh');
	var pad = +svg.getAttribute('data-pad'), ybase = +svg.getAttribute('data-ybase');
	var cw = +svg.getAttribute('data-cw');
	var one = function (c) { return svg.querySelector('.' + c); };
	var details = one('fg-details'), matched = one('fg-matched');
	var resetEl = one('fg-reset'), searchEl = one('fg-search');
	var gs = svg.querySelectorAll('g.f'), fr = [], last = [], i, j, term = '';
	for (i = 0; i !== gs.length; i++) {
		var g = gs[i], r = g.querySelector('rect');
		var tip = g.querySelector('title').textContent.split('\n');
		var f = {g: g, r: r, t: g.querySelector('text'), name: tip[0],
			tip: tip.join('  |  '), x: +r.getAttribute('x'), w: +r.getAttribute('width'),
			y: +r.getAttribute('y'), v: +g.getAttribute('data-v'),
			fill: r.getAttribute('fill'), size: 1, parent: -1};
		f.d = Math.round((ybase - f.y) / fh);
		if (f.d > 0) f.parent = last[f.d - 1];
		last[f.d] = i;
		fr.push(f);
	}
	for (i = fr.length - 1; i > 0; i--) fr[fr[i].parent].size += fr[i].size;
	var total = fr.length ? fr[0].v : 0;
	function pct(a, b) { return b ? (100 * a / b).toFixed(2) + '%' : '0%'; }
	function label(f, x, w) {
		var n = Math.floor((w - 6) / cw), s = '';
		if (n >= 3) s = f.name.length > n ? f.name.slice(0, n - 2) + '..' : f.name;
		if (!f.t) {
			if (s === '') return;
			f.t = document.createElementNS(NS, 'text');
			f.t.setAttribute('y', (f.y + fh - 5).toFixed(0));
			f.g.appendChild(f.t);
		}
		f.t.setAttribute('x', (x + 3).toFixed(2));
		f.t.textContent = s;
	}
	function place(f, x, w) {
		f.r.setAttribute('x', x.toFixed(2));
		f.r.setAttribute('width', w.toFixed(2));
		label(f, x, w);
	}
	function reset() {
		for (j = 0; j !== fr.length; j++) {
			fr[j].g.style.display = '';
			fr[j].g.style.opacity = '';
			place(fr[j], fr[j].x, fr[j].w);
		}
		resetEl.style.display = 'none';
	}
	function zoom(k) {
		var z = fr[k], s = (fw - 2 * pad) / z.w, anc = {};
		if (k === 0) { reset(); return; }
		for (j = z.parent; j !== -1; j = fr[j].parent) anc[j] = true;
		for (j = 0; j !== fr.length; j++) {
			var f = fr[j];
			if (j >= k && j - k < z.size) {
				f.g.style.display = '';
				f.g.style.opacity = '';
				place(f, pad + (f.x - z.x) * s, f.w * s);
			} else if (anc[j]) {
				f.g.style.display = '';
				f.g.style.opacity = '0.55';
				place(f, pad, fw - 2 * pad);
			} else {
				f.g.style.display = 'none';
			}
		}
		resetEl.style.display = '';
	}
	function search(q) {
		var re = null, cover = 0, sum = 0, hits = 0;
		term = q || '';
		if (term !== '') {
			try { re = new RegExp(term); } catch (e) { re = null; }
		}
		for (j = 0; j !== fr.length; j++) {
			var f = fr[j];
			var m = term !== '' && (re ? re.test(f.name) : f.name.indexOf(term) !== -1);
			f.r.setAttribute('fill', m ? 'rgb(230,0,230)' : f.fill);
			if (!m) continue;
			hits++;
			/* preorder: frames inside a counted match are skipped */
			if (j >= cover) { sum += f.v; cover = j + f.size; }
		}
		matched.textContent = term === '' ? '' :
			'Matched ' + pct(sum, total) + ' in ' + hits + ' frames: ' + term;
		searchEl.textContent = term === '' ? 'Search' : 'Clear search';
	}
	function ask() {
		if (term !== '') { search(''); return; }
		var q = window.prompt('Search frames (regular expression; substring if not valid):', '');
		if (q !== null) search(q);
	}
	fr.forEach(function (f, k) {
		f.g.addEventListener('mouseover', function () { details.textContent = f.tip; });
		f.g.addEventListener('mouseout', function () { details.textContent = ' '; });
		f.g.addEventListener('click', function () { zoom(k); });
	});
	resetEl.addEventListener('click', reset);
	searchEl.addEventListener('click', ask);
	var api = {ask: ask, reset: function () { reset(); search(''); }};
	svg.addEventListener('mouseenter', function () { pmuFlame.active = api; });
	if (!pmuFlame.active) pmuFlame.active = api;
	if (!pmuFlame.keys) {
		pmuFlame.keys = true;
		document.addEventListener('keydown', function (e) {
			var a = pmuFlame.active;
			if (!a) return;
			if (((e.ctrlKey || e.metaKey) && e.key === 'f') || e.key === '/') {
				e.preventDefault();
				a.ask();
			} else if (e.key === 'Escape') {
				a.reset();
			}
		});
	}
	reset();
}
