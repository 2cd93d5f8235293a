#!/usr/bin/env python3
"""Golden tests of the source stage: each CASE.c has CASE.tokens (the
tokenizer's dump) and/or CASE.blocks (exports and kernel-doc blocks).
usage: run.py QU_KDOC_DUMP DIR; QUIRE_REGEN=1 rewrites the goldens."""
import os
import subprocess
import sys

exe, root = os.path.abspath(sys.argv[1]), sys.argv[2]
failed = 0
for name in sorted(os.listdir(root)):
    if not name.endswith(".c"):
        continue
    case = os.path.join(root, name[:-2])
    for kind in ("tokens", "blocks"):
        golden = case + "." + kind
        if not os.path.exists(golden) and not os.environ.get("QUIRE_REGEN"):
            continue
        out = subprocess.run([exe, "--" + kind, name], cwd=root,
                             capture_output=True).stdout
        if os.environ.get("QUIRE_REGEN"):
            open(golden, "wb").write(out)
        elif open(golden, "rb").read() != out:
            print(f"FAIL {name[:-2]}.{kind}")
            failed += 1
sys.exit(1 if failed else 0)
