// SPDX-License-Identifier: MIT
/*
 * browser.test.mjs - quire's sites in a real browser
 *
 * Builds quire's own docs with `quire build`, serves the site on
 * 127.0.0.1 and drives Debian's chromium (headless, through
 * playwright-core) over it: follows a cross-reference to an item and
 * checks the item is on screen, switches to dark colours and back,
 * shrinks to a phone and checks the sidebar hides behind a menu button
 * that works (with and without JavaScript), checks that every page of
 * the docs (and a spread of kernel pages) fits a phone's width, and
 * fails on any console error, failed request or request that leaves
 * 127.0.0.1. Then the same on a zero-config site of a kernel tree, when
 * one is at hand. On both, the search: "/" focuses the box, focus loads
 * the manifest and nothing before it, a one-word query shows the symbol
 * first after at most three index files, arrows, Escape and Enter work,
 * a typo finds the symbol, a nonsense word says so, search.html ranks,
 * and all of it from file:// too.
 * Screenshots go to OUT/screenshots/.
 *
 * usage: node browser.test.mjs --out DIR (--quire QUIRE --docs DOCS | --site SITE)
 *            [--kernel-tree DIR | --kernel-site DIR | --no-kernel]
 *
 * The kernel part takes, in this order: --kernel-site (a built site),
 * --kernel-tree (a source tree to build), $QUIRE_KERNEL_SITE,
 * $QUIRE_KERNEL_TREE, else include/linux, lib, kernel and mm extracted
 * from $QUIRE_KERNEL_TARBALL (default /usr/src/linux-source-6.1.tar.xz)
 * into OUT once; it is skipped with a message when none is there.
 *
 * Exit status: 0 pass, 1 fail, 77 skip (no node modules, no chromium,
 * or a quire without the build command).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const SKIP = 77;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

function skip(msg) {
	console.log(`SKIP: ${msg}`);
	process.exit(SKIP);
}

function parseArgs(argv) {
	const a = {};
	for (let i = 0; i < argv.length; i++) {
		const k = argv[i];
		const val = () => {
			if (i + 1 >= argv.length)
				throw new Error(`${k} needs a value`);
			return argv[++i];
		};
		if (k === '--quire') a.quire = val();
		else if (k === '--docs') a.docs = val();
		else if (k === '--site') a.site = val();
		else if (k === '--out') a.out = val();
		else if (k === '--kernel-tree') a.kernelTree = val();
		else if (k === '--kernel-site') a.kernelSite = val();
		else if (k === '--no-kernel') a.noKernel = true;
		else throw new Error(`unknown argument ${k}`);
	}
	if (!a.out || !(a.site || (a.quire && a.docs)))
		throw new Error('usage: browser.test.mjs --out DIR (--quire QUIRE --docs DOCS | --site SITE) [--kernel-tree DIR | --kernel-site DIR | --no-kernel]');
	return a;
}

let args;
try {
	args = parseArgs(process.argv.slice(2));
} catch (e) {
	console.error(`browser.test: ${e.message}`);
	process.exit(2);
}

if (Number(process.versions.node.split('.')[0]) < 20)
	skip(`node ${process.versions.node} is too old for playwright-core (needs 20 or later)`);

let chromium;
try {
	({ chromium } = await import('playwright-core'));
} catch {
	skip(`playwright-core is not installed; run: npm ci --prefix ${path.relative(process.cwd(), here) || '.'}`);
}
if (!fs.existsSync(CHROMIUM))
	skip(`${CHROMIUM} not found (apt-get install chromium)`);

const out = path.resolve(args.out);
const shots = path.join(out, 'screenshots');
fs.mkdirSync(shots, { recursive: true });

/* Results ------------------------------------------------------------- */

const failures = [];
let passes = 0;

function check(cond, what) {
	if (cond) {
		passes++;
		console.log(`ok - ${what}`);
	} else {
		failures.push(what);
		console.log(`not ok - ${what}`);
	}
	return cond;
}

/* Building ------------------------------------------------------------ */

