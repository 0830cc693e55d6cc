#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The data plane stands on its own (DESIGN.md, "Layout").

Checks, on the source tree and on the built library:

1. No file under src/core, l2, ip4, ip6, udp, host, worker includes a
   header of src/control, cli, serve or app.
2. No file under src/core includes a header of a stage layer (l2, ip4,
   ip6, udp, host) or of the worker loop (worker).
3. Above the data plane the control side stands in floors too: control
   (the stack and its tables) under cli (the grammar and views) under
   serve (the listeners) under app. No file includes a header of a floor
   above its own.
4. With the static library given: the data plane's objects refer to no
   symbol the control side's objects define, core's objects to none a
   stage's or the worker loop's define, and no control-side object to
   one a floor above it defines (a call made through a declaration typed
   by hand, which the include rule cannot see).

Before checking the tree it checks itself: it plants each kind of
forbidden include (and call) in a scratch copy of the rules' inputs and
fails unless each is reported, so a rule that cannot fail fails here.

usage: check_layers.py SRC_DIR [liblistack.a]
"""
import os
import re
import subprocess
import sys

DATA_PLANE = ('core', 'l2', 'ip4', 'ip6', 'udp', 'host', 'worker')
ABOVE = ('control', 'cli', 'serve', 'app')
STAGES = ('l2', 'ip4', 'ip6', 'udp', 'host', 'worker')
# the control side's floors, lowest first
FLOORS = ('control', 'cli', 'serve', 'app')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z0-9_]+)/[^"]+"', re.M)


def include_faults(files):
    """files: {path relative to src: text}; returns the faults found."""
    faults = []
    for path, text in sorted(files.items()):
        layer = path.split('/')[0]
        if layer in FLOORS:
            above = FLOORS[FLOORS.index(layer) + 1:]
            for m in INCLUDE.finditer(text):
                if m.group(1) in above:
                    line = text.count('\n', 0, m.start()) + 1
                    faults.append(f'src/{path}:{line}: {layer}/ includes '
                                  f'{m.group(1)}/, a floor above it '
                                  f'("{m.group(0).strip()}")')
            continue
        if layer not in DATA_PLANE:
            continue
        for m in INCLUDE.finditer(text):
            to = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            if to in ABOVE:
                faults.append(f'src/{path}:{line}: the data plane includes '
                              f'{to}/ ("{m.group(0).strip()}")')
            elif layer == 'core' and to in STAGES:
                faults.append(f'src/{path}:{line}: core includes a stage '
                              f'layer, {to}/ ("{m.group(0).strip()}")')
    return faults


def object_layer(member):
    """src_ip4_icmp4.c.o -> ip4 (meson's names for the library's objects)."""
    m = re.match(r'src_([a-z0-9]+)_', member)
    if m:
        return m.group(1)
    return 'drivers' if member.startswith('drivers_') else None


def link_faults(symbols):
    """symbols: {object: (defined set, undefined set)}; the faults found."""
    defined_by = {}
    for obj, (defs, _) in symbols.items():
        for s in defs:
            defined_by.setdefault(s, set()).add(object_layer(obj))
    faults = []
    for obj, (_, undefs) in sorted(symbols.items()):
        layer = object_layer(obj)
        if layer in FLOORS:
            above = set(FLOORS[FLOORS.index(layer) + 1:])
            for s in sorted(undefs):
                bad = defined_by.get(s, set()) & above
                if bad:
                    faults.append(f'{obj}: calls {s}, defined in '
                                  f'{"/".join(sorted(bad))}, a floor above')
            continue
        if layer not in DATA_PLANE:
            continue
        for s in sorted(undefs):
            owners = defined_by.get(s, set())
            bad = owners & (set(ABOVE) | {'drivers'})
            if layer == 'core':
                bad |= owners & set(STAGES)
            if bad:
                faults.append(f'{obj}: calls {s}, defined in '
                              f'{"/".join(sorted(bad))}')
    return faults


def library_symbols(lib):
    out = subprocess.run(['nm', '-A', lib], check=True, capture_output=True,
                         text=True).stdout
    symbols = {}
    for line in out.splitlines():
        m = re.match(r'^[^:]+:([^:]+):\s*(?:[0-9a-f]+)?\s+(\w)\s+(\S+)$', line)
        if not m:
            continue
        obj, kind, name = m.groups()
        defs, undefs = symbols.setdefault(obj, (set(), set()))
        if kind == 'U':
            undefs.add(name)
        elif kind in 'TDBR':
            defs.add(name)
    return symbols


def self_test():
    """Each rule must report what it is there to find."""
    good = {'core/tx.c': '#include "core/worker.h"\n',
            'ip4/icmp4.c': '#include "core/tx.h"\n#include "udp/udp.h"\n',
            'control/stack.c': '#include "ip4/ip4.h"\n',
            'cli/show.c': '#include "control/control.h"\n',
            'serve/ctl_server.c': '#include "cli/cli.h"\n'}
    planted = [
        ('ip4/icmp4.c', '#include "control/control.h"\n'),
        ('udp/udp_ep.c', '  #  include "serve/metrics.h"\n'),
        ('worker/worker.c', '#include "cli/cmd.h"\n'),
        ('l2/arp_input.c', '#include "app/fwd.h"\n'),
        ('core/trace.c', '#include "ip4/ip4.h"\n'),
        ('core/worker.h', '#include "worker/worker.h"\n'),
        ('control/stack.c', '#include "serve/serve.h"\n'),
        ('cli/show.c', '#include "serve/metrics.h"\n'),
        ('serve/ctl_server.c', '#include "app/fwd_opts.h"\n'),
    ]
    errors = []
    if include_faults(good):
        errors.append(f'a clean tree is faulted: {include_faults(good)}')
    for path, text in planted:
        files = dict(good)
        files[path] = files.get(path, '') + text
        if not include_faults(files):
            errors.append(f'not reported: {text.strip()} in src/{path}')
    syms = {'src_ip4_icmp4.c.o': ({'lsk_icmp4_input'}, {'lsk_tx_flush'}),
            'src_core_tx.c.o': ({'lsk_tx_flush'}, set()),
            'src_control_stack.c.o': ({'lsk_stack_lock'}, {'lsk_tx_flush'}),
            'src_serve_telemetry.c.o': ({'lsk_telemetry_register'},
                                        {'lsk_stack_lock'})}
    if link_faults(syms):
        errors.append(f'clean objects are faulted: {link_faults(syms)}')
    for obj, sym in (('src_udp_udp_ep.c.o', 'lsk_stack_lock'),
                     ('src_core_tx.c.o', 'lsk_icmp4_input'),
                     ('src_control_stack.c.o', 'lsk_telemetry_register')):
        bad = {k: (set(d), set(u)) for k, (d, u) in syms.items()}
        bad.setdefault(obj, (set(), set()))[1].add(sym)
        if not link_faults(bad):
            errors.append(f'not reported: {obj} calling {sym}')
    return errors


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    errors = self_test()
    if errors:
        print('check_layers.py cannot find what it looks for:')
        print('\n'.join(errors))
        return 1
    src = sys.argv[1]
    files = {}
    for root, _, names in os.walk(src):
        for n in names:
            if n.endswith(('.c', '.h')):
                p = os.path.join(root, n)
                with open(p, encoding='utf-8') as f:
                    files[os.path.relpath(p, src)] = f.read()
    faults = include_faults(files)
    if len(sys.argv) == 3:
        faults += link_faults(library_symbols(sys.argv[2]))
    for f in faults:
        print(f)
    print(f'{len(files)} files{", the library" if len(sys.argv) == 3 else ""}'
          f': {len(faults)} faults')
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main())
