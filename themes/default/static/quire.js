/* SPDX-License-Identifier: MIT */
/*
 * quire.js - small enhancements for the default theme
 *
 * Every page works without this file. It adds: a light/dark/auto toggle
 * remembered in localStorage, keyboard and focus handling for the menu on
 * narrow screens, the current section highlighted in the on-page table of
 * contents, and the current page scrolled into view in a long sidebar.
 * It is loaded in <head> so the chosen theme applies before first paint;
 * the rest waits for the document. No network, no framework.
 */
(function () {
	'use strict';

	var KEY = 'quire-theme';
	var root = document.documentElement;

	function stored() {
		try {
			var t = window.localStorage.getItem(KEY);
			return t === 'light' || t === 'dark' ? t : null;
		} catch (e) {
			return null;
		}
	}

	function apply(theme) {
		if (theme)
			root.setAttribute('data-theme', theme);
		else
			root.removeAttribute('data-theme');
	}

	apply(stored());

	function setupTheme() {
		var button = document.querySelector('.qu-theme-button');
		if (!button)
			return;
		var names = { auto: 'follows the system', light: 'light', dark: 'dark' };
		function label() {
			var t = stored() || 'auto';
			var text = 'Colour theme: ' + names[t] + ' (click to change)';
			button.setAttribute('title', text);
			button.setAttribute('aria-label', text);
		}
		button.addEventListener('click', function () {
			/* auto -> the opposite of what the system shows -> the
			 * other one -> auto, so every state is one or two clicks
			 * away and the first click always changes the colours. */
			var sysDark = window.matchMedia &&
				window.matchMedia('(prefers-color-scheme: dark)').matches;
			var cur = stored();
			var next;
			if (!cur)
				next = sysDark ? 'light' : 'dark';
			else if ((cur === 'dark') === sysDark)
				next = null;
			else
				next = cur === 'dark' ? 'light' : 'dark';
			try {
				if (next)
					window.localStorage.setItem(KEY, next);
				else
					window.localStorage.removeItem(KEY);
			} catch (e) {
				/* storage disabled: still switch for this page */
			}
			apply(next);
			label();
		});
		button.hidden = false;
		label();
	}

	function setupMenu() {
		var toggle = document.getElementById('qu-menu');
		var sidebar = document.getElementById('qu-sidebar');
		if (!toggle || !sidebar)
			return;
		var button = document.querySelector('.qu-menu-button');
		function sync() {
			toggle.setAttribute('aria-expanded', toggle.checked ? 'true' : 'false');
			if (button)
				button.setAttribute('aria-expanded', toggle.checked ? 'true' : 'false');
		}
		function close() {
			if (toggle.checked) {
				toggle.checked = false;
				sync();
			}
		}
		if (button) {
			button.setAttribute('role', 'button');
			button.setAttribute('tabindex', '0');
			button.setAttribute('aria-controls', 'qu-sidebar');
			button.addEventListener('keydown', function (ev) {
				if (ev.key === 'Enter' || ev.key === ' ') {
					ev.preventDefault();
					toggle.checked = !toggle.checked;
					sync();
				}
			});
			/* the label is the visible control now; keep one tab stop */
			toggle.setAttribute('tabindex', '-1');
		}
		toggle.addEventListener('change', sync);
		document.addEventListener('keydown', function (ev) {
			if (ev.key === 'Escape' && toggle.checked) {
				close();
				if (button)
					button.focus();
			}
		});
		sidebar.addEventListener('click', function (ev) {
			var a = ev.target.closest && ev.target.closest('a');
			if (a)
				close();
		});
		sync();
	}

	/* where @el is inside the scrolling box @box, in its content */
	function offsetIn(el, box) {
		return el.getBoundingClientRect().top -
			box.getBoundingClientRect().top + box.scrollTop;
	}

	function setupNav() {
		var cur = document.querySelector('.qu-nav li.current > a');
		var sidebar = document.getElementById('qu-sidebar');
		if (!cur || !sidebar)
			return;
		var top = offsetIn(cur, sidebar);
		if (top > sidebar.clientHeight * 0.6)
			sidebar.scrollTop = top - sidebar.clientHeight / 3;
	}

	/* The current section: the last heading above the upper third of
	 * the window (the first one before any is). */
	function setupToc() {
		var toc = document.querySelector('.qu-toc');
		if (!toc || !window.requestAnimationFrame)
			return;
		var links = [];
		var targets = [];
		var as = toc.querySelectorAll('a[href^="#"]');
		for (var i = 0; i < as.length; i++) {
			var id = decodeURIComponent(as[i].getAttribute('href').slice(1));
			var el = document.getElementById(id);
			if (el) {
				links.push(as[i]);
				targets.push(el);
			}
		}
		if (!targets.length)
			return;
		var active = null;
		var pending = false;
		function mark() {
			pending = false;
			var line = window.innerHeight / 3;
			var best = 0;
			for (var i = 0; i < targets.length; i++) {
				if (targets[i].getBoundingClientRect().top <= line)
					best = i;
				else
					break;
			}
			/* at the very bottom, the last heading may never get
			 * that high: take it then */
			if (window.innerHeight + window.scrollY >=
			    document.documentElement.scrollHeight - 2)
				while (best + 1 < targets.length &&
				       targets[best + 1].getBoundingClientRect().top < window.innerHeight)
					best++;
			var a = links[best];
			if (a === active)
				return;
			if (active)
				active.classList.remove('qu-active');
			a.classList.add('qu-active');
			active = a;
			/* keep it in sight in a long table of contents,
			 * scrolling the table only, never the page */
			var top = offsetIn(a, toc);
			if (toc.scrollHeight > toc.clientHeight &&
			    (top < toc.scrollTop ||
			     top + a.offsetHeight > toc.scrollTop + toc.clientHeight))
				toc.scrollTop = top - toc.clientHeight / 3;
		}
		function later() {
			if (!pending) {
				pending = true;
				window.requestAnimationFrame(mark);
			}
		}
		window.addEventListener('scroll', later, { passive: true });
		window.addEventListener('resize', later);
		mark();
	}

	function ready() {
		setupTheme();
		setupMenu();
		setupNav();
		setupToc();
	}

	if (document.readyState === 'loading')
		document.addEventListener('DOMContentLoaded', ready);
	else
		ready();
})();