function runQuire(argv) {
	const r = spawnSync(args.quire, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
	if (r.error)
		throw r.error;
	return r;
}

function build(src, dest, what) {
	const t0 = Date.now();
	const r = runQuire(['build', src, '-o', dest]);
	const secs = ((Date.now() - t0) / 1000).toFixed(1);
	const lines = (r.stderr || '').split('\n').filter(Boolean);
	const warnings = lines.filter(l => / warning: /.test(l));
	console.log(`# quire build ${what}: exit ${r.status}, ${warnings.length} warnings, ${secs} s`);
	for (const l of lines.filter(l => !/ warning: /.test(l)).slice(-5))
		console.log(`#   ${l}`);
	if (r.status !== 0) {
		for (const l of lines.slice(0, 20))
			console.log(`#   ${l}`);
	}
	return check(r.status === 0 && fs.existsSync(path.join(dest, 'index.html')),
		     `quire build ${what} writes ${path.join(dest, 'index.html')}`);
}

let docsSite = args.site ? path.resolve(args.site) : null;
if (!docsSite) {
	const help = runQuire(['build', '--help']);
	if (help.status !== 0 && /unknown command/.test(help.stderr + help.stdout))
		skip('this quire has no build command yet');
	docsSite = path.join(out, 'site-docs');
	if (!build(path.resolve(args.docs), docsSite, 'of the docs')) {
		finish();
	}
}

function kernelSource() {
	if (args.noKernel || process.env.QUIRE_BROWSER_NO_KERNEL)
		return { why: 'turned off' };
	if (args.kernelSite)
		return { site: path.resolve(args.kernelSite) };
	if (args.kernelTree)
		return { tree: path.resolve(args.kernelTree) };
	if (process.env.QUIRE_KERNEL_SITE)
		return { site: path.resolve(process.env.QUIRE_KERNEL_SITE) };
	if (process.env.QUIRE_KERNEL_TREE)
		return { tree: path.resolve(process.env.QUIRE_KERNEL_TREE) };
	if (!args.quire)
		return { why: 'no quire to build it with' };
	const tarball = process.env.QUIRE_KERNEL_TARBALL || '/usr/src/linux-source-6.1.tar.xz';
	if (!fs.existsSync(tarball))
		return { why: `no kernel tree given and no ${tarball} (apt-get install linux-source-6.1)` };
	const top = path.basename(tarball).replace(/\.tar\.\w+$/, '');
	const dir = path.join(out, 'kernel-src');
	const tree = path.join(dir, top);
	const stamp = path.join(dir, '.extracted');
	if (!fs.existsSync(stamp)) {
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		const parts = ['include/linux', 'lib', 'kernel', 'mm'].map(p => `${top}/${p}/*`);
		console.log(`# extracting ${parts.join(' ')} from ${tarball}`);
		const r = spawnSync('tar', ['-xJf', tarball, '-C', dir, '--wildcards', ...parts],
				    { encoding: 'utf8' });
		if (r.status !== 0)
			return { why: `tar failed: ${(r.stderr || '').trim()}` };
		fs.writeFileSync(stamp, '');
	}
	return { tree };
}

/* Serving ------------------------------------------------------------- */

const types = {
	'.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8', '.svg': 'image/svg+xml',
	'.png': 'image/png', '.json': 'application/json', '.xml': 'application/xml',
	'.txt': 'text/plain; charset=utf-8', '.inv': 'application/octet-stream',
};

/* Serve each site under its own prefix: /docs/ and /kernel/. */
function serve(mounts) {
	const server = http.createServer((req, res) => {
		let url;
		try {
			url = new URL(req.url, 'http://127.0.0.1');
		} catch {
			res.writeHead(400).end();
			return;
		}
		const m = url.pathname.match(/^\/([^/]+)(\/.*)?$/);
		const root = m && mounts[m[1]];
		if (!root) {
			res.writeHead(404).end('no such site');
			return;
		}
		let rel;
		try {
			rel = decodeURIComponent(m[2] || '/');
		} catch {
			res.writeHead(400).end();
			return;
		}
		let file = path.join(root, path.normalize(rel));
		if (!file.startsWith(root)) {
			res.writeHead(403).end();
			return;
		}
		if (fs.existsSync(file) && fs.statSync(file).isDirectory())
			file = path.join(file, 'index.html');
		if (!fs.existsSync(file)) {
			const nf = path.join(root, '404.html');
			res.writeHead(404, { 'content-type': types['.html'] });
			res.end(fs.existsSync(nf) ? fs.readFileSync(nf) : 'not found');
			return;
		}
		res.writeHead(200, {
			'content-type': types[path.extname(file)] || 'application/octet-stream',
			'cache-control': 'no-store',
		});
		fs.createReadStream(file).pipe(res);
	});
	return new Promise(resolve => {
		server.listen(0, '127.0.0.1', () => resolve(server));
	});
}

/* The browser --------------------------------------------------------- */

const launchArgs = [
	'--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const tmpDirs = [];

async function launch(options = {}) {
	const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-chromium-'));
	tmpDirs.push(udd);
	return chromium.launchPersistentContext(udd, {
		executablePath: CHROMIUM,
		headless: true,
		args: launchArgs,
		viewport: DESKTOP,
		...options,
	});
}

/* Console errors, failed or outside requests, per page. */
function watch(page, origin, label) {
	page.on('console', m => {
		if (m.type() === 'error')
			check(false, `${label}: no console error (${m.text()} at ${page.url()})`);
	});
	page.on('pageerror', e => check(false, `${label}: no script error (${e.message})`));
	page.on('request', r => {
		const u = r.url();
		if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('about:'))
			check(false, `${label}: no request outside the site (${u})`);
	});
	page.on('requestfailed', r => check(false, `${label}: request does not fail (${r.url()}: ${r.failure()?.errorText})`));
	page.on('response', r => {
		if (r.status() >= 400 && r.request().resourceType() !== 'document')
			check(false, `${label}: resource loads (${r.url()}: ${r.status()})`);
	});
}

async function bodyLuminance(page) {
	return page.evaluate(() => {
		const c = getComputedStyle(document.body).backgroundColor.match(/[\d.]+/g).map(Number);
		const lin = v => {
			v /= 255;
			return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
		};
		return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
	});
}

async function noSideScroll(page, label) {
	const r = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
	check(r[0] <= r[1] + 1, `${label}: nothing wider than the screen (scrollWidth ${r[0]}, width ${r[1]})`);
}

/* The target of the URL's hash exists, is visible and is on screen
 * below the sticky header. */
async function targetOnScreen(page, label) {
	const r = await page.evaluate(() => {
		const id = decodeURIComponent(location.hash.slice(1));
		const el = document.getElementById(id);
		if (!el)
			return { id, found: false };
		const box = el.getBoundingClientRect();
		const header = document.querySelector('.qu-header');
		const hb = header ? header.getBoundingClientRect().bottom : 0;
		const cs = getComputedStyle(el);
		return {
			id, found: true, top: box.top, height: box.height, hb,
			vh: window.innerHeight,
			visible: cs.visibility !== 'hidden' && cs.display !== 'none' && box.height > 0,
		};
	});
	check(r.found, `${label}: the link's target #${r.id} exists`);
	if (!r.found)
		return false;
	check(r.visible, `${label}: #${r.id} is visible`);
	return check(r.top >= r.hb - 2 && r.top < r.vh,
		     `${label}: #${r.id} is on screen below the header (top ${Math.round(r.top)}, header ${Math.round(r.hb)}, screen ${r.vh})`);
}

/* Find a cross-reference to an item on another page, else on this one. */
async function findXref(page, base, maxPages) {
	const seen = new Set();
	const queue = [page.url()];
	let sameId = null;
	while (queue.length && seen.size < maxPages) {
		const u = queue.shift();
		if (seen.has(u))
			continue;
		seen.add(u);
		if (page.url() !== u)
			await page.goto(u);
		const found = await page.evaluate(() => {
			const here = location.href.split('#')[0];
			const links = [...document.querySelectorAll('.qu-content a.qu-xref[href*="#c."], .qu-content a[href*="#c."]')];
			const other = links.find(a => a.href.split('#')[0] !== here && !a.closest('.qu-meta'));
			const same = links.find(a => !a.closest('.qu-item-title'));
			const nav = [...document.querySelectorAll('.qu-nav a[href], .qu-content a[href]')]
				.map(a => a.href.split('#')[0]);
			return {
				other: other ? other.href : null,
				same: same ? same.href : null,
				nav,
			};
		});
		if (found.other)
			return { from: u, href: found.other };
		if (found.same && !sameId)
			sameId = { from: u, href: found.same };
		for (const n of found.nav)
			if (n.startsWith(base) && n.endsWith('.html') && !seen.has(n))
				queue.push(n);
	}
	return sameId;
}

async function followXref(page, base, label, maxPages) {
	const x = await findXref(page, base, maxPages);
	if (!check(x, `${label}: a page links to an item`))
		return false;
	if (page.url() !== x.from)
		await page.goto(x.from);
	const rel = x.href.slice(base.length);
	console.log(`# ${label}: following ${rel} from ${x.from.slice(base.length) || 'index.html'}`);
	await page.evaluate(href => {
		const a = [...document.querySelectorAll('.qu-content a[href]')].find(l => l.href === href);
		if (a)
			a.setAttribute('data-qu-test', 'xref');
	}, x.href);
	const link = page.locator('[data-qu-test="xref"]').first();
	await link.scrollIntoViewIfNeeded();
	await Promise.all([
		page.waitForURL(u => u.href === x.href || u.href.endsWith(rel)),
		link.click(),
	]);
	await page.waitForLoadState('load');
	return targetOnScreen(page, label);
}

async function phone(page, label, prefix) {
	await page.setViewportSize(PHONE);
	await page.reload();
	const sidebar = page.locator('#qu-sidebar');
	const button = page.locator('.qu-menu-button');
	check(await button.isVisible(), `${label} phone: the menu button shows`);
	check(!(await sidebar.isVisible()), `${label} phone: the sidebar is collapsed`);
	await noSideScroll(page, `${label} phone`);
	await page.screenshot({ path: path.join(shots, `${prefix}-phone.png`) });
	await button.click();
	await page.waitForFunction(() => {
		const s = document.getElementById('qu-sidebar');
		const r = s.getBoundingClientRect();
		return getComputedStyle(s).visibility === 'visible' && r.left >= -1;
	}, null, { timeout: 5000 }).catch(() => {});
	check(await sidebar.isVisible(), `${label} phone: the menu button opens the sidebar`);
	const navLink = page.locator('#qu-sidebar .qu-nav a').first();
	check(await navLink.isVisible(), `${label} phone: the navigation's links show in the open sidebar`);
	await page.screenshot({ path: path.join(shots, `${prefix}-phone-menu.png`) });
	await page.keyboard.press('Escape');
	await page.waitForTimeout(300);
	check(!(await sidebar.isVisible()), `${label} phone: Escape closes the sidebar`);
	await button.click();
	await page.waitForTimeout(300);
	await page.mouse.click(PHONE.width - 10, PHONE.height / 2);
	await page.waitForTimeout(300);
	check(!(await sidebar.isVisible()), `${label} phone: a tap beside the sidebar closes it`);
	await page.setViewportSize(DESKTOP);
}

/* Every page (or every n-th of a large site) at phone width: nothing
 * wider than the screen. Console errors are caught by watch(). */
function htmlFiles(root) {
	const out = [];
	(function walk(d, rel) {
		for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
			if (e.isDirectory() && e.name !== '_static')
				walk(path.join(d, e.name), rel + e.name + '/');
			else if (e.isFile() && e.name.endsWith('.html'))
				out.push(rel + e.name);
		}
	})(root, '');
	return out;
}

