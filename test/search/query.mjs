// SPDX-License-Identifier: MIT
/*
 * query.mjs - run queries against a built site's index, without a browser
 *
 * Loads the site's own _static/quire-search.js into a node vm context
 * whose small stand-in for the DOM answers <script src> by reading the
 * file from disk, so the ranking tested is the one the browser runs.
 *
 *   node query.mjs SITE QUERY...          print the hits of each query
 *   node query.mjs SITE --check FILE      check expectations, one a line:
 *       QUERY => NAME@RANK      the hit named NAME (a symbol or a page
 *                               title) is at RANK or better (1 = first)
 *       QUERY => none           no hit at all
 *       QUERY => fetches<=N     the query, as the search box's drop-down
 *                               runs it (ten hits), loads at most N files
 *       QUERY => like:OTHER     the first hit is OTHER's first hit
 *     Fields are separated by " => "; "#" starts a comment line.
 * Exit status: 0 when every expectation holds, 1 otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { pathToFileURL, fileURLToPath } from 'node:url';

export function openSite(site) {
	const loads = [];
	const base = pathToFileURL(path.resolve(site)).href + '/';
	const head = {
		appendChild(s) {
			const file = fileURLToPath(s.src);
			loads.push(path.relative(site, file));
			setTimeout(() => {
				let ok = true;
				try {
					vm.runInContext(fs.readFileSync(file, 'utf8'), ctx, { filename: file });
				} catch (e) {
					ok = false;
				}
				(ok ? s.onload : s.onerror)();
			}, 0);
		},
	};
	const document = {
		currentScript: { src: base + '_static/quire-search.js' },
		readyState: 'complete',
		head,
		createElement: () => ({}),
		querySelector: () => null,
		getElementById: () => null,
		addEventListener() {},
	};
	const ctx = vm.createContext({ document, setTimeout, clearTimeout, Promise, URLSearchParams });
	ctx.window = ctx;
	const js = path.join(site, '_static', 'quire-search.js');
	vm.runInContext(fs.readFileSync(js, 'utf8'), ctx, { filename: js });
	return {
		loads,
		async query(q, limit) {
			const res = await ctx.quireSearch.query(q, limit || 20);
			return res.hits.map((h) => ({
				kind: ctx.quireSearch.kindName(h.rec[0]),
				name: h.rec[1],
				url: h.rec[2],
				path: h.rec[3],
				snippet: h.rec[4],
			}));
		},
	};
}

async function main(argv) {
	const site = argv[0];
	if (!site) {
		console.error('usage: query.mjs SITE (QUERY... | --check FILE)');
		return 2;
	}
	if (argv[1] !== '--check') {
		const s = openSite(site);
		for (const q of argv.slice(1)) {
			const before = s.loads.length;
			const hits = await s.query(q, 10);
			console.log(`${q}: ${hits.length} hits, ${s.loads.length - before} fetches`);
			hits.forEach((h, i) => console.log(`  ${i + 1}. ${h.kind} ${h.name} ${h.url}`));
		}
		return 0;
	}
	let failed = 0, n = 0;
	for (const raw of fs.readFileSync(argv[2], 'utf8').split('\n')) {
		const line = raw.trim();
		if (!line || line.startsWith('#'))
			continue;
		const [q, want] = line.split(' => ');
		/* every query starts cold, as a new visitor's would */
		const s = openSite(site);
		const hits = await s.query(q, want.startsWith('fetches<=') ? 10 : 50);
		let ok, got;
		n++;
		if (want === 'none') {
			ok = hits.length === 0;
			got = `${hits.length} hits`;
		} else if (want.startsWith('like:')) {
			const other = await openSite(site).query(want.slice(5), 50);
			ok = hits.length > 0 && other.length > 0 && hits[0].url === other[0].url;
			got = `first ${hits.length ? hits[0].url : 'nothing'}, ` +
				`${want.slice(5)}'s first ${other.length ? other[0].url : 'nothing'}`;
		} else if (want.startsWith('fetches<=')) {
			ok = s.loads.length <= +want.slice(9);
			got = `${s.loads.length} fetches: ${s.loads.join(' ')}`;
		} else {
			const [name, rank] = want.split('@');
			const at = hits.findIndex((h) => h.name === name);
			ok = at >= 0 && at < +rank;
			got = at >= 0 ? `rank ${at + 1}` : 'absent';
		}
		if (!ok) {
			failed++;
			console.log(`FAIL ${q} => ${want}: ${got}; first: ` +
				hits.slice(0, 5).map((h) => `${h.kind} ${h.name}`).join(', '));
		} else {
			console.log(`ok   ${q} => ${want}`);
		}
	}
	console.log(`${n - failed}/${n} expectations hold`);
	return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]))
	main(process.argv.slice(2)).then((c) => process.exit(c));
