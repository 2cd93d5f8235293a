#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The reference side of quire's reST tests: docutils' own parse tree.

Parses reST files with docutils' parser alone (no transforms: references
stay unresolved, the document title is not promoted, footnotes are not
numbered), which is what quire's lib/rst reader produces, and prints the
tree in docutils' pseudo-XML. Sphinx's and the kernel's directives and
roles are registered generically, the way quire keeps them:

  <directive name="NAME">            a directive docutils does not know
      <directive_arguments>          its argument text, if any
      <directive_option name="OPT">  each option, value as text
      <directive_content>            nested parse or raw text, per DIRECTIVES
  <role name="NAME">TEXT             interpreted text with a role docutils
                                     does not know, TEXT unescaped

System messages are left out (quire reports them as diagnostics on stderr),
and problematic nodes lose their ids and refid.

usage: docutils_tree.py FILE...        pseudo-XML of each, in order
       docutils_tree.py --each OUTDIR ROOT FILE...
           writes OUTDIR/<FILE relative to ROOT>.xml for each, using two
           processes; a file docutils fails on gets "FAILED: reason"
"""
import os
import sys
import warnings

warnings.simplefilter('ignore', DeprecationWarning)

import docutils
import docutils.frontend
import docutils.nodes as nodes
import docutils.parsers.rst as rst
import docutils.utils
from docutils.parsers.rst import directives, roles

# Directive name -> how its content is kept: 'nested' (parsed as body
# elements) or 'raw' (text). Shared with lib/rst/directives.def.
DIRECTIVES = {}


def load_table():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, '..', '..', 'lib', 'rst', 'directives.def')
    import re
    with open(path) as f:
        for m in re.finditer(r'^RST_DIRECTIVE\(\s*\w+,\s*"([^"]+)",\s*'
                             r'RST_CONTENT_(\w+)', f.read(), re.M):
            DIRECTIVES[m.group(1)] = m.group(2).lower()


class directive(nodes.Element):
    pass


class directive_arguments(nodes.TextElement):
    pass


class directive_option(nodes.TextElement):
    pass


class directive_content(nodes.Element):
    pass


class role(nodes.Inline, nodes.TextElement):
    pass


class AnyOption(dict):
    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return directives.unchanged

    def __bool__(self):
        return True


def make_directive(name, kind):
    class Generic(rst.Directive):
        required_arguments = 0
        optional_arguments = 1
        final_argument_whitespace = True
        option_spec = AnyOption()
        has_content = True

        def run(self):
            node = directive(name=self.name)
            if self.arguments:
                node += directive_arguments('', self.arguments[0])
            for key, value in self.options.items():
                node += directive_option('', value or '', name=key)
            if self.content:
                c = directive_content()
                if kind == 'nested':
                    self.state.nested_parse(self.content, self.content_offset,
                                            c)
                elif kind == 'titled':
                    # Sphinx's nested_parse_with_titles()
                    memo = self.state.memo
                    styles, level = memo.title_styles, memo.section_level
                    memo.title_styles, memo.section_level = [], 0
                    try:
                        self.state.nested_parse(self.content,
                                                self.content_offset, c,
                                                match_titles=True)
                    finally:
                        memo.title_styles, memo.section_level = styles, level
                else:
                    c += nodes.Text('\n'.join(self.content))
                node += c
            return [node]
    return Generic


def generic_role(name, rawtext, text, lineno, inliner, options={},
                 content=[]):
    return [role('', docutils.utils.unescape(text), name=name)], []


class Reporter(docutils.utils.Reporter):
    pass


def settings():
    s = docutils.frontend.OptionParser(
        components=(rst.Parser,)).get_default_values()
    s.report_level = 5
    s.halt_level = 5
    s.warning_stream = open(os.devnull, 'w')
    s.file_insertion_enabled = False
    s.raw_enabled = True
    s.tab_width = 8
    return s


def install():
    load_table()
    for name, kind in DIRECTIVES.items():
        if kind == 'native':
            continue
        directives.register_directive(name, make_directive(name, kind))
    # Unknown directives: generic, raw content, as quire keeps them.
    orig_dir = directives.directive

    def dlookup(name, language_module, document):
        cls, msgs = orig_dir(name, language_module, document)
        if cls is None:
            return make_directive(name, 'raw'), []
        return cls, msgs
    directives.directive = dlookup
    rst.states.directives.directive = dlookup
    # Unknown roles: docutils asks roles._role_registry, then the
    # language module; wrap the lookup so any name is generic.
    orig = roles.role

    def lookup(role_name, language_module, lineno, reporter):
        fn, msgs = orig(role_name, language_module, lineno, reporter)
        if role_name and (fn is None or
                          role_name.lower() not in NATIVE_ROLES):
            return (lambda *a, **k: generic_role(role_name, *a[1:], **k)), []
        return fn, msgs
    roles.role = lookup
    rst.states.roles.role = lookup


# Roles built as docutils builds them (lib/rst/inline.c's native_roles);
# every other role, docutils' own math or code included, stays generic.
NATIVE_ROLES = {'emphasis', 'strong', 'literal', 'sub', 'subscript', 'sup',
                'superscript', 'title-reference', 'title', 't'}


def clean(node):
    for m in list(node.findall(nodes.system_message)):
        m.parent.remove(m)
    for p in node.findall(nodes.problematic):
        p['ids'] = []
        p.attributes.pop('refid', None)


def tree(path, text=None):
    if text is None:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    doc = docutils.utils.new_document(path, settings())
    rst.Parser().parse(text, doc)
    clean(doc)
    return doc.pformat()


def one(job):
    out, root, path = job
    dest = os.path.join(out, os.path.relpath(path, root) + '.xml')
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    try:
        res = tree(path)
    except Exception as e:  # docutils' own failures are data here
        res = 'FAILED: %s: %s\n' % (type(e).__name__, e)
    with open(dest, 'w') as f:
        f.write(res)


def main(argv):
    install()
    if argv and argv[0] == '--each':
        out, root, files = argv[1], argv[2], argv[3:]
        import multiprocessing
        with multiprocessing.Pool(2) as pool:
            pool.map(one, [(out, root, p) for p in files], chunksize=16)
        return 0
    for p in argv:
        sys.stdout.write(tree(p))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
