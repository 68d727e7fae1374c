#!/usr/bin/python3
"""Prints the markdown table of data/calibration/long-context/*.json (scripts/long_context_accuracy.sh):
per model, context and Lynx split, the anchor's per-token acceptance alpha (and accepted drafts /
drafts tried), the anchor's teacher-forced agreement with the 16-bit KV, its perplexity change, and
the in-text passkey retrievals of the anchor. Standard library only.

    scripts/long_context_table.py [DIR]
"""
import glob
import json
import os
import sys


def rows(path):
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    passkey = {p["method"]: p for p in d.get("passkey", []) if p.get("variant") == "anchor"}
    for c in d["contexts"]:
        anchors = {r["method"]: r for r in c["rows"] if r["variant"] == "anchor"}
        for a in c["acceptance"]:
            accepted = sum(a["accepted_lengths"])
            tried = accepted + sum(1 for x in a["accepted_lengths"] if x < a["k_max"])
            r = anchors.get(a["method"], {})
            found = passkey.get(a["method"], {}).get("points", [])
            yield (d["model"], c["context"], a["method"], a["per_token"], accepted, tried,
                   r.get("agreement"), r.get("perplexity_delta"), c["reference_perplexity"],
                   "%d/%d" % (sum(p["found"] for p in found), sum(p["trials"] for p in found))
                   if found else "-")


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "data", "calibration", "long-context")
    print("| model | context | method | alpha (accepted/tried) | anchor agree | anchor d-ppl "
          "(16-bit ppl) | passkey (anchor) |")
    print("|---|---|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        for m, ctx, method, alpha, acc, tried, agree, dppl, ppl, pk in rows(path):
            print("| %s | %d | %s | %.3f (%d/%d) | %.3f | %+.2f (%.2f) | %s |" % (
                m, ctx, method, alpha, acc, tried, agree, dppl, ppl, pk))
    return 0


if __name__ == "__main__":
    sys.exit(main())
