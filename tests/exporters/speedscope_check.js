// SPDX-License-Identifier: MIT
// Check a speedscope file for tests/suites/exporters.sh: validate it with
// ajv against the schema the speedscope npm package ships
// (dist/release/file-format-schema.json), check every frame index, and
// print per profile and frame name the self and total weight:
//   PROFILE<TAB>FRAME<TAB>SELF<TAB>TOTAL
// (total counts a frame once per stack even when it recurses, as
// flamegraphs do). Exit 1 with the validator's errors on stderr if invalid.
//   node speedscope_check.js NODE_MODULES_DIR FILE.json
'use strict';
const fs = require('fs');
const path = require('path');
const [mods, file] = process.argv.slice(2);
const Ajv = require(path.join(mods, 'ajv'));
const schema = JSON.parse(fs.readFileSync(
	path.join(mods, 'speedscope', 'dist', 'release', 'file-format-schema.json'), 'utf8'));
const data = JSON.parse(fs.readFileSync(file, 'utf8'));
const ajv = new Ajv({allErrors: true, strict: false});
const validate = ajv.compile(schema);
if (!validate(data)) {
	console.error('speedscope_check: ' + file + ' does not match the schema:');
	for (const e of validate.errors)
		console.error('  ' + e.instancePath + ' ' + e.message);
	process.exit(1);
}
const frames = data.shared.frames;
const out = [];
for (const p of data.profiles) {
	if (p.samples.length !== p.weights.length) {
		console.error('speedscope_check: ' + p.name + ': samples and weights differ in length');
		process.exit(1);
	}
	const self = new Map(), total = new Map();
	p.samples.forEach((st, i) => {
		const w = p.weights[i];
		const seen = new Set();
		st.forEach((f, k) => {
			if (!Number.isInteger(f) || f < 0 || f >= frames.length) {
				console.error('speedscope_check: ' + p.name + ': frame index ' + f + ' out of range');
				process.exit(1);
			}
			const n = frames[f].name;
			if (!seen.has(n)) {
				seen.add(n);
				total.set(n, (total.get(n) || 0) + w);
			}
			if (k === st.length - 1)
				self.set(n, (self.get(n) || 0) + w);
		});
	});
	for (const [n, t] of total)
		out.push(p.name + '\t' + n + '\t' + (self.get(n) || 0) + '\t' + t);
}
out.sort();
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
