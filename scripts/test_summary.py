#!/usr/bin/python3
"""Sum the test cases of meson test logs (cmocka and integration runners;
every argument ending in .json) and of other logs into one closing line:
'N passed, N failed'."""
import json
import re
import sys

passed = failed = skipped = 0
# further arguments: plain logs whose "PASS x" / "FAIL x" lines count
for path in [p for p in sys.argv[2:] if not p.endswith(".json")]:
    with open(path) as log:
        text = log.read()
    passed += len(re.findall(r"^PASS ", text, re.M))
    failed += len(re.findall(r"^FAIL ", text, re.M))
json_logs = [sys.argv[1]] + [p for p in sys.argv[2:] if p.endswith(".json")]
for path in json_logs:
    with open(path) as log:
        tests = [json.loads(line) for line in log]
    for t in tests:
        out = t.get("stdout", "") or ""
        ok = len(re.findall(r"^\[       OK \]", out, re.M))
        ok += len(re.findall(r"^PASS ", out, re.M))
        bad = len(re.findall(r"^\[  FAILED  \] \S", out, re.M))
        bad += len(re.findall(r"^FAIL ", out, re.M))
        if t["result"] == "SKIP":
            skipped += 1
            continue
        if ok == 0 and bad == 0:
            # a program that reports no cases counts as one
            ok, bad = (1, 0) if t["result"] in ("OK", "EXPECTEDFAIL") else (0, 1)
        elif t["result"] not in ("OK", "EXPECTEDFAIL") and bad == 0:
            bad = 1
        passed += ok
        failed += bad
print(f"{passed} passed, {failed} failed" +
      (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed else 0)
