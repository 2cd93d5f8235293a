// SPDX-License-Identifier: MIT
/*
 * graphs.test.mjs - the kernel's graphs in a real browser
 *
 * Builds test/site/sphinx-graph (kernel-figure of .dot files, one in a
 * comment, kernel-render of DOT and SVG) and opens its pages from
 * file:// in Debian's chromium through playwright-core: every picture
 * of the content must load and have a size (a drawn SVG, not a broken
 * image), and a graph graphviz could not draw must show its DOT. A
 * screenshot of each page goes to OUT/screenshots/graphs-*.png.
 *
 * usage: node graphs.test.mjs --quire QUIRE --cases DIR --out DIR
 * Exit status: 0 pass, 1 fail, 77 skip (no node modules, no chromium).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { CHROMIUM, args, chromium, check, done } from './harness.mjs';

const site = path.join(args.out, 'graphs-site');
fs.rmSync(site, { recursive: true, force: true });
const r = spawnSync(args.quire, ['build', '--quiet',
	path.join(args.cases, 'sphinx-graph', 'in'), '-o', site],
	{ encoding: 'utf8' });
if (r.status !== 0) {
	console.log(r.stderr);
	check(false, `quire build exited ${r.status}`);
	process.exit(1);
}
const shots = path.join(args.out, 'screenshots');
fs.mkdirSync(shots, { recursive: true });

// page: how many pictures it shows
const pages = { 'index.html': 5, 'sub/page.html': 4, 'api.html': 1 };
const browser = await chromium.launch({
	executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'],
});
try {
	const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
	const errors = [];
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
	page.on('requestfailed', (q) => errors.push(`${q.url()}: failed`));
	for (const [p, want] of Object.entries(pages)) {
		await page.goto(pathToFileURL(path.join(site, p)).href);
		await page.waitForLoadState('load');
		const imgs = await page.$$eval('article img', (els) => els.map((e) => ({
			src: e.getAttribute('src'), w: e.naturalWidth, h: e.naturalHeight,
			done: e.complete,
		})));
		check(imgs.length === want, `${p}: ${imgs.length} pictures, ${want} expected`);
		for (const i of imgs)
			check(i.done && i.w > 0 && i.h > 0 && i.src.endsWith('.svg'),
			      `${p}: ${i.src} drawn, ${i.w}x${i.h}`);
		await page.screenshot({
			path: path.join(shots, `graphs-${p.replace(/\W/g, '-')}.png`),
			fullPage: true,
		});
	}
	await page.goto(pathToFileURL(path.join(site, 'index.html')).href);
	const shown = await page.$eval('#id2 pre', (e) => e.textContent);
	check(shown.includes('c -> ;'), 'a graph graphviz cannot read shows its DOT');
	check(errors.length === 0, `no console error or failed request${errors.length ? ': ' + errors.join('; ') : ''}`);
} finally {
	await browser.close();
}
done('all graphs drawn in chromium');
