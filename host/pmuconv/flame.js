/*
 * The flamegraph's interactions, shared by the standalone SVG and the HTML
 * page: hover details, click to zoom, Search (a prompt; Ctrl-F or / while
 * the graph has keyboard focus, Esc resets), and, with opts.fit (the HTML
 * page), a width that follows the graph's container. Frames keep their
 * layout as fractions of the drawing width, so a new width only rescales.
 * Returns {ask, reset, zoomTo(name, kind), fit()}.
 */
function pmuFlame(svg, opts) {
	'use strict';
	var NS = 'http://www.w3.org/2000/svg';
	var MIN_W = 480; /* narrower containers scroll the graph instead */
	var fw0 = +svg.getAttribute('data-fw'), fw = fw0, fh = +svg.getAttribute('data-fh');
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
			tip: tip.join('  |  '), kind: g.getAttribute('class').split(' ')[1],
			x: (r.getAttribute('x') - pad) / (fw0 - 2 * pad),
			w: r.getAttribute('width') / (fw0 - 2 * pad),
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
	/* x, w: fractions of the drawing width (fw - 2 * pad) */
	function place(f, x, w) {
		var px = pad + x * (fw - 2 * pad), pw = w * (fw - 2 * pad);
		f.r.setAttribute('x', px.toFixed(2));
		f.r.setAttribute('width', pw.toFixed(2));
		label(f, px, pw);
	}
	var zoomed = 0;
	function reset() {
		for (j = 0; j !== fr.length; j++) {
			fr[j].g.style.display = '';
			fr[j].g.style.opacity = '';
			place(fr[j], fr[j].x, fr[j].w);
		}
		resetEl.style.display = 'none';
		zoomed = 0;
	}
	function zoom(k) {
		var z = fr[k], anc = {};
		if (k === 0) { reset(); return; }
		for (j = z.parent; j !== -1; j = fr[j].parent) anc[j] = true;
		for (j = 0; j !== fr.length; j++) {
			var f = fr[j];
			if (j >= k && j - k < z.size) {
				f.g.style.display = '';
				f.g.style.opacity = '';
				place(f, (f.x - z.x) / z.w, f.w / z.w);
			} else if (anc[j]) {
				f.g.style.display = '';
				f.g.style.opacity = '0.55';
				place(f, 0, 1);
			} else {
				f.g.style.display = 'none';
			}
		}
		resetEl.style.display = '';
		zoomed = k;
	}
	/* The widest frame of the function `name` (of `kind` when given:
	 * u, k, x, p): zoom to it and show its details; false if no frame of
	 * it is drawn (all narrower than the drawing limit). */
	function zoomTo(name, kind) {
		var best = -1, n = 0;
		for (j = 1; j < fr.length; j++) {
			if (fr[j].name !== name || (kind && fr[j].kind !== kind)) continue;
			n++;
			if (best === -1 || fr[j].v > fr[best].v) best = j;
		}
		if (best === -1) {
			details.textContent = name + ': no frame drawn (all narrower than the drawing limit)';
			return false;
		}
		zoom(best);
		details.textContent = fr[best].tip + (n > 1 ? '  |  widest of ' + n +
			' frames of this function; Search highlights all' : '');
		return true;
	}
	/* Width of the container (HTML page): resize the drawing, move the
	 * header and footer items that hang on the right edge or the centre,
	 * and lay the frames out again at the current zoom. */
	function fit() {
		var box = svg.parentNode, w = box ? box.clientWidth : 0, h, k;
		if (!w) return;
		w = Math.max(MIN_W, Math.floor(w));
		if (w === fw) return;
		fw = w;
		h = svg.getAttribute('height');
		svg.setAttribute('width', fw);
		svg.setAttribute('viewBox', '0 0 ' + fw + ' ' + h);
		var kids = svg.children;
		for (k = 0; k !== kids.length; k++) {
			var e = kids[k], c = e.getAttribute('class') || '';
			if (e.localName === 'rect') e.setAttribute('width', fw);
			else if (e.getAttribute('text-anchor') === 'middle') e.setAttribute('x', fw / 2);
			else if (e.getAttribute('text-anchor') === 'end') e.setAttribute('x', fw - pad);
			else if (c === 'fg-legend')
				e.setAttribute('transform', 'translate(' + (fw - fw0) / 2 + ',0)');
		}
		if (zoomed) zoom(zoomed); else reset();
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
	/* Focusable, and focused by a click on it; the keys are the graph's
	 * only while it has focus (the standalone SVG is the whole document),
	 * so the browser's own Ctrl-F keeps working everywhere else. */
	var standalone = svg === document.documentElement;
	svg.setAttribute('tabindex', '0');
	svg.addEventListener('mousedown', function () {
		if (!standalone) svg.focus({preventScroll: true});
	});
	fr.forEach(function (f, k) {
		f.g.addEventListener('mouseover', function () { details.textContent = f.tip; });
		f.g.addEventListener('mouseout', function () { details.textContent = ' '; });
		f.g.addEventListener('click', function () { zoom(k); });
	});
	resetEl.addEventListener('click', reset);
	searchEl.addEventListener('click', ask);
	(standalone ? document : svg).addEventListener('keydown', function (e) {
		if (((e.ctrlKey || e.metaKey) && e.key === 'f') || e.key === '/') {
			e.preventDefault();
			ask();
		} else if (e.key === 'Escape') {
			reset();
			search('');
		}
	});
	reset();
	if (opts && opts.fit && !standalone) {
		fit();
		/* the container, not the window: a scroll bar that comes or goes
		 * changes it without a window resize */
		if (window.ResizeObserver) new ResizeObserver(fit).observe(svg.parentNode);
		else window.addEventListener('resize', fit);
	}
	return {ask: ask, reset: function () { reset(); search(''); }, zoomTo: zoomTo, fit: fit};
}