async function sweep(page, base, root, label, max) {
	const all = htmlFiles(root);
	const step = Math.max(1, Math.ceil(all.length / max));
	const pick = all.filter((_, i) => i % step === 0);
	await page.setViewportSize(PHONE);
	const wide = [];
	for (const f of pick) {
		await page.goto(base + f);
		const r = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
		if (r[0] > r[1] + 1)
			wide.push(`${f} (${r[0]}px)`);
	}
	check(!wide.length, `${label}: ${pick.length} of ${all.length} pages fit a phone's width${wide.length ? ': ' + wide.slice(0, 5).join(', ') : ''}`);
	await page.setViewportSize(DESKTOP);
}

/* quire's own docs ------------------------------------------------------ */

async function docsPart(base) {
	const ctx = await launch();
	const page = await ctx.newPage();
	watch(page, base.replace(/\/docs\/$/, ''), 'docs');
	page.setDefaultTimeout(15000);

	await page.emulateMedia({ colorScheme: 'light' });
	await page.goto(base + 'index.html');
	check(/quire/.test(await page.title()), 'docs: the home page has quire in its title');
	check(await page.locator('.qu-nav a').count() > 3, 'docs: the sidebar lists the pages');
	check(await page.locator('.qu-sidebar').isVisible(), 'docs desktop: the sidebar shows');
	check(!(await page.locator('.qu-menu-button').isVisible()), 'docs desktop: no menu button');
	check(await bodyLuminance(page) > 0.7, 'docs: light colours by default');
	await page.screenshot({ path: path.join(shots, 'docs-desktop-light.png') });

	await followXref(page, base, 'docs', 40);
	const id = await page.evaluate(() => decodeURIComponent(location.hash.slice(1)));
	const item = page.locator(`[id="${id}"]`);
	if (await item.count())
		await item.first().screenshot({ path: path.join(shots, 'docs-item.png') });
	await page.screenshot({ path: path.join(shots, 'docs-xref-target.png') });
	await noSideScroll(page, 'docs desktop');

	/* An API page: the table of contents shows on a wide screen. */
	const api = base + 'api/kdoc.html';
	await page.goto(api);
	const toc = page.locator('.qu-toc');
	if (await toc.count())
		check(await toc.isVisible(), 'docs desktop: the on-page table of contents shows');
	check(await page.locator('.qu-item .qu-decl').count() > 0, 'docs: the API page has highlighted declarations');
	await page.screenshot({ path: path.join(shots, 'docs-api-light.png') });

	await page.emulateMedia({ colorScheme: 'dark' });
	check(await bodyLuminance(page) < 0.1, 'docs: dark colours under prefers-color-scheme: dark');
	await page.screenshot({ path: path.join(shots, 'docs-desktop-dark.png') });
	await page.emulateMedia({ colorScheme: 'light' });

	/* The theme button: forces dark on a light system, persists. */
	const tb = page.locator('.qu-theme-button');
	if (check(await tb.isVisible(), 'docs: the theme button shows with JavaScript')) {
		await tb.click();
		check(await bodyLuminance(page) < 0.1, 'docs: the theme button switches to dark');
		await page.reload();
		check(await bodyLuminance(page) < 0.1, 'docs: the chosen theme survives a reload');
		await tb.click();
		await tb.click();
		check(await page.evaluate(() => !document.documentElement.hasAttribute('data-theme')),
		      'docs: the theme button comes back to following the system');
	}

	await phone(page, 'docs', 'docs');
	await sweep(page, base, docsSite, 'docs', 200);
	await ctx.close();

	/* Without JavaScript the menu still opens (it is a checkbox). */
	const nojs = await launch({ javaScriptEnabled: false, viewport: PHONE });
	const p2 = await nojs.newPage();
	await p2.goto(api);
	check(!(await p2.locator('#qu-sidebar').isVisible()), 'docs phone without JavaScript: the sidebar is collapsed');
	await p2.locator('.qu-menu-button').click();
	await p2.waitForTimeout(400);
	check(await p2.locator('#qu-sidebar').isVisible(), 'docs phone without JavaScript: the menu button opens the sidebar');
	await p2.screenshot({ path: path.join(shots, 'docs-phone-nojs-menu.png') });
	await nojs.close();
}

