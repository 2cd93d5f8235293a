/* SPDX-License-Identifier: MIT */
/*
 * quire-search.js - the search box of every page, and search.html
 *
 * The index is in OUT/_search/ (docs/site-search.md): index.js, the manifest,
 * loaded when the search box first gets focus; t/N.js, the term shards,
 * one per word typed (two when a prefix runs into the next); d/N.js,
 * document records, only for results whose record no loaded shard has.
 * Each file is a <script> that calls quireSearch.m/.t/.d, so the index
 * loads from file:// as well as over HTTP. Loaded with defer: it never
 * blocks rendering. The box follows the ARIA combobox pattern: arrows
 * move, Enter opens, Escape closes, "/" focuses it from anywhere.
 */
(function () {
	'use strict';

	var me = document.currentScript;
	var base = me ? me.src.replace(/_static\/quire-search\.js([?#].*)?$/, '') : '';
	var DROPDOWN = 10, PAGE = 50, DEBOUNCE = 60;
	var KIND_WORDS = { 'function': 0, macro: 1, struct: 2, union: 3, 'enum': 4,
		typedef: 5, 'var': 6 };

	var state = { manifest: null, shards: {}, docs: {}, loading: {}, stop: {} };

	/* the callbacks the index files make */
	window.quireSearch = {
		m: function (m) {
			state.manifest = m;
			m.stop.forEach(function (w) { state.stop[w] = true; });
		},
		t: function (n, shard) { state.shards[n] = shard; },
		d: function (n, docs) { state.docs[n] = docs; },
		/* the ranked hits of a query, for tests and other scripts */
		query: function (q, limit) { return search(q, limit || PAGE); },
		kindName: function (k) { return state.manifest.kinds[k]; }
	};

	function load(path) {
		if (state.loading[path])
			return state.loading[path];
		var p = new Promise(function (resolve) {
			var s = document.createElement('script');
			s.src = base + '_search/' + path;
			s.async = true;
			s.onload = s.onerror = function () { resolve(); };
			document.head.appendChild(s);
		});
		state.loading[path] = p;
		return p;
	}

	function manifest() {
		return load('index.js').then(function () { return state.manifest; });
	}

	/* The words of a query, as lib/search/tokenize.c splits text. */
	function words(q) {
		var out = [], m, re = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[\p{L}\p{N}\p{M}_]+/gu;
		q = q.toLowerCase();
		while ((m = re.exec(q))) {
			var w = m[0];
			if (w.length > 64 || (w.length === 1 && w < '\x80') || state.stop[w])
				continue;
			if (out.indexOf(w) < 0)
				out.push(w);
		}
		return out;
	}

	/* the shard a term would be in: the last whose first term is <= it */
	function shardOf(m, w) {
		var lo = 0, hi = m.shards.length - 1;
		while (lo < hi) {
			var mid = (lo + hi + 1) >> 1;
			if (m.shards[mid] <= w)
				lo = mid;
			else
				hi = mid - 1;
		}
		return lo;
	}

	function shardsFor(m, w) {
		var i = shardOf(m, w), v = [i];
		if (i + 1 < m.shards.length && m.shards[i + 1].indexOf(w) === 0)
			v.push(i + 1);
		return v;
	}

	/* optimal string alignment distance, given up above @max */
	function distance(a, b, max) {
		if (Math.abs(a.length - b.length) > max)
			return max + 1;
		var prev2 = null, prev = [], cur, i, j;
		for (j = 0; j <= b.length; j++)
			prev[j] = j;
		for (i = 1; i <= a.length; i++) {
			cur = [i];
			var best = i;
			for (j = 1; j <= b.length; j++) {
				var c = a[i - 1] === b[j - 1] ? 0 : 1;
				var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + c);
				if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
					v = Math.min(v, prev2[j - 2] + 1);
				cur[j] = v;
				if (v < best)
					best = v;
			}
			if (best > max)
				return max + 1;
			prev2 = prev;
			prev = cur;
		}
		return prev[b.length];
	}

	/*
	 * The terms a word matches, with a weight: the word itself, the terms
	 * it starts, and, when neither gives anything, the terms one or two edits
	 * away (or whose start is), for symbols typed wrong.
	 */
	function matches(m, w) {
		var out = [], exact = false, nprefix = 0;
		shardsFor(m, w).forEach(function (n) {
			var sh = state.shards[n];
			if (!sh)
				return;
			for (var i = 0; i < sh.t.length; i++) {
				var t = sh.t[i];
				if (t === w) {
					out.push({ shard: sh, i: i, f: 1 });
					exact = true;
				} else if (t.length > w.length && t.lastIndexOf(w, 0) === 0 && nprefix < 80) {
					out.push({ shard: sh, i: i, f: 0.55 + 0.3 * w.length / t.length });
					nprefix++;
				}
			}
		});
		if (exact || nprefix || w.length < 4)
			return out;
		var max = w.length >= 8 ? 2 : 1;
		var sh = state.shards[shardOf(m, w)];
		if (!sh)
			return out;
		for (var i = 0; i < sh.t.length; i++) {
			var t = sh.t[i];
			if (distance(w, t, max) <= max)
				out.push({ shard: sh, i: i, f: 0.5, near: t });
			else if (t.length > w.length && distance(w, t.slice(0, w.length), max) <= max)
				out.push({ shard: sh, i: i, f: 0.3 });
		}
		return out;
	}

	/*
	 * A document's record, from any loaded shard: [kind, name, URL,
	 * path, snippet]. In the files a record is [kind, name, page,
	 * anchor, snippet, path]: page and path are places in the file's
	 * string list, an item's anchor is left out when it is the usual
	 * c.NAME, and the path when it is the page without ".html".
	 */
	function resolve(r, strs) {
		var anchor = r[3] || (r[0] < 7 ? 'c.' + r[1] : '');
		var page = strs[r[2]];
		var path = r.length > 5 ? strs[r[5]] : page.replace(/\.html$/, '');
		return [r[0], r[1], page + (anchor ? '#' + anchor : ''), path, r[4]];
	}

	function record(id) {
		var k, r;
		for (k in state.shards)
			if ((r = state.shards[k].d[id]))
				return resolve(r, state.shards[k].s);
		var m = state.manifest, ds = state.docs[Math.floor(id / m.dshard)];
		r = ds && ds.d[id % m.dshard];
		return r ? resolve(r, ds.s) : null;
	}

	/* 64 digits: 0-31 end a number, 32-63 go on (five bits each) */
	var DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
	var VALUE = {};
	for (var d = 0; d < 64; d++)
		VALUE[DIGITS.charCodeAt(d)] = d;

	/* a term's postings: pairs of document-number step and score digit */
	function postings(str, fn) {
		var i = 0, id = 0;
		while (i < str.length) {
			var acc = 0, v;
			while ((v = VALUE[str.charCodeAt(i++)]) >= 32)
				acc = acc * 32 + (v - 32);
			id += acc * 32 + v;
			v = VALUE[str.charCodeAt(i++)];
			/* the level back to a score; 32 and up: a title hit */
			fn(id, Math.pow(2, (v & 31) / 7) - 1, v >= 32);
		}
	}

	function title(rec) {
		var kind = state.manifest.kinds[rec[0]];
		if (kind === 'function' || kind === 'macro')
			return rec[1] + '()';
		if (kind === 'struct' || kind === 'union' || kind === 'enum')
			return kind + ' ' + rec[1];
		return rec[1];
	}

	/*
	 * Rank: an exact symbol name first, then a symbol the query starts
	 * (shortest first), then documents with every word in a title,
	 * heading or name, then the rest; by BM25 score inside each tier.
	 */
	function search(q, limit) {
		return manifest().then(function (m) {
			if (!m)
				return { error: true, hits: [] };
			var ws = words(q), kind = -1;
			if (ws.length > 1) {
				ws = ws.filter(function (w) {
					if (w in KIND_WORDS && kind < 0) {
						kind = KIND_WORDS[w];
						return false;
					}
					return true;
				});
			}
			if (!ws.length)
				return { hits: [] };
			function loadAll(list) {
				var need = [];
				list.forEach(function (w) {
					shardsFor(m, w).forEach(function (n) {
						if (need.indexOf(n) < 0)
							need.push(n);
					});
				});
				return Promise.all(need.map(function (n) { return load('t/' + n + '.js'); }));
			}
			if (ws.length === 1)
				return loadAll(ws).then(function () { return rank(m, q, ws, kind, limit, null, ws); });
			/*
			 * Several words: first as one identifier joined by "_"
			 * ("rcu read lock" is rcu_read_lock), which costs the one
			 * shard it would be in; when the index has it, the query is
			 * that identifier. Else every word's shard.
			 */
			var joined = ws.join('_');
			return loadAll([joined]).then(function () {
				var has = shardsFor(m, joined).some(function (n) {
					return state.shards[n] && state.shards[n].t.indexOf(joined) >= 0;
				});
				if (has)
					return rank(m, q, [joined], kind, limit, null, ws.concat([joined]));
				return loadAll(ws).then(function () { return rank(m, q, ws, kind, limit, joined, ws); });
			});
		});
	}

	function rank(m, q, ws, kind, limit, joined, marks) {
		var near = {};
		var per = ws.map(function (w) {
			var docs = {};
			matches(m, w).forEach(function (mt) {
				if (mt.near)
					near[mt.near] = true;
				postings(mt.shard.p[mt.i], function (id, s, title) {
					s *= mt.f;
					var o = docs[id];
					if (!o || o.s < s)
						docs[id] = { s: s, t: title || !!(o && o.t) };
					else if (title)
						o.t = true;
				});
			});
			return docs;
		});
		var cand = [], id, j;
		for (id in per[0]) {
			var s = 0, t = true, all = true;
			for (j = 0; j < per.length; j++) {
				var o = per[j][id];
				if (!o) { all = false; break; }
				s += o.s;
				t = t && o.t;
			}
			if (all)
				cand.push({ id: +id, s: s, t: t });
		}
		if (!cand.length && per.length > 1) {
			/* no document has every word: the ones with most */
			var any = {};
			per.forEach(function (docs) {
				for (var id2 in docs) {
					var a = any[id2] || (any[id2] = { id: +id2, s: 0, t: false, n: 0 });
					a.s += docs[id2].s;
					a.n++;
				}
			});
			for (id in any)
				cand.push(any[id]);
			cand.sort(function (a, b) { return b.n - a.n || b.s - a.s; });
			cand = cand.filter(function (c) { return c.n === cand[0].n; });
		}
		if (joined) {
			/* the words joined by "_" as one identifier: as good as all */
			var byId = {};
			cand.forEach(function (c) { byId[c.id] = c; });
			shardsFor(m, joined).forEach(function (n) {
				var sh = state.shards[n], i = sh ? sh.t.indexOf(joined) : -1;
				if (i < 0)
					return;
				postings(sh.p[i], function (id, s) {
					var c = byId[id];
					if (!c)
						cand.push(byId[id] = c = { id: id, s: 0, t: true });
					c.s += 2 * s;
					c.t = true;
				});
			});
		}
		var ql = ws.join(' '), qn = q.trim().toLowerCase(), qj = joined || ql;

		/* the tier of a candidate; without its record, by its title hits */
		function tier(c) {
			var rec = c.rec = record(c.id);
			if (!rec)
				return c.t ? 2 : 3;
			var name = rec[1].toLowerCase(), sym = rec[0] < 7;
			if (name === ql || name === qn || name === qj)
				return 0;
			/* a symbol the word starts, or one a typo away */
			if (sym && ws.length === 1 && (name.lastIndexOf(ws[0], 0) === 0 || near[name]))
				return 1;
			return c.t ? 2 : 3;
		}

		function order(a, b) {
			return (a.tier - b.tier) ||
				(a.tier === 1 ? a.rec[1].length - b.rec[1].length : 0) ||
				(b.s - a.s) || (a.id - b.id);
		}

		function ranked() {
			cand.forEach(function (c) { c.tier = tier(c); });
			cand = cand.filter(function (c) { return kind < 0 || !c.rec || c.rec[0] === kind; });
			cand.sort(order);
		}

		ranked();
		/*
		 * The records the best candidates lack, from document shards.
		 * A term shard holds the records of its terms' best documents,
		 * which are the best candidates of a one-word query: the
		 * drop-down fetches none for it (at most three files in all).
		 * Longer queries take one for the drop-down, a few for
		 * search.html.
		 */
		var missing = [], most = ws.length === 1 && limit <= DROPDOWN ? 0 :
			limit <= DROPDOWN ? 1 : 6;
		cand.slice(0, limit).forEach(function (c) {
			if (!c.rec) {
				var n = Math.floor(c.id / m.dshard);
				if (missing.indexOf(n) < 0 && missing.length < most)
					missing.push(n);
			}
		});
		return Promise.all(missing.map(function (n) { return load('d/' + n + '.js'); }))
			.then(function () {
				if (missing.length)
					ranked();
				var hits = [];
				cand.forEach(function (c) {
					if (c.rec && hits.length < limit)
						hits.push({ id: c.id, rec: c.rec, tier: c.tier, s: c.s });
				});
				return { hits: hits, words: marks };
			});
	}

	/* @text with the query's words (and what they start) in <mark> */
	function marked(parent, text, ws) {
		var esc = ws.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); });
		var re = esc.length ? new RegExp('(' + esc.join('|') + ')', 'giu') : null;
		var last = 0, m;
		while (re && (m = re.exec(text))) {
			if (!m[0].length)
				break;
			parent.appendChild(document.createTextNode(text.slice(last, m.index)));
			var mk = document.createElement('mark');
			mk.textContent = m[0];
			parent.appendChild(mk);
			last = m.index + m[0].length;
		}
		parent.appendChild(document.createTextNode(text.slice(last)));
	}

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text != null)
			e.textContent = text;
		return e;
	}

	/* one result: kind badge, title, path, snippet; inside an <a> */
	function hitLink(hit, ws) {
		var rec = hit.rec, kind = state.manifest.kinds[rec[0]];
		var a = el('a', 'qu-hit');
		a.href = base + rec[2];
		a.appendChild(el('span', 'qu-badge qu-badge-' + kind, kind));
		var t = el('span', 'qu-hit-title');
		marked(t, title(rec), ws);
		a.appendChild(t);
		a.appendChild(el('span', 'qu-hit-path', rec[3]));
		if (rec[4]) {
			var sn = el('span', 'qu-hit-snippet');
			marked(sn, rec[4], ws);
			a.appendChild(sn);
		}
		return a;
	}

	function setupBox() {
		var box = document.querySelector('.qu-search');
		var input = box && box.querySelector('input');
		var list = box && box.querySelector('[role=listbox]');
		if (!input || !list)
			return;
		box.hidden = false;
		var timer = 0, active = -1, serial = 0;

		function options() { return list.querySelectorAll('[role=option]'); }

		function setActive(i) {
			var opts = options();
			if (active >= 0 && opts[active])
				opts[active].setAttribute('aria-selected', 'false');
			active = opts.length ? (i + opts.length) % opts.length : -1;
			if (active >= 0) {
				opts[active].setAttribute('aria-selected', 'true');
				input.setAttribute('aria-activedescendant', opts[active].id);
				opts[active].scrollIntoView({ block: 'nearest' });
			} else {
				input.removeAttribute('aria-activedescendant');
			}
		}

		function close() {
			list.hidden = true;
			input.setAttribute('aria-expanded', 'false');
			input.removeAttribute('aria-activedescendant');
			active = -1;
		}

		function allUrl(q) { return base + 'search.html?q=' + encodeURIComponent(q); }

		function show(res, q) {
			list.textContent = '';
			active = -1;
			res.hits.forEach(function (h, i) {
				var li = el('li', 'qu-option');
				li.id = 'qu-search-opt-' + i;
				li.setAttribute('role', 'option');
				li.setAttribute('aria-selected', 'false');
				li.appendChild(hitLink(h, res.words || []));
				list.appendChild(li);
			});
			var li = el('li', 'qu-option qu-option-all');
			li.id = 'qu-search-opt-all';
			li.setAttribute('role', 'option');
			li.setAttribute('aria-selected', 'false');
			var a = el('a', null, res.error ? 'The search index could not be loaded' :
				res.hits.length ? 'All results for \u201c' + q + '\u201d' :
				'No results for \u201c' + q + '\u201d');
			a.href = allUrl(q);
			li.appendChild(a);
			list.appendChild(li);
			list.setAttribute('data-q', q);
			list.hidden = false;
			input.setAttribute('aria-expanded', 'true');
		}

		function run() {
			var q = input.value, my = ++serial;
			if (!q.trim()) {
				close();
				return;
			}
			search(q, DROPDOWN).then(function (res) {
				if (my === serial && input.value === q)
					show(res, q);
			});
		}

		input.addEventListener('focus', function () { manifest(); });
		input.addEventListener('input', function () {
			clearTimeout(timer);
			timer = setTimeout(run, DEBOUNCE);
		});
		input.addEventListener('keydown', function (e) {
			if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
				if (list.hidden) {
					run();
					return;
				}
				e.preventDefault();
				setActive(active + (e.key === 'ArrowDown' ? 1 : -1));
			} else if (e.key === 'Enter') {
				e.preventDefault();
				var opts = options();
				var a = active >= 0 && opts[active] ? opts[active].querySelector('a') : null;
				if (a)
					window.location.href = a.href;
				else if (input.value.trim())
					window.location.href = allUrl(input.value);
			} else if (e.key === 'Escape') {
				if (!list.hidden) {
					/* a search input would clear itself too */
					e.preventDefault();
					close();
				} else {
					input.value = '';
					input.blur();
				}
			}
		});
		input.addEventListener('blur', function () {
			setTimeout(function () {
				if (!box.contains(document.activeElement))
					close();
			}, 150);
		});
		list.addEventListener('mousedown', function (e) { e.preventDefault(); });
		document.addEventListener('keydown', function (e) {
			var t = e.target, tag = t && t.tagName;
			if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey ||
			    tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' ||
			    (t && t.isContentEditable))
				return;
			e.preventDefault();
			input.focus();
			input.select();
		});
	}

	function setupPage() {
		var ol = document.getElementById('search-results');
		var status = document.getElementById('search-status');
		var input = document.getElementById('search-input');
		if (!ol)
			return;
		var q = new URLSearchParams(window.location.search).get('q') || '';
		if (input)
			input.value = q;
		if (!q.trim()) {
			if (status)
				status.textContent = 'Type a symbol, a title or words of the text.';
			return;
		}
		document.title = 'Search: ' + q + ' \u2014 ' + document.title.replace(/^.*\u2014 /, '');
		if (status)
			status.textContent = 'Searching\u2026';
		search(q, PAGE).then(function (res) {
			ol.textContent = '';
			res.hits.forEach(function (h) {
				var li = el('li', 'qu-result');
				li.appendChild(hitLink(h, res.words || []));
				ol.appendChild(li);
			});
			if (status)
				status.textContent = res.error ? 'The search index could not be loaded.' :
					res.hits.length ? res.hits.length + (res.hits.length === PAGE ? '+' : '') +
					(res.hits.length === 1 ? ' result' : ' results') + ' for \u201c' + q + '\u201d' :
					'No results for \u201c' + q + '\u201d.';
		});
	}

	function start() {
		setupBox();
		setupPage();
	}

	if (document.readyState === 'loading')
		document.addEventListener('DOMContentLoaded', start);
	else
		start();
})();
