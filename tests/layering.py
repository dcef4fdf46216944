#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The driver's layers, read off what the compiler made (t0171).

usage: layering.py OBJDIR SRCDIR CHECK

SRCDIR is tools/ (or a copy): its files and those of its folders, whose
headers are named from it ("lib/strbuf.h"); OBJDIR holds an object per
source file, named after it.

CHECK is one of:
  cycles    no two object files call each other, directly or through
            others (nm's defined and undefined symbols): the file graph
            is a tree of layers
  engine    no object a step calls (step_*.o and everything reachable
            from them) is the engine (verify.o and verify_beside.o), and
            none of their sources includes the engine's header, verify.h,
            or its private one, verify_int.h; only the two commands that
            run the pipeline (cmd/cmd_verify.c, sweep.c) call the engine or
            include its header, and no header includes it; they call
            verify.o, its entry, and no file but the engine's own calls
            verify_beside.o or includes verify_int.h
  const     no function outside the engine (verify.c, verify_beside.c,
            verify_int.h) takes a writable struct verify_ctx: a step
            writes only its own output
  commands  the commands (tools/cmd/) stand on top: no file but
            kverify.c and those of tools/cmd/ calls one or includes a
            header of tools/cmd/, and no command calls another command
            (cmd.o and variables.o, what they share, are no command:
            a command is a cmd_<name>.c)
  shared    b4's workflows and what they share with the pipeline (the
            source, checkpatch, the series) stand below the steps: nothing
            reachable from b4.o is a step (step.o, step_*.o) or the engine,
            and none of their sources includes step.h, steps.h, verify.h or
            verify_int.h, directly or through another header; b4's own
            files (b4.o, the command, and the b4_*.o of its workflows) are
            all reached from b4.o, so the rule sees each of them
  folders   the folders stand in layers: lib/, sources/, core/ (the
            step contract, the series, what every step and b4 may use),
            then b4/, debian/ and kernels/ side by side (b4's workflows,
            Debian's patch queue, the kernels a run builds), steps/,
            cmd/; a file of one neither includes a
            header of a folder above its own or beside it nor calls a
            file there
Prints what breaks the rule and exits 1; exits 0 when it holds.
"""
import collections
import glob
import os
import re
import subprocess
import sys


# The commands that run the pipeline, kverify's verify (and bundle) and
# sweep: the only callers of the engine's entry point, verify_target().
ENGINE_CALLERS = {'cmd_verify', 'sweep'}

# The engine's objects: verify.o, its entry (verify_target(), the step
# table), and verify_beside.o, a step's run (in a process of its own for
# a STEP_BESIDE step), which only verify.o calls.
ENGINE = {'verify', 'verify_beside'}
ENGINE_ENTRY = 'verify'

# The engine's sources, below tools/: the only ones that hold a writable
# struct verify_ctx, and the only ones that include verify_int.h.
ENGINE_SOURCES = {'verify.c', 'verify_beside.c', 'verify_int.h'}

# The steps' and the engine's headers, which code below the steps does
# not include.
STEP_HEADERS = {'step.h', 'steps.h', 'verify.h', 'verify_int.h'}


# The folders of tools/ that stand in layers, lowest first; the folders
# of one layer stand side by side and use none of each other.
LAYERS = [['lib'], ['sources'], ['core'], ['b4', 'debian', 'kernels'],
          ['steps'], ['cmd']]
FOLDERS = [f for layer in LAYERS for f in layer]


def folder_of(path, srcdir):
    """The layered folder @path (a file below @srcdir) is in, or None."""
    top = os.path.relpath(path, srcdir).split(os.sep)[0]
    return top if top in FOLDERS else None


def call_graph(objdir):
    defined, undefined = {}, collections.defaultdict(set)
    objs = sorted(glob.glob(os.path.join(objdir, '*.o')))
    # One nm for all ("OBJ.o:VALUE TYPE SYMBOL" lines): an nm a file, ~45
    # a check, was most of t0171's 92 CPU-s.
    out = subprocess.run(['nm', '-A', '--', *objs], capture_output=True,
                         text=True, check=True).stdout if objs else ''
    for line in out.splitlines():
        obj, _, syms = line.partition('.o:')
        name = os.path.basename(obj)
        f = syms.split()
        if len(f) == 3 and f[1] in 'TDBR':
            defined[f[2]] = name
        elif len(f) == 2 and f[0] == 'U':
            undefined[name].add(f[1])
    graph = collections.defaultdict(dict)
    for name, syms in undefined.items():
        for s in sorted(syms):
            to = defined.get(s)
            if to and to != name:
                graph[name].setdefault(to, s)
    return graph


def cycles(graph):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def reachable(graph, roots):
    seen, todo = set(), list(roots)
    while todo:
        v = todo.pop()
        if v not in seen:
            seen.add(v)
            todo.extend(graph.get(v, {}))
    return seen


def sources(srcdir):
    """Every .c and .h file below @srcdir."""
    return sorted(glob.glob(os.path.join(srcdir, '**', '*.[ch]'),
                            recursive=True))


def source_of(srcdir):
    """An object's name to its source file's path."""
    return {os.path.basename(f)[:-2]: f for f in sources(srcdir)
            if f.endswith('.c')}


def includes(src, srcdir, seen=None):
    """The repository's headers @src includes, directly or through others,
    by their file names."""
    seen = set() if seen is None else seen
    for h in re.findall(r'^#include "([^"]+)"', open(src).read(), re.M):
        path = os.path.join(srcdir, h)
        if h not in seen and os.path.exists(path):
            seen.add(h)
            includes(path, srcdir, seen)
    return {os.path.basename(h) for h in seen}


def is_step(name):
    return name == 'step' or name in ENGINE or name.startswith('step_')


def is_engine_source(src, srcdir):
    return os.path.relpath(src, srcdir) in ENGINE_SOURCES


def main():
    objdir, srcdir, check = sys.argv[1:4]
    graph = call_graph(objdir)
    source = source_of(srcdir)
    bad = []
    if check == 'cycles':
        for comp in cycles(graph):
            edges = ['%s -> %s (%s)' % (a, b, graph[a][b])
                     for a in comp for b in graph.get(a, {}) if b in comp]
            bad.append('a cycle: ' + ', '.join(edges))
    elif check == 'engine':
        steps = [v for v in graph if v.startswith('step_')]
        if not steps:
            bad.append('no step_*.o in %s' % objdir)
        below = reachable(graph, steps)
        for name in sorted(below & ENGINE):
            bad.append('a step reaches the engine (%s.o)' % name)
        for name in sorted(below):
            src = source.get(name)
            for h in re.findall(r'#include "(verify(?:_int)?\.h)"',
                                open(src).read() if src else ''):
                bad.append('%s.c: a step or what it calls includes '
                           'the engine\'s header %s' % (name, h))
        for name in sorted(set(graph) - ENGINE):
            for to in sorted(ENGINE & set(graph[name])):
                if to != ENGINE_ENTRY:
                    bad.append('%s.o calls %s.o (%s), the engine\'s own: '
                               'only verify.o does'
                               % (name, to, graph[name][to]))
                elif name not in ENGINE_CALLERS:
                    bad.append('%s.o calls the engine (%s), which only %s '
                               'do' % (name, graph[name][to],
                                       ' and '.join(sorted(ENGINE_CALLERS))))
        for src in sources(srcdir):
            name = os.path.basename(src)
            text = open(src).read()
            engine = is_engine_source(src, srcdir)
            allowed = (engine or
                       name.endswith('.c') and name[:-2] in ENGINE_CALLERS)
            if not allowed and re.search(r'#include "verify\.h"', text):
                bad.append('%s: includes the engine\'s header verify.h'
                           % name)
            if not engine and re.search(r'#include "verify_int\.h"', text):
                bad.append('%s: includes verify_int.h, the engine\'s own'
                           % name)
    elif check == 'const':
        for src in sources(srcdir):
            if is_engine_source(src, srcdir):
                continue
            for n, line in enumerate(open(src), 1):
                if re.search(r'(?<!const )struct verify_ctx \*', line):
                    bad.append('%s:%d: a writable struct verify_ctx: %s'
                               % (src, n, line.strip()))
    elif check == 'commands':
        incmd = {os.path.basename(f)[:-2] for f in sources(srcdir)
                 if f.endswith('.c') and
                 os.path.basename(os.path.dirname(f)) == 'cmd'}
        cmds = {n for n in incmd if n.startswith('cmd_')}
        if not cmds:
            bad.append('no tools/cmd/cmd_*.c in %s' % srcdir)
        for name in sorted(graph):
            for to, sym in sorted(graph[name].items()):
                if to not in incmd:
                    continue
                if name not in incmd and name != 'kverify':
                    bad.append('%s.o calls %s (%s), a file of tools/cmd/: '
                               'only kverify.c and the commands do'
                               % (name, to, sym))
                elif name in cmds and to in cmds:
                    bad.append('%s.o calls %s (%s): a command calls '
                               'another command' % (name, to, sym))
        for src in sources(srcdir):
            rel = os.path.relpath(src, srcdir)
            if rel.startswith('cmd/') or rel == 'kverify.c':
                continue
            if re.search(r'^#include "cmd/', open(src).read(), re.M):
                bad.append('%s: includes a header of tools/cmd/' % rel)
    elif check == 'shared':
        if 'b4' not in graph:
            bad.append('no b4.o in %s' % objdir)
        below = reachable(graph, ['b4'])
        for obj in sorted(glob.glob(os.path.join(objdir, 'b4_*.o'))):
            name = os.path.basename(obj)[:-2]
            if name not in below:
                bad.append('%s.o: a file of b4 that b4.o does not reach, '
                           'so this rule does not see it' % name)
        for name in sorted(below):
            for to, sym in sorted(graph.get(name, {}).items()):
                if is_step(to):
                    bad.append('%s.o calls %s (%s): b4 reaches a step'
                               % (name, to, sym))
            src = source.get(name)
            if src:
                for h in sorted(includes(src, srcdir) & STEP_HEADERS):
                    bad.append('%s.c: includes %s, a step\'s header, '
                               'and b4 uses it' % (name, h))
    elif check == 'folders':
        rank = {f: i for i, layer in enumerate(LAYERS) for f in layer}
        where = {name: folder_of(src, srcdir) for name, src in source.items()}
        for src in sources(srcdir):
            mine = folder_of(src, srcdir)
            if mine is None:
                continue
            for h in re.findall(r'^#include "([^/"]+)/', open(src).read(),
                                re.M):
                if h in rank and h != mine and rank[h] >= rank[mine]:
                    bad.append('%s: includes a header of %s/, a folder '
                               '%s %s/' % (os.path.relpath(src, srcdir), h,
                                           'above' if rank[h] > rank[mine]
                                           else 'beside', mine))
        for name in sorted(graph):
            mine = where.get(name)
            for to, sym in sorted(graph[name].items()):
                theirs = where.get(to)
                if (mine and theirs and theirs != mine and
                        rank[theirs] >= rank[mine]):
                    bad.append('%s.o calls %s (%s), of %s/, a folder %s '
                               '%s/' % (name, to, sym, theirs,
                                        'above' if rank[theirs] > rank[mine]
                                        else 'beside', mine))
    else:
        sys.exit('layering.py: no check named %r' % check)
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