/* Search ------------------------------------------------------------- */

/* The hits of search.html?q=Q: [{href, text}] in rank order. */
async function resultsPage(page, url) {
	await page.goto(url);
	await page.waitForFunction(() => {
		const s = document.getElementById('search-status');
		return s && /results?|could not/.test(s.textContent);
	});
	return page.evaluate(() => [...document.querySelectorAll('#search-results > li > a')]
		.map(a => ({ href: a.getAttribute('href'), text: a.querySelector('.qu-hit-title')?.textContent })));
}

/* The drop-down's options after typing @q: [{title, kind}] */
async function typeQuery(page, q) {
	const input = page.locator('#qu-search-input');
	await input.fill('');
	await input.pressSequentially(q, { delay: 10 });
	await page.waitForFunction(want => {
		const l = document.getElementById('qu-search-list');
		const i = document.getElementById('qu-search-input');
		return l && !l.hidden && i.value === want && l.querySelector('.qu-option-all a') &&
			l.getAttribute('data-q') === want;
	}, q);
	return page.evaluate(() => [...document.querySelectorAll('#qu-search-list .qu-option:not(.qu-option-all)')]
		.map(li => ({ title: li.querySelector('.qu-hit-title').textContent,
			kind: li.querySelector('.qu-badge').textContent,
			href: li.querySelector('a').getAttribute('href') })));
}

