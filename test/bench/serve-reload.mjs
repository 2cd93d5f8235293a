// SPDX-License-Identifier: MIT
/*
 * serve-reload.mjs - save to reloaded page, in a real browser
 *
 * Starts `quire serve DIR`, opens PAGE in Debian's chromium (headless,
 * through test/browser's playwright-core), then RUNS times rewrites a line
 * of FILE and measures the time from the write to the reloaded page's
 * load event. The search index, which follows the reload, is waited for
 * before the next edit, as a writer's next save comes seconds later.
 * Prints the median, min and max, and the server's peak memory (VmHWM)
 * at the end. Not part of the test suite.
 *
 * usage: node serve-reload.mjs QUIRE SOURCE_ROOT DIR PAGE FILE OLD [RUNS]
 *   PAGE  the page's path in the site (include/linux/list.h.html)
 *   FILE  the file to edit; OLD a string in it, replaced by OLD plus a
 *         counter on each run
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const [quire, root, dir, pageName, file, old, runsArg] = process.argv.slice(2);
const runs = +(runsArg || 10);
const req = createRequire(path.join(root, 'test', 'browser', 'package.json'));
const { chromium } = req('playwright-core');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-reload-'));
const srv = spawn(quire, ['serve', dir, '--port', '0'], {
	env: { ...process.env, QUIRE_THEMES: path.join(root, 'themes'), TMPDIR: work },
	stdio: ['ignore', 'ignore', 'pipe'],
});
let log = '';
const port = await new Promise((resolve, reject) => {
	const t = setTimeout(() => reject(new Error('no server: ' + log)), 600000);
	srv.stderr.on('data', (d) => {
		log += d;
		const m = log.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
		if (m) { clearTimeout(t); resolve(+m[1]); }
	});
});
const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(work, 'c-')), {
	executablePath: '/usr/bin/chromium', headless: true,
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await ctx.newPage();
await page.goto(`http://127.0.0.1:${port}/${pageName}`);
await page.waitForFunction(() => document.readyState === 'complete');
await new Promise((r) => setTimeout(r, 500));
const original = fs.readFileSync(file, 'utf8');
const times = [];
let text = original;
for (let i = 0; i < runs; i++) {
	const next = original.replace(old, `${old} (run ${i})`);
	const loaded = page.waitForEvent('load', { timeout: 60000 });
	const t0 = performance.now();
	fs.writeFileSync(file, next);
	await loaded;
	times.push(performance.now() - t0);
	text = next;
	// the search index follows the reload; a writer's next save comes
	// seconds later, so the next edit waits for it (at most 10 s)
	for (let w = 0; w < 200 && !/search index[^\n]*\n$/.test(log); w++)
		await new Promise((r) => setTimeout(r, 50));
	await new Promise((r) => setTimeout(r, 300));
}
fs.writeFileSync(file, original);
const status = fs.readFileSync(`/proc/${srv.pid}/status`, 'utf8');
const hwm = (status.match(/VmHWM:\s+(\d+) kB/) || [])[1];
const rss = (status.match(/VmRSS:\s+(\d+) kB/) || [])[1];
await ctx.close();
srv.kill('SIGTERM');
await new Promise((r) => srv.on('exit', r));
fs.rmSync(work, { recursive: true, force: true });
times.sort((a, b) => a - b);
console.log(`${pageName}: save to reloaded page, median ${times[Math.floor(times.length / 2)].toFixed(0)} ms ` +
	`(min ${times[0].toFixed(0)}, max ${times[times.length - 1].toFixed(0)}; ${runs} edits); ` +
	`server memory ${Math.round(rss / 1024)} MB, peak ${Math.round(hwm / 1024)} MB`);
