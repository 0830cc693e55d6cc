#!/usr/bin/python3
"""The bash completions know the words the programs take.

    /usr/bin/python3 tests/layout/completion_words.py SOURCE_ROOT

config/completion/listack-ctl must offer, for each command of
src/cli/help.c's table, the words that table lists (and the commands
themselves); config/completion/listack-fwd the long options of
src/app/fwd_opts.c. Each is checked by running bash on the completion
file as bash-completion would, with the words typed so far, so that what
a user gets on TAB is what is compared. A command added to help.c
without its words in the completion fails here.

Output: `PASS name` / `FAIL name: reason`; exit status 1 if any failed.
"""
import os
import re
import subprocess
import sys

failed = 0


def check(name, ok, why=""):
    global failed
    print("PASS %s" % name if ok else "FAIL %s: %s" % (name, why))
    failed += 0 if ok else 1


def help_table(path):
    """{command: words} of help.c's help[] table."""
    src = open(path).read()
    block = src[src.index("help[] = {") + len("help[] = {"):]
    block = block[:block.index("\n};")]
    table = {}
    for entry in re.findall(r"\{(.*?)\}", block, re.S):
        fields, cur = [], ""
        for tok in re.findall(r'"((?:[^"\\]|\\.)*)"|(,)', entry):
            if tok[1] == ",":
                fields.append(cur)
                cur = ""
            else:
                cur += tok[0]
        fields.append(cur)
        table[fields[0]] = fields[2].split()
    return table


def fwd_options(path):
    """getopt's long options, and those answered before EAL starts
    (fwd_early_opts: `strcmp(argv[i], "--version")`)."""
    src = open(path).read()
    return (set(re.findall(r'\{ "([a-z-]+)", (?:required|no)_argument', src))
            | set(re.findall(r'strcmp\(argv\[i\], "--([a-z-]+)"\)', src)))


def complete(compfile, words):
    """COMPREPLY for the command line words (the last one being typed)."""
    script = (
        'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); '
        'f=$(complete -p "$1" | sed "s/.*-F \\([^ ]*\\) .*/\\1/"); '
        '"$f"; printf "%s\\n" "${COMPREPLY[@]}"')
    r = subprocess.run(["bash", "-c", script, "bash", compfile] + words,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=30)
    if r.returncode != 0 or r.stderr:
        raise RuntimeError("bash: %s" % r.stderr.strip())
    return set(w for w in r.stdout.split("\n") if w)


def main():
    root = sys.argv[1]
    ctl = os.path.join(root, "config", "completion", "listack-ctl")
    fwd = os.path.join(root, "config", "completion", "listack-fwd")
    table = help_table(os.path.join(root, "src", "cli", "help.c"))

    got = complete(ctl, ["listack-ctl", ""])
    check("listack-ctl TAB: every command of help.c", got == set(table),
          "missing %s, extra %s" % (sorted(set(table) - got),
                                    sorted(got - set(table))))
    got = complete(ctl, ["listack-ctl", "-j", "sh"])
    check("listack-ctl -j sh TAB: show", got == {"show"}, str(got))
    bad = []
    for cmd, words in sorted(table.items()):
        got = complete(ctl, ["listack-ctl", "-s", "/run/x.sock", cmd, ""])
        if words and got != set(words):
            bad.append("%s: %s, help.c %s" % (cmd, sorted(got), words))
    check("listack-ctl COMMAND TAB: the words help.c lists", not bad,
          "; ".join(bad))
    got = complete(ctl, ["listack-ctl", "route", "add", ""])
    check("listack-ctl route add TAB: nothing (an address comes)",
          got == set(), str(got))

    opts = set("--" + o for o in fwd_options(
        os.path.join(root, "src", "app", "fwd_opts.c")))
    got = complete(fwd, ["listack-fwd", "-l", "0", "--", ""])
    check("listack-fwd -- TAB: every option of fwd_opts.c", got == opts,
          "missing %s, extra %s" % (sorted(opts - got), sorted(got - opts)))
    got = complete(fwd, ["listack-fwd", "--", "--mode", ""])
    check("listack-fwd -- --mode TAB: list single",
          got == {"list", "single"}, str(got))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
