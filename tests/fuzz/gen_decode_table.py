#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen_decode_table.py — writes the target table of fuzz_decode.c from the generated headers.

Usage: gen_decode_table.py OUT.c HEADER.h... (the public and the _priv.h headers)

Reads the declarations xwgen put in the headers (not the XML): every reply and
XGE event that has a walker (xw__<name>_walk, declared in <name>_priv.h) becomes
a target; for every reply, event and struct type, a visitor calls each accessor
that takes the value alone (pointers with their _length/_end, iterators with the
element's own visitor and _sizeof, switches through their _unpack). Declarations
of a shape this script does not know are left out, never guessed at: the output
must always compile.
"""
import os
import re
import sys

EXPORT = re.compile(r'^XW_EXPORT\s+(.*?)\s*\b(xw_\w+)\((.*)\);\s*$')
WALKER = re.compile(r'^long (xw__\w+)_walk\(const char \*xw_b, size_t xw_avail, int xw_stop\);\s*$')
STRUCT = re.compile(r'typedef struct (xw_\w+_t) \{(.*?)\} \1;', re.S)
FIELD = re.compile(r'^\s*[\w ]+?[\s*]+(\w+)(\[[^\]]*\])?;\s*$')
ITER = re.compile(r'^(xw_\w+)_iterator_t$')
SCALAR = re.compile(r'^(u?int(8|16|32|64)_t|int|unsigned( int)?|char|float|double)$')

ITER_CAP = 4096  # elements visited per list: bounds the time, not the checks


class Header:
    def __init__(self):
        self.fns = {}        # name -> (ret, params)
        self.structs = {}    # type -> set of field names
        self.ptrs = {}       # type -> {normalized path: C member path} of its pointer members
        self.walkers = []    # names without the xw__ prefix and _walk suffix
        self.includes = []
        self.defines = {}    # XW_NAME -> number
        self.origin = {}     # walker -> header base name


def parse(paths):
    h = Header()
    for path in paths:
        text = open(path, encoding='utf-8').read()
        h.includes.append('xw/' + os.path.basename(path))
        base = os.path.basename(path)[:-2]
        if base.endswith('_priv'):  # the walkers' declarations: the description's private header
            base = base[:-len('_priv')]
        for m in re.finditer(r'^#define (XW_\w+) (\d+)$', text, re.M):
            h.defines[m.group(1)] = int(m.group(2))
        for m in STRUCT.finditer(text):
            fields = set()
            for line in m.group(2).splitlines():
                f = FIELD.match(line)
                if f:
                    fields.add(f.group(1))
            h.structs[m.group(1)] = fields
            h.ptrs[m.group(1)] = pointer_members(m.group(2))
        doc = ''
        for line in text.splitlines():
            m = EXPORT.match(line)
            if m:
                # fd lists live after the reply's bytes, in the block the runtime
                # returns; a packet alone does not have them
                if 'fds received' not in doc and 'past the last fd' not in doc:
                    h.fns[m.group(2)] = (m.group(1).strip(), m.group(3).strip())
                continue
            if line.startswith('/**') or line.startswith(' *'):
                doc = line if line.startswith('/**') else doc + line
                continue
            m = WALKER.match(line)
            if m:
                h.walkers.append(m.group(1)[len('xw__'):])
                h.origin[h.walkers[-1]] = base
    return h


def norm(name):
    return name.replace('_', '').replace('.', '').lower()


def pointer_members(body):
    """Pointer members of a struct body, nested anonymous structs included
    ({'keykeys': 'key.keys'}): in a switch's unpacked form, a part is present when
    its pointer is set."""
    out, inner = {}, None
    for line in body.splitlines():
        if re.match(r'^\s*struct \{\s*$', line):
            inner = []
            continue
        m = re.match(r'^\s*\} (\w+);\s*$', line)
        if m and inner is not None:
            for f in inner:
                out[norm(m.group(1) + f)] = m.group(1) + '.' + f
            inner = None
            continue
        m = re.match(r'^\s*[\w ]+?\s*\*\s*(\w+);\s*$', line)
        if m:
            if inner is not None:
                inner.append(m.group(1))
            else:
                out[norm(m.group(1))] = m.group(1)
    return out


def ptr_elem(ret):
    """'xw_window_t *' -> 'xw_window_t'; None when ret is not a pointer."""
    if not ret.endswith('*'):
        return None
    e = ret[:-1].strip()
    return None if '*' in e else e


class Emitter:
    def __init__(self, h):
        self.h = h
        self.out = []
        self.visitors = set()
        self.todo = []

    def need(self, t):
        if t not in self.visitors:
            self.visitors.add(t)
            self.todo.append(t)

    def one_arg(self, t):
        """Accessors taking exactly (const t *R)."""
        want = 'const %s *R' % t
        return {n: r for n, (r, p) in self.h.fns.items() if p == want}

    def two_arg(self, t, s):
        want = 'const %s *R, const %s *S' % (t, s)
        return {n: r for n, (r, p) in self.h.fns.items() if p == want}

    def s_arg(self, s):
        want = 'const %s *S' % s
        return {n: r for n, (r, p) in self.h.fns.items() if p == want}

    def sizeof1(self, t):
        """xw_<x>_sizeof(const void *_buffer) for struct type xw_<x>_t."""
        base = t[:-2]
        name = base + '_sizeof'
        if base.endswith('_reply'):
            # libxcb's name for a reply's size, unless the request is variable too:
            # then xw_<request>_sizeof measures the request
            req = base[:-len('_reply')]
            if req[len('xw_'):] in self.h.walkers:
                return None
            name = req + '_sizeof'
        return name if self.h.fns.get(name, (None, None))[1] == 'const void *_buffer' else None

    def has_visitor(self, t):
        return t in self.h.structs and bool(self.one_arg(t))

    def iterate(self, lines, ind, call, ret):
        m = ITER.match(ret)
        if not m:
            return
        e = m.group(1) + '_t'
        nxt = m.group(1) + '_next'
        if nxt not in self.h.fns:
            return
        lines.append(ind + '{')
        lines.append(ind + '    %s it = %s;' % (ret, call))
        end = m.group(1) + '_end'
        if self.h.fns.get(end, (None, ''))[1] == '%s i' % ret:
            lines.append(ind + '    if (it.data) { xw_generic_iterator_t e = %s(it); inside(e.data, 0); }' % end)
        lines.append(ind + '    for (int k = 0; it.data && it.rem > 0 && k < %d; k++, %s(&it)) {' % (ITER_CAP, nxt))
        if e in self.h.structs or e.endswith('_t'):
            lines.append(ind + '        touch(it.data, sizeof(*it.data));')
        sz = self.sizeof1(e)
        if sz:
            lines.append(ind + '        touch(it.data, (size_t)%s(it.data));' % sz)
        if self.has_visitor(e):
            lines.append(ind + '        v_%s(it.data);' % e)
        lines.append(ind + '    }')
        lines.append(ind + '}')
        if self.has_visitor(e):
            self.need(e)

    def lists(self, lines, fns, ptr_fns, args, ptr_args):
        """Pointers with their _end or _length, iterators, plain scalars."""
        for n, r in sorted(fns.items()):
            if n.endswith('_iterator'):
                self.iterate(lines, '    ', '%s(%s)' % (n, args), r)
            elif n.endswith('_length') and r == 'int':
                lines.append('    sink((uint64_t)%s(%s));' % (n, args))
        for n, r in sorted(ptr_fns.items()):
            e = ptr_elem(r)
            if e is None:
                if SCALAR.match(r):
                    lines.append('    sink((uint64_t)%s(%s));' % (n, ptr_args))
                continue
            if e == 'void':
                continue
            if fns.get(n + '_end') == 'xw_generic_iterator_t':
                lines.append('    { const char *p = (const char *)%s(%s); xw_generic_iterator_t e = %s(%s);'
                             % (n, ptr_args, n + '_end', args))
                lines.append('      if (p) touch(p, (size_t)((const char *)e.data - p)); }')
            elif fns.get(n + '_length') == 'int' and e != 'void':
                lines.append('    { const %s *p = %s(%s); int n = %s(%s);' % (e, n, ptr_args, n + '_length', args))
                lines.append('      if (p) touch(p, (size_t)n * sizeof(*p)); }')
            else:
                lines.append('    inside(%s(%s), 0);' % (n, ptr_args))

    def switch(self, lines, t, n):
        """void *n(const t *R) with n_unpack: unpack with R's fields, visit the parts."""
        s = n + '_t'
        unpack = self.h.fns.get(n + '_unpack')
        if not unpack or s not in self.h.structs:
            return
        params = [p.strip() for p in unpack[1].split(',')]
        if not params or params[0] != 'const void *_buffer' or params[-1] != '%s *_aux' % s:
            return
        vals = []
        for p in params[1:-1]:
            f = re.match(r'^[\w ]+ xw_v_(\w+)$', p)
            if not f or f.group(1) not in self.h.structs.get(t, ()):
                return
            vals.append('R->' + f.group(1))
        lines.append('    {')
        lines.append('        %s S;' % s)
        lines.append('        memset(&S, 0, sizeof(S));')
        lines.append('        const char *sp = (const char *)%s(R);' % n)
        lines.append('        int sz = %s(%s);' % (n + '_unpack', ', '.join(['sp'] + vals + ['&S'])))
        lines.append('        touch(sp, (size_t)sz);')
        lines.append('        vs_%s(R, &S);' % s)
        lines.append('    }')
        # the switch's own visitor, emitted before this one
        # a caller reads a part only when the switch's mask says it is there (its
        # pointer is set); accessors whose part is not found are left out
        ptrs = self.h.ptrs.get(s, {})
        prefix = n + '_'
        body = []
        for name, ret in sorted(list(self.two_arg(t, s).items()) + list(self.s_arg(s).items())):
            field = name[len(prefix):]
            for suffix in ('_length', '_iterator', '_end'):
                if field.endswith(suffix):
                    field = field[:-len(suffix)]
            member = ptrs.get(norm(field))
            if member is None:
                continue
            two = self.two_arg(t, s)
            one = self.s_arg(s)
            part = []
            self.lists(part, {k: v for k, v in two.items() if k == name},
                       {k: v for k, v in one.items() if k == name}, 'R, S', 'S')
            if name in one and name + '_end' in two:
                part = []
                self.lists(part, {name + '_end': two[name + '_end']}, {name: one[name]}, 'R, S', 'S')
            elif name in one and name + '_length' in two:
                part = []
                self.lists(part, {name + '_length': two[name + '_length']}, {name: one[name]}, 'R, S', 'S')
            if part:
                body.append('    if (S->%s) {' % member)
                body.extend('    ' + l for l in part)
                body.append('    }')
        self.out.append('static void vs_%s(const %s *R, const %s *S)' % (s, t, s))
        self.out.append('{')
        self.out.append('    (void)R, (void)S;')
        self.out.extend(body)
        self.out.append('}')
        self.out.append('')

    def visitor(self, t):
        fns = self.one_arg(t)
        lines = []
        for n, r in sorted(fns.items()):
            if r == 'void *':
                self.switch(lines, t, n)
        self.lists(lines, fns, {n: r for n, r in fns.items()
                                if not n.endswith(('_length', '_end', '_iterator')) and r != 'void *'}, 'R', 'R')
        self.out.append('static void v_%s(const %s *R)' % (t, t))
        self.out.append('{')
        self.out.append('    touch(R, sizeof(*R));')
        self.out.extend(lines)
        self.out.append('}')
        self.out.append('')

    def emit(self, path):
        h = self.h
        head = ['/* Generated by gen_decode_table.py from the xwgen headers; do not edit. */',
                '#include <stdint.h>', '#include <string.h>', '', '#include <xw/xwext.h>']
        head += ['#include <%s>' % i for i in sorted(h.includes)]
        head += ['', '#include "fuzz_decode.h"', '']
        targets = []
        for w in sorted(h.walkers):
            t = 'xw_%s_t' % w
            if t not in h.structs:
                continue
            if w.endswith('_reply'):
                kind = 'FUZZ_REPLY'
            elif w.endswith('_event'):
                kind = 'FUZZ_XGE'
            else:
                continue
            visit = 'NULL'
            if self.has_visitor(t):
                self.need(t)
                self.out.append('static void t_%s(const void *p) { v_%s((const %s *)p); }' % (w, t, t))
                visit = 't_' + w
            sz = self.sizeof1(t) or 'NULL'
            num = -1
            if kind == 'FUZZ_XGE':
                num = h.defines.get('XW_' + w[:-len('_event')].upper(), -1)
            targets.append('    { "%s", "%s", %s, %d, xw__%s_walk, %s, %s },'
                           % (w, h.origin[w], kind, num, w, visit, sz))
        while self.todo:
            self.visitor(self.todo.pop())
        head += ['static void v_%s(const %s *R);' % (t, t) for t in sorted(self.visitors)]
        head.append('')
        tail = ['', 'const struct fuzz_target fuzz_targets[] = {'] + targets + ['};',
                'const size_t fuzz_ntargets = sizeof(fuzz_targets) / sizeof(fuzz_targets[0]);', '']
        with open(path, 'w', encoding='utf-8') as f:
            f.write('\n'.join(head + self.out + tail))


def main():
    if len(sys.argv) < 3:
        sys.stderr.write('usage: gen_decode_table.py OUT.c HEADER.h...\n')
        return 1
    Emitter(parse(sys.argv[2:])).emit(sys.argv[1])
    return 0


if __name__ == '__main__':
    sys.exit(main())
