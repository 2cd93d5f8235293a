// SPDX-License-Identifier: MIT
/*
 * harness.mjs - what graphs.test.mjs and versions.test.mjs share: their
 * "--name value" arguments, the skip (exit 77) when playwright-core or
 * Debian's chromium is missing, the "ok:"/"FAIL:" line of each check and
 * the exit status at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const args = {};
for (let i = 2; i < process.argv.length; i += 2)
	args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

function skip(msg) {
	console.log(`SKIP: ${msg}`);
	process.exit(77);
}
let pw;
try {
	pw = await import('playwright-core');
} catch {
	skip(`playwright-core is not installed; run: npm ci --prefix ${here}`);
}
if (!fs.existsSync(CHROMIUM))
	skip(`${CHROMIUM} not found`);
export const chromium = pw.chromium;

const failures = [];
export function check(ok, what) {
	console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
	if (!ok)
		failures.push(what);
}

/* Exit 1 when a check failed, else print @msg. */
export function done(msg) {
	if (failures.length) {
		console.log(`${failures.length} failed`);
		process.exit(1);
	}
	console.log(msg);
}
