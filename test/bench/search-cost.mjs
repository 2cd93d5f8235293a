// SPDX-License-Identifier: MIT
/*
 * search-cost.mjs - what each query costs in a browser, quire against
 * Pagefind, on the same site
 *
 * Serves SITE on 127.0.0.1 (the quire site, with Pagefind's index built
 * into SITE/pagefind/ when --pagefind is given) and, for every query,
 * opens a fresh browser profile (a cold cache) and counts the requests
 * and bytes the query costs: for quire, focusing the search box and
 * typing the query until the drop-down shows its ten results; for
 * Pagefind, its own API (import pagefind.js, search, then data() of the
 * first ten results, as its UI does for a page of results). Bytes are
 * counted as sent (no compression) and as gzip would send them. For
 * quire it also times, with the shards cached, how long the results take
 * to be on screen after the last keystroke.
 *
 * usage: node search-cost.mjs SITE [--pagefind] QUERY...
 * Prints one line per query and tool: "tool query requests raw gzip".
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'browser', 'package.json'));
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
const site = path.resolve(args.shift());
const pagefind = args[0] === '--pagefind' && args.shift();
const queries = args;

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
	'.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml' };
const gz = new Map();
let log = [];

const server = http.createServer((req, res) => {
	const url = new URL(req.url, 'http://127.0.0.1');
	let file = path.join(site, decodeURIComponent(url.pathname));
	if (!file.startsWith(site) || !fs.existsSync(file)) {
		res.writeHead(404).end();
		return;
	}
	if (fs.statSync(file).isDirectory())
		file = path.join(file, 'index.html');
	const body = fs.readFileSync(file);
	if (!gz.has(file))
		gz.set(file, zlib.gzipSync(body, { level: 6 }).length);
	log.push({ path: url.pathname, raw: body.length, gzip: gz.get(file) });
	res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
	res.end(body);
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

async function fresh() {
	const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
	const ctx = await chromium.launchPersistentContext(udd, {
		executablePath: '/usr/bin/chromium', headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
	});
	return { ctx, page: await ctx.newPage(), udd };
}

function cost(prefix) {
	const v = log.filter(e => e.path.startsWith(prefix));
	return { n: v.length, raw: v.reduce((a, e) => a + e.raw, 0), gzip: v.reduce((a, e) => a + e.gzip, 0) };
}

async function quire(q) {
	const { ctx, page, udd } = await fresh();
	await page.goto(`${base}/index.html`);
	log = [];
	await page.locator('#qu-search-input').focus();
	await page.locator('#qu-search-input').fill(q);
	await page.waitForFunction(w => document.getElementById('qu-search-list')?.getAttribute('data-q') === w, q, { timeout: 30000 });
	const c = cost('/_search/');
	/* warm: the same query again, shards cached, timed from the keystroke */
	await page.locator('#qu-search-input').fill('');
	await page.waitForTimeout(100);
	const ms = await page.evaluate(w => new Promise(resolve => {
		const input = document.getElementById('qu-search-input');
		const list = document.getElementById('qu-search-list');
		const t0 = performance.now();
		const ob = new MutationObserver(() => {
			if (list.getAttribute('data-q') === w && !list.hidden) {
				ob.disconnect();
				resolve(performance.now() - t0);
			}
		});
		ob.observe(list, { attributes: true, childList: true });
		list.removeAttribute('data-q');
		input.value = w;
		input.dispatchEvent(new Event('input'));
	}), q);
	await ctx.close();
	fs.rmSync(udd, { recursive: true, force: true });
	return { ...c, ms };
}

async function pf(q) {
	const { ctx, page, udd } = await fresh();
	await page.goto(`${base}/index.html`);
	log = [];
	const n = await page.evaluate(async w => {
		const p = await import('/pagefind/pagefind.js');
		await p.init();
		const r = await p.search(w);
		await Promise.all(r.results.slice(0, 10).map(x => x.data()));
		return r.results.length;
	}, q);
	const c = cost('/pagefind/');
	await ctx.close();
	fs.rmSync(udd, { recursive: true, force: true });
	return { ...c, hits: n };
}

for (const q of queries) {
	const a = await quire(q);
	console.log(`quire\t${q}\t${a.n}\t${a.raw}\t${a.gzip}\t${a.ms.toFixed(1)}`);
	if (pagefind) {
		const b = await pf(q);
		console.log(`pagefind\t${q}\t${b.n}\t${b.raw}\t${b.gzip}\t-`);
	}
}
server.close();