/*
 * The search box and search.html of one site, over HTTP (@base) and
 * from file:// (@root): @t holds the queries and what they must give.
 */
async function searchPart(base, root, label, t) {
	const ctx = await launch();
	const page = await ctx.newPage();
	watch(page, base.replace(/\/[^/]+\/$/, ''), `${label} search`);
	page.setDefaultTimeout(20000);
	const index = [];
	page.on('request', r => {
		if (r.url().includes('/_search/'))
			index.push(r.url());
	});
	await page.goto(base + t.start);
	check(await page.locator('#qu-search-input').isVisible(), `${label}: the header has a search box`);
	check(index.length === 0, `${label}: no index file loads before the search box is used (${index.length})`);
	await page.keyboard.press('/');
	check(await page.evaluate(() => document.activeElement?.id === 'qu-search-input'), `${label}: "/" focuses the search box`);
	await page.waitForTimeout(300);
	check(index.length === 1 && /_search\/index\.js$/.test(index[0]), `${label}: focus loads the manifest alone (${index.join(' ')})`);

	/* one word: the symbol first, at most three files in all */
	let opts = await typeQuery(page, t.word);
	check(opts.length > 0 && opts[0].title === t.wordFirst, `${label}: "${t.word}" puts ${t.wordFirst} first (got ${opts[0]?.title})`);
	check(index.length <= 3, `${label}: "${t.word}" costs at most three index files (${index.length}: ${index.map(u => u.replace(/.*_search\//, '')).join(' ')})`);
	check(await page.locator('#qu-search-input').getAttribute('aria-expanded') === 'true', `${label}: the combobox says it is expanded`);
	check(await page.locator('#qu-search-list .qu-badge').first().textContent() === opts[0].kind && opts[0].kind.length > 0, `${label}: each result has a kind badge`);
	check(await page.locator('#qu-search-list mark').count() > 0, `${label}: the query's words are marked`);
	await page.screenshot({ path: path.join(shots, `${label}-search-dropdown.png`) });

	/* arrows move, Escape closes, Enter opens */
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('ArrowUp');
	const active = await page.locator('#qu-search-input').getAttribute('aria-activedescendant');
	check(active === 'qu-search-opt-0', `${label}: arrows move the active option (${active})`);
	check(await page.locator('#qu-search-opt-0').getAttribute('aria-selected') === 'true', `${label}: the active option is aria-selected`);
	await page.keyboard.press('Escape');
	check(await page.locator('#qu-search-list').isHidden(), `${label}: Escape closes the list`);
	await page.keyboard.press('ArrowDown');
	await page.waitForSelector('#qu-search-list:not([hidden])');
	await page.keyboard.press('ArrowDown');
	await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
	check(page.url().endsWith(opts[0].href.replace(/^.*?(?=[^/]*$)/, '')) || page.url().includes(t.wordHash),
	      `${label}: Enter opens the active result (${page.url()})`);
	await targetOnScreen(page, `${label} search result`);

	/* a typo finds the symbol */
	await page.locator('#qu-search-input').focus();
	opts = await typeQuery(page, t.typo);
	check(opts.some((o, i) => i < 3 && o.title === t.typoFinds), `${label}: the typo "${t.typo}" offers ${t.typoFinds} (got ${opts.slice(0, 3).map(o => o.title).join(', ')})`);
	await page.screenshot({ path: path.join(shots, `${label}-search-typo.png`) });
	/* a nonsense word */
	opts = await typeQuery(page, 'qqxyzzyplugh');
	check(opts.length === 0 && /No results/.test(await page.locator('.qu-option-all').textContent()), `${label}: a nonsense word says "No results"`);

	/* search.html over HTTP: the ranked list */
	for (const [q, first, within] of t.pages) {
		const hits = await resultsPage(page, `${base}search.html?q=${encodeURIComponent(q)}`);
		const at = hits.findIndex(h => h.text === first);
		check(at >= 0 && at < within, `${label}: search.html?q=${q} has ${first} in its first ${within} (at ${at + 1}; first ${hits[0]?.text})`);
	}
	await page.screenshot({ path: path.join(shots, `${label}-search-page.png`) });
	await ctx.close();

	/* from file://: the same list, scripts loaded from disk */
	const fctx = await launch();
	const fp = await fctx.newPage();
	fp.on('pageerror', e => check(false, `${label} file://: no script error (${e.message})`));
	const hits = await resultsPage(fp, `file://${root}/search.html?q=${encodeURIComponent(t.word)}`);
	check(hits.length > 0 && hits[0].text === t.wordFirst, `${label} file://: search.html finds ${t.wordFirst} first (got ${hits[0]?.text})`);
	await fp.goto(`file://${root}/${t.start}`);
	await fp.locator('#qu-search-input').focus();
	const fopts = await typeQuery(fp, t.word);
	check(fopts.length > 0 && fopts[0].title === t.wordFirst, `${label} file://: the search box works from disk`);
	await fp.screenshot({ path: path.join(shots, `${label}-search-file.png`) });
	await fctx.close();
}

