#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every path docs/ARCHITECTURE.md names exists in the tree.

The map of the tree is only worth reading while it is true: a file that
moved or went away and still stands in the map fails this test. A path
is a word with a slash that ends in a file name with a known suffix, or
a folder written with its trailing slash (`src/worker/`); it is looked
for from the top of the tree and, as the map writes a layer's files
(`core/tx.h`), from src/, and as an include line writes a public header (`listack/udp.h`), from include/. Words of the recipe that name files a reader
would make (`ip4_foo`, `<layer>`, `*`) are examples, not claims.

usage: doc_paths.py [TOP] [DOC...]
"""
import os
import re
import sys

SUFFIXES = ('c', 'h', 'py', 'md', 'build', 'sh', 'txt', 'conf', 'service',
            'dict', '1')
PATH = re.compile(r'(?<![\w./-])((?:[\w.-]+/)+[\w.-]*)')
EXAMPLE = re.compile(r'foo|<|>|\*|\.\.\.|NAME|FILE')


def paths(text):
    for m in PATH.finditer(text):
        word = m.group(1).rstrip('.,;:)')
        if EXAMPLE.search(word) or '//' in word or word.startswith('http'):
            continue
        if word.endswith('/'):
            yield word
            continue
        suffix = word.rsplit('.', 1)[-1] if '.' in word.rsplit('/', 1)[-1] \
            else ''
        if suffix in SUFFIXES:
            yield word


def exists(top, word):
    return any(os.path.exists(os.path.join(top, base, word))
               for base in ('', 'src', 'include'))


def main(argv):
    top = argv[1] if len(argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    docs = argv[2:] or ['docs/ARCHITECTURE.md']
    missing, seen = [], 0
    for doc in docs:
        with open(os.path.join(top, doc), encoding='utf-8') as f:
            for no, line in enumerate(f, 1):
                for word in paths(line):
                    seen += 1
                    if not exists(top, word):
                        missing.append(f'{doc}:{no}: {word} does not exist')
    for m in missing:
        print(m)
    if seen == 0:
        print('no path found: the pattern or the document is wrong')
        return 1
    print(f'{seen} paths named, {len(missing)} missing')
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
