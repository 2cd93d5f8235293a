# SPDX-License-Identifier: MIT
"""Read docutils' pseudo-XML back into a summary, the same way for
quire's dump and docutils' own output: the count of each element, and the
sections in order as (title text, ids)."""
import re

TAG = re.compile(r'^( *)<([a-z_]+)((?: [a-z:_]+="[^"]*")*)>$')
IDS = re.compile(r' ids="([^"]*)"')


def summary(text):
    counts = {}
    sections = []
    lines = text.split('\n')
    i = 0
    n = len(lines)
    while i < n:
        m = TAG.match(lines[i])
        if m:
            tag = m.group(2)
            counts[tag] = counts.get(tag, 0) + 1
            if tag == 'section':
                ind = len(m.group(1))
                ids = IDS.search(m.group(3))
                title = []
                j = i + 1
                t = TAG.match(lines[j]) if j < n else None
                if t and t.group(2) == 'title' and len(t.group(1)) == ind + 4:
                    j += 1
                    while j < n:
                        lj = lines[j]
                        k = len(lj) - len(lj.lstrip(' '))
                        if k <= ind + 4 and lj.strip():
                            break
                        if not TAG.match(lj):
                            title.append(lj[ind + 8:] if len(lj) > ind + 8 else lj.strip())
                        j += 1
                sections.append((''.join(title), ids.group(1) if ids else ''))
        i += 1
    return counts, sections