/* A zero-config kernel site -------------------------------------------- */

async function kernelPart(base, root) {
	const ctx = await launch();
	const page = await ctx.newPage();
	watch(page, base.replace(/\/kernel\/$/, ''), 'kernel');
	page.setDefaultTimeout(20000);
	await page.goto(base + 'index.html');
	check(await page.locator('.qu-nav a').count() > 0, 'kernel: the sidebar lists folders');
	await page.screenshot({ path: path.join(shots, 'kernel-home.png') });

	/* list.h has many items that link to each other. */
	const start = ['include/linux/list.h.html', 'include/linux/kernel.h.html']
		.find(p => fs.existsSync(path.join(root, p)));
	if (start)
		await page.goto(base + start);
	await followXref(page, base, 'kernel', 30);
	await page.screenshot({ path: path.join(shots, 'kernel-page.png') });
	await noSideScroll(page, 'kernel desktop');
	await page.emulateMedia({ colorScheme: 'dark' });
	await page.screenshot({ path: path.join(shots, 'kernel-page-dark.png') });
	await page.emulateMedia({ colorScheme: 'light' });
	await phone(page, 'kernel', 'kernel');
	await sweep(page, base, root, 'kernel', 60);
	await ctx.close();
}

/* Main ----------------------------------------------------------------- */

