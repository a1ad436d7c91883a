/*
 * The HTML page's own script (after flame.js): each event section's
 * flamegraph follows the page width, and a click on a row of the section's
 * function tables zooms its graph to that function's frame, brings the graph
 * into view and gives it the keyboard focus (Search, Esc).
 */
(function () {
	'use strict';
	var secs = document.querySelectorAll('section.event');
	for (var i = 0; i !== secs.length; i++) {
		var svg = secs[i].querySelector('svg.pmuflame');
		if (!svg) continue;
		wire(secs[i], svg, pmuFlame(svg, {fit: true}));
	}
	function wire(sec, svg, fg) {
		var links = sec.querySelectorAll('a.fn-link');
		for (var k = 0; k !== links.length; k++) row(links[k]);
		function row(a) {
			var tr = a.parentNode.parentNode, mark = a.previousElementSibling;
			var kind = mark ? mark.getAttribute('class').split(' ')[1] : '';
			tr.classList.add('zoomable');
			tr.addEventListener('click', function (e) {
				e.preventDefault();
				fg.zoomTo(a.textContent, kind);
				svg.scrollIntoView({block: 'nearest'});
				svg.focus({preventScroll: true});
			});
		}
	}
})();
