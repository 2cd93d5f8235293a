// SPDX-License-Identifier: MIT
/*
 * versions.test.mjs - a versioned site's switcher and banner in chromium
 *
 * Makes a repository with three tagged versions of a docs folder (v1.0;
 * v2.0, which adds guide/new.md; v3.0-rc1, a pre-release), builds them
 * with `versions:` in quire.yml, then drives Debian's chromium (headless,
 * through playwright-core) over the site from file://: clicking another
 * version in the switcher keeps the page, or lands on its nearest parent
 * when that version lacks it; old versions and the pre-release show the
 * banner and its link leads to the same page of the latest; the latest
 * shows none; OUT/index.html redirects to the latest; OUT/latest/ shows
 * the latest's pages and its switcher leads to the other versions.
 *
 * usage: node versions.test.mjs --quire QUIRE --out DIR
 * Exit status: 0 pass, 1 fail, 77 skip (no node modules or chromium).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { CHROMIUM, args, chromium, check, done } from './harness.mjs';

const env = {
	...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent',
	GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.org',
	GIT_COMMITTER_NAME: 'C', GIT_COMMITTER_EMAIL: 'c@example.org',
	GIT_AUTHOR_DATE: '1700000000 +0000', GIT_COMMITTER_DATE: '1700000000 +0000',
};
function run(cmd, argv, cwd) {
	const r = spawnSync(cmd, argv, { cwd, env, encoding: 'utf8' });
	if (r.status !== 0)
		throw new Error(`${cmd} ${argv.join(' ')}: ${r.stderr}`);
}
function write(root, p, text) {
	fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
	fs.writeFileSync(path.join(root, p), text);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-versions-'));
const w = path.join(tmp, 'w');
fs.mkdirSync(w);
run('git', ['init', '-q', '-b', 'main'], w);
write(w, 'docs/quire.yml', 'title: App\n');
write(w, 'docs/index.md', '# App\n\nVersion one.\n');
write(w, 'docs/guide/index.md', '# Guide\n\nThe guide.\n');
write(w, 'docs/guide/use.md', '# Use\n\nUse it.\n');
run('git', ['add', '-A'], w);
run('git', ['commit', '-qm', 'one'], w);
run('git', ['tag', 'v1.0'], w);
write(w, 'docs/guide/new.md', '# New\n\nNew in two.\n');
run('git', ['add', '-A'], w);
run('git', ['commit', '-qm', 'two'], w);
run('git', ['tag', 'v2.0'], w);
run('git', ['commit', '-q', '--allow-empty', '-m', 'three'], w);
run('git', ['tag', 'v3.0-rc1'], w);
write(w, 'docs/quire.yml', 'title: App\nversions:\n' +
	'  - {rev: v3.0-rc1, label: "3.0-rc1", prerelease: true}\n' +
	'  - {rev: v2.0, label: "2.0"}\n  - {rev: v1.0, label: "1.0"}\n');
const site = path.join(path.resolve(args.out), 'versions-site');
fs.rmSync(site, { recursive: true, force: true });
run(path.resolve(args.quire), ['build', '--quiet', 'docs', '-o', site], w);

const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-chromium-'));
const ctx = await chromium.launchPersistentContext(udd, {
	executablePath: CHROMIUM, headless: true,
	args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
		'--disable-background-networking'],
});
const page = ctx.pages()[0] || await ctx.newPage();
const url = p => pathToFileURL(path.join(site, p)).href;
const where = () => path.relative(site, fileURLToPath(page.url()));
const banner = () => page.locator('.qu-version-banner').count();
try {
	await page.goto(url('1.0/guide/use.html'));
	check(await banner() === 1, 'the banner shows on 1.0');
	await page.locator('.qu-versions a', { hasText: /^2\.0$/ }).click();
	await page.waitForLoadState();
	check(where() === '2.0/guide/use.html',
		`switching to 2.0 keeps the page (${where()})`);
	check(await banner() === 0, 'no banner on the latest');
	await page.goto(url('2.0/guide/new.html'));
	await page.locator('.qu-versions a', { hasText: /^1\.0$/ }).click();
	await page.waitForLoadState();
	check(where() === '1.0/guide/index.html',
		`1.0 lacks guide/new.html: its parent (${where()})`);
	await page.locator('.qu-version-banner a').click();
	await page.waitForLoadState();
	check(where() === '2.0/guide/index.html',
		`the banner leads to the latest's page (${where()})`);
	await page.goto(url('3.0-rc1/guide/new.html'));
	check(await banner() === 1, 'the banner shows on the pre-release');
	await page.goto(url('index.html'));
	await page.waitForURL(/2\.0\/index\.html$/);
	check(where() === '2.0/index.html', `OUT/index.html goes to the latest (${where()})`);
	await page.goto(url('latest/guide/use.html'));
	check(await banner() === 0 &&
		await page.locator('h1').first().textContent() === 'Use',
		'latest/ shows the latest\'s page, with no banner');
	await page.locator('.qu-versions a', { hasText: /^1\.0$/ }).click();
	await page.waitForLoadState();
	check(where() === '1.0/guide/use.html',
		`the switcher of latest/ leads to 1.0's page (${where()})`);
} catch (e) {
	check(false, `browser: ${e.message}`);
}
await ctx.close();
fs.rmSync(udd, { recursive: true, force: true });
fs.rmSync(tmp, { recursive: true, force: true });
done('all passed');