function finish() {
	for (const d of tmpDirs)
		fs.rmSync(d, { recursive: true, force: true });
	console.log(`# ${passes} passed, ${failures.length} failed; screenshots in ${shots}`);
	for (const f of failures)
		console.log(`# FAIL: ${f}`);
	process.exit(failures.length ? 1 : 0);
}

const mounts = { docs: docsSite };
const k = kernelSource();
let kernelSite = k.site || null;
if (k.tree) {
	kernelSite = path.join(out, 'site-kernel');
	if (!build(k.tree, kernelSite, `of ${k.tree} (zero-config)`))
		kernelSite = null;
}
if (kernelSite)
	mounts.kernel = kernelSite;

const server = await serve(mounts);
const origin = `http://127.0.0.1:${server.address().port}`;
try {
	await docsPart(`${origin}/docs/`);
	await searchPart(`${origin}/docs/`, docsSite, 'docs', {
		start: 'index.html', word: 'qu_buf_add', wordFirst: 'qu_buf_add()', wordHash: '#c.qu_buf_add',
		typo: 'qu_bf_add', typoFinds: 'qu_buf_add()',
		pages: [['qu_kdoc_parse', 'qu_kdoc_parse()', 1], ['toctree', 'Page syntax', 5],
			['struct qu_item', 'struct qu_item', 1]],
	});
	if (kernelSite) {
		await kernelPart(`${origin}/kernel/`, kernelSite);
		await searchPart(`${origin}/kernel/`, kernelSite, 'kernel', {
			start: 'include/linux/list.h.html', word: 'list_add', wordFirst: 'list_add()', wordHash: '#c.list_add',
			typo: 'kmallco', typoFinds: 'kmalloc()',
			pages: [['kmalloc', 'kmalloc()', 1], ['rcu read lock', 'rcu_read_lock()', 1],
				['read folios not yet in the page cache', 'Readahead Overview', 5]],
		});
	}
	else
		console.log(`# SKIP kernel site: ${k.why || 'its build failed'}`);
} catch (e) {
	check(false, `no exception (${e.stack || e})`);
} finally {
	server.close();
}
finish();
