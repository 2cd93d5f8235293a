// SPDX-License-Identifier: MIT
/*
 * browser.mjs - quire serve's live reload in a real browser
 *
 * Starts `quire serve` on a copy of quire's docs and opens a page in
 * Debian's chromium (headless, through test/browser's playwright-core):
 * an edit to that page reloads it by itself, at the same scroll position;
 * a broken build shows the overlay with the message over the last good
 * page; the fix removes it; a tab on another page is not reloaded by an
 * edit that does not touch it. Screenshots go to OUT/.
 *
 * usage: node browser.mjs QUIRE SOURCE_ROOT OUT
 * Exit status: 0 pass, 1 fail, 77 skip (no chromium or node modules).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const [quire, root, out] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
let chromium;
try {
	const req = createRequire(path.join(root, 'test', 'browser', 'package.json'));
	({ chromium } = req('playwright-core'));
} catch (e) {
	console.log('SKIP: playwright-core not installed (npm ci --prefix test/browser)');
	process.exit(77);
}
if (!fs.existsSync(CHROMIUM)) {
	console.log(`SKIP: ${CHROMIUM} not found (apt-get install chromium)`);
	process.exit(77);
}
fs.mkdirSync(out, { recursive: true });

let failed = 0;
const fail = (m) => { failed++; console.log(`FAIL: ${m}`); };
const ok = (m) => console.log(`ok: ${m}`);

function copy(from, to, keep) {
	fs.mkdirSync(to, { recursive: true });
	for (const e of fs.readdirSync(from, { withFileTypes: true })) {
		const a = path.join(from, e.name), b = path.join(to, e.name);
		if (e.isDirectory()) copy(a, b, keep);
		else if (keep(e.name)) fs.copyFileSync(a, b);
	}
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-serve-browser-'));
copy(path.join(root, 'docs'), path.join(work, 'docs'), () => true);
copy(path.join(root, 'lib'), path.join(work, 'lib'), (n) => n.endsWith('.h'));
const docs = path.join(work, 'docs');

const srv = spawn(quire, ['serve', docs, '--port', '0'], {
	env: { ...process.env, QUIRE_THEMES: path.join(root, 'themes'), TMPDIR: work },
	stdio: ['ignore', 'ignore', 'pipe'],
});
let log = '';
let builds = 0;
const port = await new Promise((resolve, reject) => {
	const t = setTimeout(() => reject(new Error('quire serve did not start: ' + log)), 60000);
	srv.stderr.on('data', (d) => {
		log += d;
		builds = (log.match(/^quire serve: build \d+/gm) || []).length;
		const m = log.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
		if (m) { clearTimeout(t); resolve(+m[1]); }
	});
});
const waitBuilds = async (n) => {
	for (let i = 0; i < 300 && builds < n; i++)
		await new Promise((r) => setTimeout(r, 100));
	return builds >= n;
};

const udd = fs.mkdtempSync(path.join(work, 'chromium-'));
const ctx = await chromium.launchPersistentContext(udd, {
	executablePath: CHROMIUM, headless: true,
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	viewport: { width: 1200, height: 800 },
});
try {
	const page = await ctx.newPage();
	const other = await ctx.newPage();
	page.setDefaultTimeout(20000);
	const base = `http://127.0.0.1:${port}/`;
	await page.goto(base + 'warnings.html');
	await other.goto(base + 'json.html');
	await page.waitForFunction(() => document.readyState === 'complete');
	await page.evaluate(() => scrollTo(0, 1200));
	await new Promise((r) => setTimeout(r, 300));
	const before = await page.evaluate(() => scrollY);
	let otherLoads = 0;
	other.on('load', () => otherLoads++);

	// an edit to the page reloads it, at the same place
	const md = path.join(docs, 'warnings.md');
	const loaded = page.waitForEvent('load');
	const n0 = builds;
	fs.appendFileSync(md, '\nLive reload works.\n');
	await waitBuilds(n0 + 1);
	await loaded;
	await page.waitForFunction(() => document.body.innerText.includes('Live reload works.'));
	await new Promise((r) => setTimeout(r, 500));
	const after = await page.evaluate(() => scrollY);
	if (Math.abs(after - before) > 2) fail(`scroll position ${before} became ${after}`);
	else ok(`the edited page reloaded itself at scroll ${after}`);
	if (otherLoads) fail('a page the edit did not touch was reloaded');
	else ok('the other tab was left alone');
	await page.screenshot({ path: path.join(out, 'serve-reloaded.png') });

	// a broken build: the overlay over the last good page
	const cfg = path.join(docs, 'quire.yml');
	const good = fs.readFileSync(cfg, 'utf8');
	const n1 = builds;
	fs.writeFileSync(cfg, good + 'theme: no-such-theme\n');
	await waitBuilds(n1 + 1);
	const overlay = await page.waitForSelector('#quire-overlay', { timeout: 15000 }).catch(() => null);
	if (!overlay) fail('no overlay after a broken build');
	else {
		const t = await overlay.innerText();
		if (!t.includes('no-such-theme')) fail(`the overlay says: ${t}`);
		else ok('a broken build shows the overlay with the message');
		await page.screenshot({ path: path.join(out, 'serve-overlay.png') });
	}
	fs.writeFileSync(cfg, good);
	await waitBuilds(n1 + 2);
	await page.waitForFunction(() => !document.getElementById('quire-overlay'), null, { timeout: 15000 })
		.then(() => ok('the fix removes the overlay'))
		.catch(() => fail('the overlay stayed after the fix'));
} catch (e) {
	fail(String(e && e.stack || e));
} finally {
	await ctx.close();
	srv.kill('SIGTERM');
	await new Promise((r) => srv.on('exit', r));
	fs.rmSync(work, { recursive: true, force: true });
}
console.log(failed ? `${failed} failed` : 'all live-reload checks passed');
process.exit(failed ? 1 : 0);
